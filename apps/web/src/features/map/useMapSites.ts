import { useQuery } from '@tanstack/react-query';
import { siteKeys } from '../sites/keys.ts';
import { MAP_SITES_FRESH_MS, type MapFilter, takeMapSites } from './map-data.ts';

/**
 * Every located site as a compact marker (pages of 1000, SPEC 9), taking over the requests the route started on
 * navigation when there are any.
 */
export function useMapSites(parentDevice: string, filter: MapFilter) {
  return useQuery({
    queryKey: siteKeys.map(parentDevice, filter),
    staleTime: MAP_SITES_FRESH_MS,
    queryFn: () => takeMapSites(parentDevice, filter),
  });
}
