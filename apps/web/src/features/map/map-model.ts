import { DEVICE_STATUS_COLOURS, type DeviceStatus } from '@sitewatch/contracts/devices';
import { ASSET_TREE, type MapSite } from '@sitewatch/contracts/sites';

/** Marker colour: the status of the site's parent device, grey-blue when it has none. */
export const statusColour = (status: string | null): string =>
  (status && DEVICE_STATUS_COLOURS[status as DeviceStatus]) || ASSET_TREE.defaultStatusColour;

export interface LevelGroup {
  level1: string;
  latitude: number;
  longitude: number;
  count: number;
  online: number;
  offline: number;
  sites: number[];
}

/**
 * SPEC 2.12: at zoom 4 or less one marker per first address level (a country), placed at the middle of its sites.
 */
export function groupByFirstLevel(sites: readonly MapSite[]): LevelGroup[] {
  const groups = new Map<string, LevelGroup & { latSum: number; lngSum: number }>();
  for (const s of sites) {
    const key = s.level1 ?? '—';
    let g = groups.get(key);
    if (!g) {
      g = { level1: key, latitude: 0, longitude: 0, count: 0, online: 0, offline: 0, sites: [], latSum: 0, lngSum: 0 };
      groups.set(key, g);
    }
    g.count++;
    g.latSum += s.latitude;
    g.lngSum += s.longitude;
    if (s.status === 'Online') g.online++;
    else if (s.status === 'Offline') g.offline++;
    g.sites.push(s.id);
  }
  return [...groups.values()].map(({ latSum, lngSum, ...g }) => ({ ...g, latitude: latSum / g.count, longitude: lngSum / g.count }));
}

/** Worst colour of a group: red when any site is offline, green when all are online. */
export function groupColour(g: Pick<LevelGroup, 'count' | 'online' | 'offline'>): string {
  if (g.offline > 0) return statusColour('Offline');
  if (g.online === g.count) return statusColour('Online');
  return ASSET_TREE.defaultStatusColour;
}

/** A pin as an SVG string (Leaflet div icons take HTML). Colours come from our constants, never from data. */
export function pinSvg(colour: string, width: number, height: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 24 32" aria-hidden="true"><path d="M12 0C5.4 0 0 5.3 0 11.9 0 20.8 12 32 12 32s12-11.2 12-20.1C24 5.3 18.6 0 12 0z" fill="${colour}" stroke="#fff" stroke-width="1.5"/><circle cx="12" cy="12" r="4.5" fill="#fff"/></svg>`;
}

/** How bad a site's status is, for colouring a cluster by the worst site inside: offline, then unknown, then online. */
export const statusRank = (status: string | null): number => (status === 'Offline' ? 2 : status === 'Online' ? 0 : 1);

/** The colour of a cluster whose worst site has this rank. */
export const rankColour = (rank: number): string =>
  rank >= 2 ? statusColour('Offline') : rank === 0 ? statusColour('Online') : ASSET_TREE.defaultStatusColour;

/** The box holding every site, as [[south, west], [north, east]], or null without sites. */
export function sitesBounds(sites: readonly Pick<MapSite, 'latitude' | 'longitude'>[]): [[number, number], [number, number]] | null {
  if (sites.length === 0) return null;
  let south = 90;
  let west = 180;
  let north = -90;
  let east = -180;
  for (const s of sites) {
    south = Math.min(south, s.latitude);
    north = Math.max(north, s.latitude);
    west = Math.min(west, s.longitude);
    east = Math.max(east, s.longitude);
  }
  return [
    [south, west],
    [north, east],
  ];
}
