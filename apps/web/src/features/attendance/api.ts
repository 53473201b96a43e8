import type { AttendanceCheckIn, AttendanceCheckOut, AttendanceCurrent } from '@sitewatch/contracts/attendance';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { Query } from '../../lib/http-client.ts';
import { realtime } from '../../lib/realtime.ts';
import { attendanceKeys } from './keys.ts';
import { checkInOrQueue, checkOutOrQueue } from './offline.ts';

realtime.invalidateOn('attendance', attendanceKeys.all);

export const useCurrentAttendance = (enabled = true) =>
  useQuery({ queryKey: attendanceKeys.current, enabled, queryFn: () => api.get('/api/attendance/current/', { toast: false }) });

export function useAttendanceList(query: Query, enabled = true) {
  return useQuery({
    queryKey: attendanceKeys.list(query),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => api.get('/api/attendance/', { query, toast: false }),
  });
}

export function useAttendanceHours(query: Query, enabled = true) {
  return useQuery({
    queryKey: attendanceKeys.hours(query),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => api.get('/api/attendance/hours/', { query, toast: false }),
  });
}

export const useTicketAttendance = (ticketId: number, enabled = true) =>
  useQuery({
    queryKey: attendanceKeys.forTicket(ticketId),
    enabled,
    queryFn: () => api.get('/api/attendance/', { query: { ticketId, limit: 20 }, toast: false }),
  });

/** Check-in, sent now or kept in the outbox without a connection (the phone shows it as waiting). */
export function useCheckIn() {
  const client = useQueryClient();
  return useMutation({
    networkMode: 'always',
    mutationFn: (body: { site: { id: number; name: string }; input: AttendanceCheckIn; photo?: File | null }) =>
      checkInOrQueue(body.site, body.input, body.photo ?? null),
    onSuccess: ({ record, queued }) => {
      if (queued) client.setQueryData<AttendanceCurrent>(attendanceKeys.current, (current) => (current ? { ...current, record } : current));
    },
    onSettled: (result) => {
      if (!result?.queued) return client.invalidateQueries({ queryKey: attendanceKeys.all });
    },
  });
}

/** Check-out, sent now or kept in the outbox without a connection. */
export function useCheckOut() {
  const client = useQueryClient();
  return useMutation({
    networkMode: 'always',
    mutationFn: (body: { siteName: string; input: AttendanceCheckOut }) => checkOutOrQueue(body.siteName, body.input),
    onSuccess: ({ queued }) => {
      if (queued)
        client.setQueryData<AttendanceCurrent>(attendanceKeys.current, (current) => (current ? { ...current, record: null } : current));
    },
    onSettled: (result) => {
      if (!result?.queued) return client.invalidateQueries({ queryKey: attendanceKeys.all });
    },
  });
}

export type Position = { latitude: number; longitude: number; accuracy: number };

/** The phone's position from the browser; rejects with a sentence a person can act on. */
export function locate(): Promise<Position> {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) return reject(new Error('This browser cannot share your location.'));
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: Math.round(p.coords.accuracy) }),
      (error) =>
        reject(
          new Error(
            error.code === error.PERMISSION_DENIED
              ? 'Location access is blocked. Allow location for this site in your browser settings and try again.'
              : error.code === error.TIMEOUT
                ? 'Finding your location took too long. Move to open sky and try again.'
                : 'Your location is not available right now. Try again.',
          ),
        ),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 },
    );
  });
}
