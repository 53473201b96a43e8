import type { ApproveInput, RegistrationRequest } from '@sitewatch/contracts/registration';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http.ts';
import type { Page } from '../sites/api.ts';

/** Data hooks and calls of self-registration (SPEC 7 /iotapp/registration-requests/). */

export const registrationKeys = {
  all: ['registrations'] as const,
  list: (status: string, page: number) => ['registrations', 'list', status, page] as const,
  one: (id: number) => ['registrations', 'one', id] as const,
};

export const registrationApi = {
  captcha: () => http.get<{ captchaId: string; image: string }>('/api/auth/captcha/', { toast: false }),
  register: (body: Record<string, unknown>) =>
    http.post<{ message: string }>('/iotapp/registration-requests/register/', body, { toast: false }),
  confirm: (token: string) => http.post<{ message: string }>('/iotapp/registration-requests/confirm/', { token }, { toast: false }),
};

export const useRegistrations = (status: string, page: number, enabled: boolean) =>
  useQuery({
    queryKey: registrationKeys.list(status, page),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () =>
      http.get<Page<RegistrationRequest>>('/iotapp/registration-requests/', { query: { status, page, limit: 20 }, toast: false }),
  });

export const useRegistration = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: registrationKeys.one(id),
    enabled,
    retry: false,
    queryFn: () => http.get<RegistrationRequest>(`/iotapp/registration-requests/${id}/`, { toast: false }),
  });

function useDecision<V>(fn: (v: V) => Promise<RegistrationRequest>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: registrationKeys.all }), client.invalidateQueries({ queryKey: ['users'] })]),
  });
}

export const useApprove = (id: number) =>
  useDecision((input: ApproveInput) =>
    http.post<RegistrationRequest>(`/iotapp/registration-requests/${id}/approve/`, input, { toast: false }),
  );
export const useReject = (id: number) =>
  useDecision((reason: string) =>
    http.post<RegistrationRequest>(`/iotapp/registration-requests/${id}/reject/`, { reason }, { toast: false }),
  );
