import 'leaflet/dist/leaflet.css';
import Box from '@mui/material/Box';
import { ASSET_MESSAGES, MAP, type MapSite, markerSize } from '@sitewatch/contracts/sites';
import L from 'leaflet';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import Supercluster from 'supercluster';
import { countOf } from '../../lib/format.ts';
import { http } from '../../lib/http.ts';
import { showToast } from '../../lib/toasts.ts';
import { useCustomerSettings } from '../tenant-settings/api.ts';
import { loadCountries } from './basemap.ts';
import { groupByFirstLevel, groupColour, pinSvg, rankColour, sitesBounds, statusColour, statusRank } from './map-model.ts';

interface Counts {
  total: number;
  online: number;
  offline: number;
  address: string[];
}

const el = (tag: string, text?: string, className?: string) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
};

/** The popup of SPEC 2.12: Managed Devices, Online, Offline and Address, built from text nodes only. */
function popupContent(site: MapSite): HTMLElement {
  const root = el('div', undefined, 'sw-popup');
  root.append(el('strong', site.name));
  const list = el('dl');
  const row = (label: string, value: string) => {
    list.append(el('dt', label), el('dd', value));
  };
  root.append(list);
  row('Managed Devices', '…');
  http
    .get<Counts>(`/iotapp/assets/${site.id}/device-counts/`, { toast: false })
    .then((c) => {
      list.replaceChildren();
      row('Managed Devices', String(c.total));
      row('Online', String(c.online));
      row('Offline', String(c.offline));
      row('Address', c.address.join(', '));
    })
    .catch(() => {
      list.replaceChildren();
      row('Address', '—');
    });
  const link = el('a', 'Open site') as HTMLAnchorElement;
  link.href = `/assets/view/${site.id}`;
  root.append(link);
  return root;
}

const tooltip = (text: string) => el('span', text);
const FIT: L.FitBoundsOptions = { padding: [32, 32], maxZoom: 12, animate: false };

/**
 * The site map: an offline vector basemap (plus the customer's tile server when set), one marker per site coloured
 * by its parent device's status, clustered as the zoom needs, and one marker per first address level at zoom 4 or
 * less. Only markers in view are in the DOM.
 */
