import type { PrActionInput, PrInput, PurchaseRequest, PurchaseRequestDetail } from '@sitewatch/contracts/purchase-requests';
import type { ReportFormat, ReportKind, ReportSchedule, ReportScheduleInput } from '@sitewatch/contracts/reports';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http.ts';
import type { Query } from '../../lib/http-client.ts';
import { realtime } from '../../lib/realtime.ts';
import { reportKeys } from './keys.ts';

/** Data hooks of /inventory-report and /pr-report. A movement or a request change anywhere refreshes them through push. */
realtime.invalidateOn('inventory', reportKeys.all);
realtime.invalidateOn('purchase-request', reportKeys.all);
realtime.invalidateOn('purchase-request', reportKeys.requests);

const quiet = { toast: false } as const;

export const useReportTable = <T>(path: string, query: Query, enabled = true) =>
  useQuery({
    queryKey: reportKeys.table(path, query),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => http.get<T>(path, { query, ...quiet }),
  });

export const useSchedules = (kind: ReportKind) =>
  useQuery({
    queryKey: reportKeys.schedules(kind),
    queryFn: () => http.get<{ contents: ReportSchedule[]; totalCount: number }>('/iotapp/report-schedules/', { query: { kind }, ...quiet }),
  });

export function useCreateSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReportScheduleInput) => http.post<ReportSchedule>('/iotapp/report-schedules/', body, quiet),
    onSuccess: () => client.invalidateQueries({ queryKey: reportKeys.all }),
  });
}

export function useDeleteSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<null>(`/iotapp/report-schedules/${id}/`),
    onSuccess: () => client.invalidateQueries({ queryKey: reportKeys.all }),
  });
}

export const useStartExport = () =>
  useMutation({
    mutationFn: (body: { kind: ReportKind; format: ReportFormat; params: Record<string, unknown> }) =>
      http.post<unknown>('/api/exports/', body),
  });

export const usePurchaseRequest = (id: number, enabled = true) =>
  useQuery({
    queryKey: reportKeys.request(id),
    enabled: enabled && id > 0,
    retry: false,
    queryFn: () => http.get<PurchaseRequestDetail>(`/iotapp/purchase-requests/${id}/`, quiet),
  });

/** The requests raised from a ticket, newest first. */
export const useTicketRequests = (ticketId: number, enabled = true) => {
  const query = { ticketId, limit: 20 };
  return useQuery({
    queryKey: reportKeys.requestList(query),
    enabled: enabled && ticketId > 0,
    queryFn: () => http.get<{ contents: PurchaseRequest[]; totalCount: number }>('/iotapp/purchase-requests/', { query, ...quiet }),
  });
};

function usePrMutation<V, R extends PurchaseRequestDetail>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: reportKeys.requests });
      void client.invalidateQueries({ queryKey: reportKeys.all });
    },
  });
}

export const useSavePurchaseRequest = (id: number | null) =>
  usePrMutation((body: PrInput) =>
    id === null
      ? http.post<PurchaseRequestDetail>('/iotapp/purchase-requests/', body, quiet)
      : http.put<PurchaseRequestDetail>(`/iotapp/purchase-requests/${id}/`, body, quiet),
  );

export const useRaiseFromLowStock = () =>
  usePrMutation((body: { storeId: number; submit: boolean }) =>
    http.post<PurchaseRequestDetail>('/iotapp/purchase-requests/from-low-stock/', body, quiet),
  );

export const usePrAction = (id: number) =>
  usePrMutation((body: Partial<PrActionInput> & { action: PrActionInput['action'] }) =>
    http.post<PurchaseRequestDetail & { message: string }>(`/iotapp/purchase-requests/${id}/actions/`, body, quiet),
  );

export const useItemSearch = (search: string) =>
  useQuery({
    queryKey: reportKeys.items(search),
    placeholderData: keepPreviousData,
    queryFn: () =>
      http.get<{ contents: Array<{ id: number; code: string; name: string; unit: string; tracking: string }> }>(
        '/iotapp/inventory/items/',
        {
          query: { search: search || undefined, limit: 20 },
          ...quiet,
        },
      ),
  });

export const useStoreOptions = () =>
  useQuery({
    queryKey: reportKeys.stores,
    queryFn: () =>
      http.get<{ contents: Array<{ id: number; name: string; assetId: number | null; siteName: string | null; lowCount: number }> }>(
        '/iotapp/inventory/stores/',
        {
          query: { limit: 100 },
          ...quiet,
        },
      ),
  });
