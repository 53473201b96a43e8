import { describe, expect, it, vi } from 'vitest';

const sent: { path: string; headers: Record<string, string>; name: string }[] = [];
vi.mock('../http.ts', () => ({
  http: {
    request: async (path: string, init: { body: FormData; headers: Record<string, string> }) => {
      const file = (init.body.get('attachments') ?? init.body.get('photo')) as File;
      sent.push({ path, headers: init.headers, name: file.name });
      return { contents: [{ uid: `uid-of-${file.name}` }] };
    },
  },
}));

const { uploadFiles } = await import('./upload-files.ts');

describe('uploadFiles', () => {
  it('uploads each photo with a key of its own made from the action’s, and names the uploads in the answers', async () => {
    const body = await uploadFiles({
      method: 'POST',
      path: '/ifmapp/dynamic-forms/',
      uploadPath: '/ifmapp/dynamic-forms-attachments/',
      key: 'outbox-abc',
      performedAt: '2026-03-01T09:12:00.000Z',
      body: { formTemplate: 4, data: { title: 'Pump room', photos: ['local:1', 'local:2'], other: ['keep'] }, attachments: [] },
      files: [
        { field: 'attachments', name: 'a.png', type: 'image/png', blob: new Blob(['a']), ref: 'local:1' },
        { field: 'attachments', name: 'b.png', type: 'image/png', blob: new Blob(['b']), ref: 'local:2' },
      ],
    });
    expect(sent.map((s) => [s.path, s.name, s.headers['Idempotency-Key'], s.headers['X-Action-Time']])).toEqual([
      ['/ifmapp/dynamic-forms-attachments/', 'a.png', 'outbox-abc.file-0', '2026-03-01T09:12:00.000Z'],
      ['/ifmapp/dynamic-forms-attachments/', 'b.png', 'outbox-abc.file-1', '2026-03-01T09:12:00.000Z'],
    ]);
    expect(body).toEqual({
      formTemplate: 4,
      data: { title: 'Pump room', photos: ['uid-of-a.png', 'uid-of-b.png'], other: ['keep'] },
      attachments: [{ uid: 'uid-of-a.png' }, { uid: 'uid-of-b.png' }],
    });
  });

  it('names a check-in’s photo in attachments and adds no answers to a body that has none', async () => {
    sent.length = 0;
    const body = await uploadFiles({
      method: 'POST',
      path: '/api/attendance/check-in/',
      uploadPath: '/api/attendance/photos/',
      key: 'outbox-in',
      performedAt: '2026-03-01T09:12:00.000Z',
      body: { assetId: 3, latitude: 18.52, longitude: 73.85 },
      files: [{ field: 'photo', name: 'gate.jpg', type: 'image/jpeg', blob: new Blob(['g']), ref: 'check-in-photo' }],
    });
    expect(sent.map((s) => [s.path, s.headers['Idempotency-Key']])).toEqual([['/api/attendance/photos/', 'outbox-in.file-0']]);
    expect(body).toEqual({ assetId: 3, latitude: 18.52, longitude: 73.85, attachments: [{ uid: 'uid-of-gate.jpg' }] });
  });
});