export function SiteMap({
  sites,
  focus,
  height = 560,
}: {
  sites: MapSite[];
  focus?: MapSite | null;
  /** 'window': down to the bottom of the window from where the map starts (never past it), at least 320 px. */
  height?: number | string | 'window';
}) {
  const container = useRef<HTMLDivElement>(null);
  const [fillHeight, setFillHeight] = useState<number | null>(null);
  useLayoutEffect(() => {
    if (height !== 'window') return;
    const measure = () => {
      const top = container.current?.getBoundingClientRect().top ?? 0;
      setFillHeight(Math.max(320, Math.floor(window.innerHeight - Math.max(0, top) - 24)));
      mapRef.current?.invalidateSize();
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [height]);
  const mapRef = useRef<L.Map | null>(null);
  const layerRef = useRef<L.LayerGroup | null>(null);
  /** The box of the first view once the sites are known; the user moving the map ends the fitting. */
  const fitted = useRef<L.LatLngBoundsExpression | null>(null);
  const userMoved = useRef(false);
  const tileUrl = useCustomerSettings().data?.mapTileUrl;

  // The map itself, once.
  useEffect(() => {
    if (!container.current) return;
    const map = L.map(container.current, {
      minZoom: MAP.minZoom,
      zoomSnap: 0.5,
      maxBounds: MAP.bounds,
      maxBoundsViscosity: 1,
      worldCopyJump: false,
      attributionControl: true,
      // The country outlines on one canvas: far cheaper to draw and to pan than an SVG path per country.
      preferCanvas: true,
    }).setView(MAP.center, MAP.initialZoom);
    map.attributionControl.setPrefix(false);
    mapRef.current = map;
    layerRef.current = L.layerGroup().addTo(map);
    let cancelled = false;
    void loadCountries().then((countries) => {
      if (cancelled) return;
      L.geoJSON(countries, {
        interactive: false,
        style: { color: '#8aa1ad', weight: 0.6, fillColor: '#eef2f4', fillOpacity: 1 },
      }).addTo(map);
      map.attributionControl.addAttribution('Natural Earth');
    });
    // The map's box changes after it is made (the tree pane arriving, the window-high layout, a rotated phone):
    // Leaflet must learn its new size, and until the user moves the map the first view keeps every site in it.
    const node = container.current;
    const touched = () => {
      userMoved.current = true;
    };
    node.addEventListener('pointerdown', touched);
    node.addEventListener('wheel', touched, { passive: true });
    node.addEventListener('keydown', touched);
    const resized = new ResizeObserver(() => {
      map.invalidateSize();
      if (fitted.current && !userMoved.current) map.fitBounds(fitted.current, FIT);
    });
    resized.observe(node);
    return () => {
      cancelled = true;
      resized.disconnect();
      node.removeEventListener('pointerdown', touched);
      node.removeEventListener('wheel', touched);
      node.removeEventListener('keydown', touched);
      map.remove();
      mapRef.current = null;
    };
  }, []);

  // The customer's tile server, when configured; its failure is reported once.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !tileUrl) return;
    let reported = false;
    const tiles = L.tileLayer(tileUrl, { maxZoom: 19 }).addTo(map);
    tiles.on('tileerror', () => {
      if (reported) return;
      reported = true;
      showToast('error', ASSET_MESSAGES.mapFailed);
    });
    return () => {
      tiles.remove();
    };
  }, [tileUrl]);

  // Markers for what is in view.
  useEffect(() => {
    const map = mapRef.current;
    const layer = layerRef.current;
    if (!map || !layer) return;
    // The cluster index is built when a zoom past the country grouping first needs it.
    let built: Supercluster<{ site: MapSite }, { worst: number }> | null = null;
    const clusterIndex = () => {
      if (built) return built;
      // Each cluster carries the worst status inside it, so that one offline site shows through its cluster.
      built = new Supercluster<{ site: MapSite }, { worst: number }>({
        radius: 48,
        maxZoom: 16,
        map: (props) => ({ worst: statusRank(props.site.status) }),
        reduce: (acc, props) => {
          acc.worst = Math.max(acc.worst, props.worst);
        },
      });
      built.load(
        sites.map((site) => ({
          type: 'Feature',
          properties: { site },
          geometry: { type: 'Point', coordinates: [site.longitude, site.latitude] },
        })),
      );
      return built;
    };
    const groups = groupByFirstLevel(sites);
    const bubble = (count: number, colour: string, className: string) =>
      L.divIcon({
        className,
        html: `<div style="background:${colour}">${count}</div>`,
        iconSize: [34, 34],
        iconAnchor: [17, 17],
      });
    const render = () => {
      layer.clearLayers();
      const zoom = map.getZoom();
      if (zoom <= MAP.groupByFirstLevelAtOrBelowZoom) {
        for (const g of groups) {
          L.marker([g.latitude, g.longitude], { icon: bubble(g.count, groupColour(g), 'sw-group'), keyboard: true, title: g.level1 })
            .bindTooltip(tooltip(`${g.level1}: ${countOf(g.count, 'site')} (${g.online} online, ${g.offline} offline)`))
            .on('click', () => map.flyTo([g.latitude, g.longitude], MAP.groupByFirstLevelAtOrBelowZoom + 1))
            .addTo(layer);
        }
        return;
      }
      const b = map.getBounds();
      const size = markerSize(Math.round(zoom));
      const index = clusterIndex();
      const clusters = index.getClusters([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], Math.round(zoom));
      for (const c of clusters) {
        const [lng, lat] = c.geometry.coordinates as [number, number];
        if ('cluster' in c.properties && c.properties.cluster) {
          const clusterId = c.properties.cluster_id as number;
          const count = c.properties.point_count as number;
          const worst = (c.properties as { worst?: number }).worst ?? 1;
          L.marker([lat, lng], { icon: bubble(count, rankColour(worst), 'sw-cluster') })
            .bindTooltip(tooltip(countOf(count, 'site')))
            .on('click', () => map.flyTo([lat, lng], Math.min(index.getClusterExpansionZoom(clusterId), 18)))
            .addTo(layer);
          continue;
        }
        const site = (c.properties as { site: MapSite }).site;
        L.marker([lat, lng], {
          icon: L.divIcon({
            className: 'sw-site',
            html: pinSvg(statusColour(site.status), size.width, size.height),
            iconSize: [size.width, size.height],
            iconAnchor: [size.width / 2, size.height],
          }),
          title: site.name,
        })
          .bindTooltip(tooltip(site.name), { direction: 'top', offset: [0, -size.height] })
          .bindPopup(() => popupContent(site))
          .addTo(layer);
      }
    };
    // The first view shows every site rather than the whole world (SPEC 2.12's zoom 2 leaves most of them tiny).
    const box = fitted.current ? null : sitesBounds(sites);
    if (box) {
      fitted.current = box;
      map.fitBounds(box, FIT);
    }
    render();
    map.on('moveend zoomend', render);
    return () => {
      map.off('moveend zoomend', render);
    };
  }, [sites]);

  // Flying to a site chosen in the list or found by the search, and opening its popup there.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !focus) return;
    userMoved.current = true;
    map.flyTo([focus.latitude, focus.longitude], 14);
    map.once('moveend', () => {
      L.popup({ offset: [0, -40] })
        .setLatLng([focus.latitude, focus.longitude])
        .setContent(popupContent(focus))
        .openOn(map);
    });
  }, [focus]);

  return (
    <Box
      ref={container}
      data-testid="site-map"
      sx={{
        height: height === 'window' ? (fillHeight ?? 320) : height,
        width: '100%',
        // Leaflet's panes and canvas reach past the map while it pans: they must never widen the page.
        overflow: 'hidden',
        position: 'relative',
        borderRadius: 1,
        bgcolor: '#cfe0ea',
        '& .sw-group div, & .sw-cluster div': {
          width: 34,
          height: 34,
          borderRadius: '50%',
          color: '#fff',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          fontWeight: 700,
          fontSize: 12,
          border: '2px solid #fff',
          boxShadow: '0 1px 4px rgba(0,0,0,.35)',
        },
        '& .sw-site': { background: 'none', border: 0 },
        '& .sw-popup dl': { display: 'grid', gridTemplateColumns: 'auto auto', columnGap: '12px', margin: '6px 0' },
        '& .sw-popup dd': { margin: 0, fontWeight: 600 },
        // The container is the Leaflet container itself: without this its default grey shows beside the world.
        '&.leaflet-container': { background: '#cfe0ea' },
      }}
    />
  );
}
