import { DEFAULT_ALIASES } from '@sitewatch/contracts/constants';
import { useCustomerSettings } from '../tenant-settings/api.ts';

/** The customer's word for a site (SPEC 9: default "Site"). */
export function useAssetAlias(): string {
  return useCustomerSettings().data?.aliases.asset ?? DEFAULT_ALIASES.asset;
}
