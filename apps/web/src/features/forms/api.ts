import type { FormAttachment, FormMetadata, FormResponseCreate, FormTemplateInput } from '@sitewatch/contracts/forms';
import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type BodyOf, type ResponseOf } from '../../lib/api.ts';
import type { Query } from '../../lib/http-client.ts';
import { formKeys } from './keys.ts';

export type FormVersion = ResponseOf<'/ifmapp/dynamic-form-templates/{id}/versions/', 'get'>['contents'][number];
/**
 * A template's metadata is checked when it is saved and read back as it was stored, so the OpenAPI document leaves
 * it open; the contracts' FormMetadata names it.
 */
const withMetadata = <T extends { metadata: unknown }>(template: T) => template as T & { metadata: FormMetadata };
type TemplateAnswer = ResponseOf<'/ifmapp/dynamic-form-templates/', 'get'>;
/** One route answers the list, or one template with ?name=; the answer tells which. */
const listOf = (answer: TemplateAnswer) =>
  'contents' in answer ? { contents: answer.contents.map(withMetadata), totalCount: answer.totalCount } : { contents: [], totalCount: 0 };
const oneOf = (answer: TemplateAnswer) => {
  if ('contents' in answer) throw new Error('expected one form template');
  return withMetadata(answer);
};

type TemplateBody = BodyOf<'/ifmapp/dynamic-form-templates/{id}/', 'put'>;
export type FormDraft = ResponseOf<'/ifmapp/dynamic-form-templates/{id}/draft/', 'get'>;

export function useTemplates(query: Query = {}) {
  return useQuery({
    queryKey: formKeys.list(query),
    queryFn: async ({ signal }) => listOf(await api.get('/ifmapp/dynamic-form-templates/', { query, signal })),
    placeholderData: keepPreviousData,
  });
}

type Template = ReturnType<typeof oneOf>;

/**
 * A template that a list of forms (the forms list, the floating button's) read moments ago, while that list is
 * still fresh: Fill then shows the form without asking for the template again. An older list is not used, so a
 * form is never shown from a stale list and then swapped for a newer version under the user's typing.
 */
function listed(client: QueryClient, matches: (t: Template) => boolean) {
  const fresh = client.getDefaultOptions().queries?.staleTime;
  const freshMs = typeof fresh === 'number' ? fresh : 0;
  let best: { template: Template; updatedAt: number } | undefined;
  for (const query of client.getQueryCache().findAll({ queryKey: formKeys.all })) {
    const [, kind] = query.queryKey;
    const data = query.state.data as { contents?: Template[] } | undefined;
    if ((kind !== 'list' && kind !== 'view') || !data?.contents || query.isStale()) continue;
    const updatedAt = query.state.dataUpdatedAt;
    if (Date.now() - updatedAt >= freshMs || (best && best.updatedAt >= updatedAt)) continue;
    const template = data.contents.find(matches);
    if (template) best = { template, updatedAt };
  }
  return best;
}

/** SPEC 7: GET by name; a missing form is the 'Form Not found' state, not a toast. */
export function useTemplateByName(name: string | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: formKeys.byName(name ?? ''),
    enabled: Boolean(name),
    initialData: () => (name ? listed(client, (t) => t.name === name)?.template : undefined),
    initialDataUpdatedAt: () => (name ? listed(client, (t) => t.name === name)?.updatedAt : undefined),
    retry: false,
    queryFn: async ({ signal }) =>
      oneOf(await api.get('/ifmapp/dynamic-form-templates/', { query: { name: name ?? undefined }, signal, toast: false })),
  });
}

export function useTemplate(id: number | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: formKeys.byId(id ?? 0),
    enabled: id !== null && id > 0,
    initialData: () => (id ? listed(client, (t) => t.id === id)?.template : undefined),
    initialDataUpdatedAt: () => (id ? listed(client, (t) => t.id === id)?.updatedAt : undefined),
    retry: false,
    queryFn: async ({ signal }) =>
      withMetadata(await api.get('/ifmapp/dynamic-form-templates/{id}/', { path: { id: id ?? 0 }, signal, toast: false })),
  });
}

