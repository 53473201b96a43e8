import type { FormAttachment, FormResponse, FormResponseCreate, FormTemplate, FormTemplateInput } from '@sitewatch/contracts/forms';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http.ts';
import type { Query } from '../../lib/http-client.ts';

export const TEMPLATES = '/ifmapp/dynamic-form-templates';

export const formKeys = {
  all: ['forms'] as const,
  list: (query: Query) => ['forms', 'list', query] as const,
  byName: (name: string) => ['forms', 'name', name] as const,
  byId: (id: number) => ['forms', 'id', id] as const,
  view: (view: string) => ['forms', 'view', view] as const,
  versions: (id: number) => ['forms', 'versions', id] as const,
  responses: (id: number, query: Query) => ['forms', 'responses', id, query] as const,
  response: (id: number, responseId: number) => ['forms', 'response', id, responseId] as const,
  draft: (id: number) => ['forms', 'draft', id] as const,
};

export interface TemplateList {
  contents: FormTemplate[];
  totalCount: number;
}
export interface FormVersion {
  version: number;
  label: string;
  createdAt: string;
  createdBy: string | null;
  fieldCount: number;
}
export interface ResponsePage {
  contents: FormResponse[];
  nextCursor: string | null;
  totalCount: number;
}
export interface FormDraft {
  formTemplate: number;
  data: Record<string, unknown> | null;
  updatedAt: string | null;
}

export function useTemplates(query: Query = {}) {
  return useQuery({
    queryKey: formKeys.list(query),
    queryFn: ({ signal }) => http.get<TemplateList>(`${TEMPLATES}/`, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** SPEC 7: GET by name; a missing form is the 'Form Not found' state, not a toast. */
export function useTemplateByName(name: string | null) {
  return useQuery({
    queryKey: formKeys.byName(name ?? ''),
    enabled: Boolean(name),
    retry: false,
    queryFn: ({ signal }) => http.get<FormTemplate>(`${TEMPLATES}/`, { query: { name }, signal, toast: false }),
  });
}

export function useTemplate(id: number | null) {
  return useQuery({
    queryKey: formKeys.byId(id ?? 0),
    enabled: id !== null && id > 0,
    retry: false,
    queryFn: ({ signal }) => http.get<FormTemplate>(`${TEMPLATES}/${id}/`, { signal, toast: false }),
  });
}

/** Forms bound to a route (the floating Forms button). */
export function useFormsForView(view: string | null) {
  return useQuery({
    queryKey: formKeys.view(view ?? ''),
    enabled: Boolean(view),
    staleTime: 60_000,
    queryFn: ({ signal }) => http.get<TemplateList>(`${TEMPLATES}/`, { query: { view }, signal, toast: false }),
  });
}

export function useSaveTemplate(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: FormTemplateInput & { version?: number }) =>
      id
        ? http.put<FormTemplate>(`${TEMPLATES}/${id}/`, input, { toast: false })
        : http.post<FormTemplate>(`${TEMPLATES}/`, input, { toast: false }),
    onSuccess: (saved) => {
      client.setQueryData(formKeys.byId(saved.id), saved);
      void client.invalidateQueries({ queryKey: formKeys.all });
    },
  });
}

export function useVersions(id: number | null) {
  return useQuery({
    queryKey: formKeys.versions(id ?? 0),
    enabled: Boolean(id),
    queryFn: ({ signal }) => http.get<{ contents: FormVersion[] }>(`${TEMPLATES}/${id}/versions/`, { signal }),
  });
}

export function useRestoreVersion(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => http.post<FormTemplate>(`${TEMPLATES}/${id}/versions/${version}/restore/`),
    onSuccess: (saved) => {
      client.setQueryData(formKeys.byId(id), saved);
      void client.invalidateQueries({ queryKey: formKeys.all });
    },
  });
}

export function useResponses(id: number, query: Query) {
  return useQuery({
    queryKey: formKeys.responses(id, query),
    queryFn: ({ signal }) => http.get<ResponsePage>(`${TEMPLATES}/${id}/responses/`, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useResponseView(id: number, responseId: number | null) {
  return useQuery({
    queryKey: formKeys.response(id, responseId ?? 0),
    enabled: Boolean(responseId),
    queryFn: ({ signal }) =>
      http.get<{ response: FormResponse; template: FormTemplate }>(`${TEMPLATES}/${id}/responses/${responseId}/`, { signal }),
  });
}

export const fetchDraft = (id: number) => http.get<FormDraft>(`${TEMPLATES}/${id}/draft/`, { toast: false }).catch(() => null);
export const saveDraft = (id: number, data: Record<string, unknown>) =>
  http.put<FormDraft>(`${TEMPLATES}/${id}/draft/`, { data }, { toast: false });

/** One file per request, so that progress can be reported file by file. */
export async function uploadAttachment(file: File): Promise<FormAttachment> {
  const body = new FormData();
  body.append('attachments', file, file.name);
  const result = await http.post<{ contents: FormAttachment[] }>('/ifmapp/dynamic-forms-attachments/', body, { toast: false });
  return result.contents[0] as FormAttachment;
}

export const submitResponse = (body: FormResponseCreate) => http.post<FormResponse>('/ifmapp/dynamic-forms/', body, { toast: false });
