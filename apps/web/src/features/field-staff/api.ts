import type { FieldStaffCreate, FieldStaffInput, FieldStaffRole } from '@sitewatch/contracts/field-staff';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { Query } from '../../lib/http-client.ts';
import { realtime } from '../../lib/realtime.ts';
import { userKeys } from '../users/keys.ts';
import { fieldStaffKeys } from './keys.ts';

/** Data hooks of the field staff directories (/iotapp/field-staff/). */

// A ticket assigned or closed changes the people's open-ticket counts.
realtime.invalidateOn('ticket', fieldStaffKeys.all);

export function useFieldStaff(query: Query & { role: FieldStaffRole }, enabled: boolean) {
  return useQuery({
    queryKey: fieldStaffKeys.list(query),
    enabled,
    queryFn: () => api.get('/iotapp/field-staff/', { query }),
    placeholderData: keepPreviousData,
  });
}

export function usePerson(role: FieldStaffRole, id: number | null) {
  return useQuery({
    queryKey: fieldStaffKeys.one(id ?? 0),
    enabled: id !== null,
    queryFn: () => api.get('/iotapp/field-staff/{id}/', { path: { id: id ?? 0 }, query: { role }, toast: false }),
    retry: false,
  });
}

/** The person's sites by name, for the form's site picker. */
export function usePersonSites(id: number | null) {
  return useQuery({
    queryKey: userKeys.formAssets(id),
    enabled: id !== null,
    queryFn: () => api.get('/iotapp/user-assets/', { query: { userId: id ?? 0, limit: 500 }, toast: false }),
  });
}

export function useAreas(role: FieldStaffRole, enabled: boolean) {
  return useQuery({
    queryKey: fieldStaffKeys.areas(role),
    enabled,
    queryFn: () => api.get('/iotapp/field-staff/areas/', { query: { role } }),
  });
}

export function usePersonTickets(id: number, scope: 'assigned' | 'assignable', searchText: string, enabled = true) {
  return useQuery({
    queryKey: fieldStaffKeys.tickets(id, scope, searchText),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () =>
      api.get('/iotapp/field-staff/{id}/tickets/', {
        path: { id },
        query: { scope, limit: 50, ...(searchText ? { searchText } : {}) },
        toast: false,
      }),
  });
}

function useStaffMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: fieldStaffKeys.all }) });
}

export const useSavePerson = (role: FieldStaffRole, id: number | null) =>
  useStaffMutation((input: FieldStaffInput | FieldStaffCreate) =>
    id === null
      ? api.post('/iotapp/field-staff/', { ...(input as FieldStaffCreate), role }, { toast: false })
      : api.put('/iotapp/field-staff/{id}/', input, { path: { id }, query: { role }, toast: false }),
  );

export const useDeletePerson = (role: FieldStaffRole) =>
  useStaffMutation((id: number) => api.del('/iotapp/field-staff/{id}/', { path: { id }, query: { role } }));

/** Assigns a ticket through the helpdesk's ticket update (its rules, history and notification). */
export const useAssignTicket = () =>
  useStaffMutation((v: { ticketId: number; version: number; assignedTo: number }) =>
    api.put('/helpdesk/tickets/{id}/', { version: v.version, assignedTo: v.assignedTo }, { path: { id: v.ticketId }, toast: false }),
  );