/** Forms bound to a route (the floating Forms button). */
export function useFormsForView(view: string | null) {
  return useQuery({
    queryKey: formKeys.view(view ?? ''),
    enabled: Boolean(view),
    staleTime: 60_000,
    queryFn: async ({ signal }) =>
      listOf(await api.get('/ifmapp/dynamic-form-templates/', { query: { view: view ?? undefined }, signal, toast: false })),
  });
}

export function useSaveTemplate(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: FormTemplateInput & { version?: number }) => {
      // The builder keeps a field's options loosely typed (the contracts check their shape per field type on save).
      const body = input as TemplateBody;
      return withMetadata(
        id
          ? await api.put('/ifmapp/dynamic-form-templates/{id}/', body, { path: { id }, toast: false })
          : await api.post('/ifmapp/dynamic-form-templates/', body, { toast: false }),
      );
    },
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
    queryFn: ({ signal }) => api.get('/ifmapp/dynamic-form-templates/{id}/versions/', { path: { id: id ?? 0 }, signal }),
  });
}

export function useRestoreVersion(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (version: number) =>
      withMetadata(await api.post('/ifmapp/dynamic-form-templates/{id}/versions/{version}/restore/', undefined, { path: { id, version } })),
    onSuccess: (saved) => {
      client.setQueryData(formKeys.byId(id), saved);
      void client.invalidateQueries({ queryKey: formKeys.all });
    },
  });
}

export function useResponses(id: number, query: Query) {
  return useQuery({
    queryKey: formKeys.responses(id, query),
    queryFn: ({ signal }) => api.get('/ifmapp/dynamic-form-templates/{id}/responses/', { path: { id }, query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useResponseView(id: number, responseId: number | null) {
  return useQuery({
    queryKey: formKeys.response(id, responseId ?? 0),
    enabled: Boolean(responseId),
    queryFn: async ({ signal }) => {
      const answer = await api.get('/ifmapp/dynamic-form-templates/{id}/responses/{responseId}/', {
        path: { id, responseId: responseId ?? 0 },
        signal,
      });
      return { ...answer, template: withMetadata(answer.template) };
    },
  });
}

export const fetchDraft = (id: number) =>
  api.get('/ifmapp/dynamic-form-templates/{id}/draft/', { path: { id }, toast: false }).catch(() => null);

/** How long a draft asked for ahead of the form screen may wait for it. */
const DRAFT_AHEAD_MS = 10_000;
const draftsAhead = new Map<number, { draft: ReturnType<typeof fetchDraft>; at: number }>();
/**
 * Asks for a form's draft ahead of its screen: as Fill is pressed, or as soon as the screen knows the form's id, so
 * that the draft comes beside the screen's code and template rather than after them.
 */
export function prefetchDraft(id: number) {
  const ahead = draftsAhead.get(id);
  if (!ahead || Date.now() - ahead.at > DRAFT_AHEAD_MS) draftsAhead.set(id, { draft: fetchDraft(id), at: Date.now() });
}
/** The draft asked for ahead, taken once by the form that opens; otherwise (or later) a fresh read. */
export function takeDraft(id: number): ReturnType<typeof fetchDraft> {
  const ahead = draftsAhead.get(id);
  draftsAhead.delete(id);
  return ahead && Date.now() - ahead.at <= DRAFT_AHEAD_MS ? ahead.draft : fetchDraft(id);
}
export const saveDraft = (id: number, data: Record<string, unknown>) =>
  api.put('/ifmapp/dynamic-form-templates/{id}/draft/', { data }, { path: { id }, toast: false });

/** One file per request; `onProgress` hears the bytes of the file sent so far. */
export async function uploadAttachment(file: File, onProgress?: (sent: number) => void): Promise<FormAttachment> {
  const body = new FormData();
  body.append('attachments', file, file.name);
  // The multipart body is a little larger than the file: its share of the file is what the caller counts.
  const onUploadProgress = onProgress ? (sent: number, total: number) => onProgress(total > 0 ? (sent / total) * file.size : 0) : undefined;
  const result = await api.post('/ifmapp/dynamic-forms-attachments/', body, {
    toast: false,
    ...(onUploadProgress ? { onUploadProgress } : {}),
  });
  return result.contents[0] as FormAttachment;
}

export const submitResponse = (body: FormResponseCreate) => api.post('/ifmapp/dynamic-forms/', body, { toast: false });
