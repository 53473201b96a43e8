import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { useAsset } from '../sites/api.ts';

/** The node chosen in the tree, as the dashboards of the device-tree layout read it from the address. */
export function useTreeSelection() {
  const [params] = useSearchParams();
  const path = params.getAll('path');
  const assetId = Number(params.get('assetId')) || null;
  const deviceId = Number(params.get('deviceId')) || null;
  const asset = useAsset(assetId);
  const label = assetId ? (asset.data?.name ?? '…') : path.length ? path.join(' / ') : null;
  return {
    path,
    assetId,
    deviceId,
    label,
    /** Filters for the calls that accept a site or an address prefix. */
    query: assetId ? { assetId } : path.length ? { path } : {},
  };
}

/**
 * Chooses a site from a dashboard of the device-tree layout (a row, a marker, the map's list): the site goes into the
 * address as the tree's selection, and the tree reveals it. The page and its other parameters stay.
 */
export function useChooseSite(): (assetId: number) => void {
  const [, setParams] = useSearchParams();
  return useCallback(
    (assetId: number) =>
      setParams(
        (current) => {
          if (current.get('assetId') === String(assetId) && !current.has('deviceId')) return current;
          const next = new URLSearchParams(current);
          next.set('assetId', String(assetId));
          next.delete('deviceId');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
}
