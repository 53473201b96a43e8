import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { humaniseField, validationBody } from './validation-messages.ts';

/** The items fastify-type-provider-zod hands to the error handler for a failed parse. */
function itemsOf(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a failure');
  return result.error.issues.map(({ path, code, message, ...params }) => ({
    keyword: code,
    instancePath: `/${path.join('/')}`,
    message,
    params,
  }));
}
const detail = (schema: z.ZodType, value: unknown) => validationBody('body', itemsOf(schema, value), 'Validation failed').detail;

describe('validation messages users can read', () => {
  it('says "{field} is required" for a missing or empty field (SPEC 5)', () => {
    expect(detail(z.object({ streamUrl: z.string() }), {})).toBe('Stream URL is required');
    expect(detail(z.object({ title: z.string().min(1) }), { title: '' })).toBe('Title is required');
    expect(detail(z.object({ locationId: z.number().int() }), { locationId: null })).toBe('Location ID is required');
  });

  it('names the field and the rule in words, never the schema path or zod text', () => {
    const cases: [z.ZodType, unknown, string][] = [
      [z.object({ segmentSec: z.number() }), { segmentSec: 'x' }, 'Segment sec must be a number'],
      [z.object({ segmentSec: z.number().max(10) }), { segmentSec: 11 }, 'Segment sec cannot be greater than 10'],
      [z.object({ dwellSec: z.number().min(3) }), { dwellSec: 1 }, 'Dwell sec cannot be less than 3'],
      [z.object({ name: z.string().max(5) }), { name: 'abcdefgh' }, 'Name: please use maximum 5 characters'],
      [z.object({ email: z.email() }), { email: 'nope' }, 'Email is not a valid e-mail address'],
      [z.object({ status: z.enum(['OPEN', 'CLOSED']) }), { status: 'X' }, 'Status must be one of: OPEN, CLOSED'],
      [z.object({ stops: z.array(z.object({ cameraId: z.number() })) }), { stops: [{}] }, 'Camera ID is required'],
      [z.strictObject({ a: z.string() }), { a: 'x', extraThing: 1 }, 'Extra thing is not a known field'],
      [
        z.object({ url: z.string().refine((v) => v.startsWith('rtsp://'), 'Use an rtsp:// address') }),
        { url: 'http://x' },
        'Use an rtsp:// address',
      ],
      [z.object({ title: z.string().max(3, 'Please use maximum 3 characters') }), { title: 'abcd' }, 'Please use maximum 3 characters'],
      [
        z.object({ streamUrl: z.string().refine(() => false, 'streamUrl must be an rtsp:// or rtsps:// URL') }),
        { streamUrl: 'http://x' },
        'Stream URL must be an rtsp:// or rtsps:// URL',
      ],
    ];
    for (const [schema, value, text] of cases) {
      const got = detail(schema, value);
      expect(got).toBe(text);
      expect(got).not.toMatch(/body\.|Invalid input|expected .* received/);
    }
  });

  it('keeps the machine path beside each message', () => {
    const body = validationBody('body', itemsOf(z.object({ streamUrl: z.string() }), {}), 'Validation failed');
    expect(body.errors).toEqual([{ path: 'body.streamUrl', field: 'Stream URL', message: 'Stream URL is required' }]);
    expect(body.code).toBe('validation_error');
  });

  it('humanises field names', () => {
    expect(humaniseField('streamUrl')).toBe('Stream URL');
    expect(humaniseField('location_id')).toBe('Location ID');
    expect(humaniseField('assetIds')).toBe('Asset IDs');
    expect(humaniseField('mobile')).toBe('Mobile');
  });
});
