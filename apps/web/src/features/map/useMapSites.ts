import { MAP, type MapSite } from '@sitewatch/contracts/sites';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http.ts';

interface MapPage {
  contents: MapSite[];
  totalCount: number;
}

/**
 * Every located site as a compact marker, fetched in pages of 1000 (SPEC 9): the first page tells how many there
 * are, the rest are fetched side by side.
 */
export function useMapSites(parentDevice: string, filter: Record<string, unknown>) {
  return useQuery({
    queryKey: ['sites', 'map', parentDevice, filter],
    staleTime: 30_000,
    queryFn: async () => {
      const page = (n: number) =>
        http.get<MapPage>('/iotapp/assets/map/', { query: { ...filter, parentDevice, page: n, limit: MAP.pageSize } as never });
      const first = await page(1);
      const pages = Math.ceil(first.totalCount / MAP.pageSize);
      const rest = await Promise.all(Array.from({ length: Math.max(0, pages - 1) }, (_, i) => page(i + 2)));
      return [...first.contents, ...rest.flatMap((p) => p.contents)];
    },
  });
}
