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
