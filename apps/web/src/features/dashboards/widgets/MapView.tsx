import type { WidgetData } from '@sitewatch/contracts/dashboards';
import type { MapSite } from '@sitewatch/contracts/sites';
import { lazy, Suspense, useMemo } from 'react';
import { PageLoader } from '../../../components/PageLoader.tsx';
import { Centered } from './DataViews.tsx';

// the map (Leaflet, the basemap) loads only when a map widget is on screen
const SiteMap = lazy(() => import('../../map/SiteMap.tsx').then((m) => ({ default: m.SiteMap })));

export function MapView({ data }: { data: Extract<WidgetData, { kind: 'siteMap' }> }) {
  const sites = useMemo<MapSite[]>(
    () =>
      data.sites.map((s) => ({
        id: s.id,
        name: s.name,
        latitude: s.latitude,
        longitude: s.longitude,
        level1: null,
        status: s.devices === 0 ? null : s.offline > 0 ? 'Offline' : 'Online',
        alarmStatus: null,
      })),
    [data.sites],
  );
  if (sites.length === 0) return <Centered testId="site-map-empty">No sites with a location</Centered>;
  return (
    <Suspense fallback={<PageLoader />}>
      <div data-testid="site-map" style={{ height: '100%' }}>
        <SiteMap sites={sites} height="100%" />
      </div>
    </Suspense>
  );
}
