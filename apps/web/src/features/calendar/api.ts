import type { CalendarEventInput, CalendarReschedule } from '@sitewatch/contracts/calendar';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { Query } from '../../lib/http-client.ts';
import { realtime } from '../../lib/realtime.ts';
import { calendarKeys } from './keys.ts';

/** Data hooks of the calendar (/api/calendar/). */

realtime.invalidateOn('calendar', calendarKeys.all);

export interface ItemsQuery {
  from: string;
  to: string;
  userId?: number;
  siteId?: number;
  clusterId?: number;
  kind?: string;
}

export function useCalendarItems(query: ItemsQuery | null) {
  const q = (query ?? {}) as Query;
  return useQuery({
    queryKey: calendarKeys.items(q),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    queryFn: () => api.get('/api/calendar/items/', { query: query as ItemsQuery & { kind?: never }, toast: false }),
  });
}

export function useCalendarOptions() {
  return useQuery({ queryKey: calendarKeys.options, queryFn: () => api.get('/api/calendar/options/', { toast: false }) });
}

export function useCalendarEvent(id: number | null) {
  return useQuery({
    queryKey: calendarKeys.one(id ?? 0),
    enabled: id !== null,
    queryFn: () => api.get('/api/calendar/events/{id}/', { path: { id: id ?? 0 }, toast: false }),
    retry: false,
  });
}

export function useAssigneeOptions(searchText: string, enabled: boolean) {
  return useQuery({
    queryKey: calendarKeys.users(searchText),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => api.get('/iotapp/users/', { query: { limit: 15, searchText: searchText || undefined }, toast: false }),
  });
}

/** Whether a device's maintenance mode comes from a maintenance window now (the device page shows it). */
export function useDeviceWindow(deviceId: number, enabled = true) {
  return useQuery({
    queryKey: calendarKeys.deviceWindow(deviceId),
    enabled,
    queryFn: () => api.get('/api/calendar/devices/{id}/window/', { path: { id: deviceId }, toast: false }),
  });
}

function useCalendarMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: calendarKeys.all }) });
}

export const useSaveEvent = (id: number | null) =>
  useCalendarMutation((input: CalendarEventInput & { version?: number }) =>
    id === null
      ? api.post('/api/calendar/events/', input, { toast: false })
      : api.put('/api/calendar/events/{id}/', input, { path: { id }, toast: false }),
  );

export const useReschedule = () =>
  useCalendarMutation((v: { id: number; body: CalendarReschedule }) =>
    api.post('/api/calendar/events/{id}/reschedule/', v.body, { path: { id: v.id }, toast: false }),
  );

export const useDeleteEvent = () =>
  useCalendarMutation((v: { id: number; occurrence?: string }) =>
    api.del('/api/calendar/events/{id}/', { path: { id: v.id }, query: v.occurrence ? { occurrence: v.occurrence } : {}, toast: false }),
  );
