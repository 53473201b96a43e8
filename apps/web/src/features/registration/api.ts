import type { ApproveInput } from '@sitewatch/contracts/registration';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type BodyOf, type QueryParamsOf } from '../../lib/api.ts';
import { userKeys } from '../users/keys.ts';
import { registrationKeys } from './keys.ts';

/** Data hooks and calls of self-registration (SPEC 7 /iotapp/registration-requests/). */

type RequestStatus = NonNullable<NonNullable<QueryParamsOf<'/iotapp/registration-requests/', 'get'>>['status']>;

export const registrationApi = {
  captcha: () => api.get('/api/auth/captcha/', { toast: false }),
  register: (body: BodyOf<'/iotapp/registration-requests/register/', 'post'>) =>
    api.post('/iotapp/registration-requests/register/', body, { toast: false }),
  confirm: (token: string) => api.post('/iotapp/registration-requests/confirm/', { token }, { toast: false }),
};

export const useRegistrations = (status: RequestStatus, page: number, enabled: boolean) =>
  useQuery({
    queryKey: registrationKeys.list(status, page),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => api.get('/iotapp/registration-requests/', { query: { status, page, limit: 20 }, toast: false }),
  });

export const useRegistration = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: registrationKeys.one(id),
    enabled,
    retry: false,
    queryFn: () => api.get('/iotapp/registration-requests/{id}/', { path: { id }, toast: false }),
  });

function useDecision<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: registrationKeys.all }), client.invalidateQueries({ queryKey: userKeys.all })]),
  });
}

export const useApprove = (id: number) =>
  useDecision((input: ApproveInput) => api.post('/iotapp/registration-requests/{id}/approve/', input, { path: { id }, toast: false }));
export const useReject = (id: number) =>
  useDecision((reason: string) => api.post('/iotapp/registration-requests/{id}/reject/', { reason }, { path: { id }, toast: false }));
