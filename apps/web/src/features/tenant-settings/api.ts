import type { CustomerSettings } from '@sitewatch/contracts/tenant-settings';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { useUser } from '../../lib/session.ts';
import { SESSION_KEYS, writeJson } from '../../lib/storage.ts';
import { tenantSettingsKeys } from './keys.ts';
import { fetchCustomerLogo } from './requests.ts';

export type { CustomerLogo } from './requests.ts';

export interface CurrentCustomer {
  id: number;
  name: string;
  slug: string;
  logo: string | null;
}
export interface VersionInfo {
  gen4?: string;
  IOTFW?: string;
  iotGateway?: string;
  AIFW?: string;
  analyticsFW?: string;
}
export interface SystemAlert {
  id: number;
  message: string;
}

/** Public: the login page shows it too. */
export function useCustomerLogo() {
  return useQuery({
    queryKey: tenantSettingsKeys.logo,
    queryFn: fetchCustomerLogo,
    staleTime: 10 * 60_000,
  });
}

/** GET /iotapp/current-customer/, kept in localStorage as SPEC 7 asks. */
export function useCurrentCustomer() {
  const user = useUser();
  return useQuery({
    queryKey: tenantSettingsKeys.current,
    enabled: Boolean(user),
    staleTime: 10 * 60_000,
    queryFn: async () => {
      const customer = await api.get('/iotapp/current-customer/', { toast: false });
      writeJson(SESSION_KEYS.customer, customer);
      return customer;
    },
  });
}

export function useCustomerSettings() {
  const user = useUser();
  return useQuery({
    queryKey: tenantSettingsKeys.settings,
    enabled: Boolean(user),
    staleTime: 60_000,
    queryFn: async () => (await api.get('/iotapp/customer-settings/')).settings,
  });
}

export function useUpdateCustomerSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (patch: Partial<CustomerSettings>) => (await api.put('/iotapp/customer-settings/', patch, { toast: false })).settings,
    onSuccess: (settings) => client.setQueryData(tenantSettingsKeys.settings, settings),
  });
}

export function useAppVersion(enabled = true) {
  return useQuery({
    queryKey: tenantSettingsKeys.version,
    enabled,
    staleTime: 10 * 60_000,
    queryFn: async () => (await api.get('/app-version/')).version,
  });
}

/** SPEC 7: polled every 20 s. SPEC 8.3: a failed fetch is logged and shows an empty list. */
export function useSystemAlerts(enabled: boolean, pollMs: number) {
  return useQuery({
    queryKey: tenantSettingsKeys.alerts,
    enabled,
    refetchInterval: enabled ? pollMs : false,
    refetchIntervalInBackground: false,
    staleTime: 0,
    queryFn: async () => {
      try {
        return await api.get('/notification/system-alerts/', { toast: false });
      } catch (error) {
        console.warn('System alerts could not be loaded', error);
        return [] as SystemAlert[];
      }
    },
  });
}

export function useAddSystemAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (message: string) => api.post('/notification/system-alerts/', { message }, { toast: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: tenantSettingsKeys.alerts }),
  });
}

export function useRemoveSystemAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del('/notification/system-alerts/{id}/', { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: tenantSettingsKeys.alerts }),
  });
}
