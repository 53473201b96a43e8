import type { FormTemplate } from '@sitewatch/contracts/forms';
import { enqueue } from '../../lib/offline/outbox.ts';

/**
 * A form filled without a connection: the answers and the photos picked for it (kept as Blobs on the phone, each
 * within the form's size limit) wait in the outbox; once online the photos are uploaded first and the response then
 * names them.
 */
export async function queueResponse(
  template: Pick<FormTemplate, 'id' | 'label' | 'version'>,
  answers: Record<string, unknown>,
  files: { ref: string; file: File }[],
  context: unknown,
) {
  const photos = files.length ? ` with ${files.length} ${files.length === 1 ? 'attachment' : 'attachments'}` : '';
  const queued = await enqueue({
    kind: 'form.submit',
    label: `Form “${template.label}”${photos}`,
    method: 'POST',
    path: '/ifmapp/dynamic-forms/',
    // the version filled: a response to a form published again meanwhile is refused and needs attention
    body: { formTemplate: template.id, version: template.version, data: answers, attachments: [], ...(context ? { context } : {}) },
    files: files.map(({ ref, file }) => ({ field: 'attachments', name: file.name, type: file.type, blob: file, ref })),
    uploadPath: '/ifmapp/dynamic-forms-attachments/',
    subject: `form:${template.id}`,
  });
  if (!queued) throw new Error('This phone cannot keep forms while offline.');
}
