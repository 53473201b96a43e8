import { http } from '../http.ts';
import { ACTION_TIME_HEADER, IDEMPOTENCY_HEADER, type Sendable } from './wire.ts';

/**
 * Uploads the files of an action that names its files by id (a form response, a check-in's photo), each with a key
 * of its own made from the action's (a repeat after a lost answer gets the same id back), and returns the body
 * naming them in `attachments` (and, for a form, in the answers that held the photo).
 */
export async function uploadFiles(action: Sendable & { uploadPath: string }): Promise<Record<string, unknown>> {
  const answers = action.body.data as Record<string, unknown> | undefined;
  const data = { ...(answers ?? {}) };
  const attachments = [...((action.body.attachments as { uid: string }[] | undefined) ?? [])];
  for (const [index, file] of (action.files ?? []).entries()) {
    const form = new FormData();
    form.append(file.field, new File([file.blob], file.name, { type: file.type }));
    const answer = await http.request<{ contents: { uid: string }[] }>(action.uploadPath, {
      method: 'POST',
      body: form,
      headers: { [IDEMPOTENCY_HEADER]: `${action.key}.file-${index}`, [ACTION_TIME_HEADER]: action.performedAt },
      toast: false,
    });
    const uid = answer.contents[0]?.uid;
    if (!uid) throw new Error('The attachment was not stored.');
    attachments.push({ uid });
    for (const [name, value] of Object.entries(data)) {
      if (Array.isArray(value)) data[name] = value.map((v) => (v === file.ref ? uid : v));
    }
  }
  return answers ? { ...action.body, data, attachments } : { ...action.body, attachments };
}
