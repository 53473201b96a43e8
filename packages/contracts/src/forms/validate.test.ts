import { describe, expect, it } from 'vitest';
import { VALIDATION_MESSAGES } from '../messages.ts';
import { formatDateRange, formatDuration, generateRandomId, parseStrict } from './formats.ts';
import { checkTemplate, FORM_LIMITS, FORM_MESSAGES, type FormField, formMetadataSchema } from './template.ts';
import { FORMAT_MESSAGES, validateField, validateResponse } from './validate.ts';

const f = (field: Partial<FormField> & { type: FormField['type'] }): FormField => ({ label: 'Site name', ...field }) as FormField;
const tree = [{ label: 'Power', children: [{ label: 'Generator' }, { label: 'UPS' }] }, { label: 'Security' }];

describe('field values, one row per type and rule', () => {
  const rows: Array<[string, FormField, unknown, string | null]> = [
    ['required string, empty', f({ type: 'string', required: true }), '  ', VALIDATION_MESSAGES.required('Site name')],
    ['optional string, empty', f({ type: 'string' }), undefined, null],
    ['string', f({ type: 'string' }), 'Main gate', null],
    ['string, not text', f({ type: 'string' }), 12, FORMAT_MESSAGES.text],
    ['date rule default format', f({ type: 'string', validation: { kind: 'date' } }), '2026-02-28', null],
    ['date rule, no such day', f({ type: 'string', validation: { kind: 'date' } }), '2026-02-30', VALIDATION_MESSAGES.dateFailed],
    ['date rule, loose digits', f({ type: 'string', validation: { kind: 'date' } }), '2026-2-3', VALIDATION_MESSAGES.dateFailed],
    ['date rule, own format', f({ type: 'string', validation: { kind: 'date', format: 'DD/MM/YYYY' } }), '31/12/2026', null],
    ['dateTime rule default', f({ type: 'string', validation: { kind: 'dateTime' } }), '2026-11-23T20:15:00', null],
    [
      'dateTime rule, no seconds',
      f({ type: 'string', validation: { kind: 'dateTime' } }),
      '2026-11-23T20:15',
      VALIDATION_MESSAGES.dateTimeFailed,
    ],
    ['number rule', f({ type: 'string', validation: { kind: 'number', min: 1, max: 9 } }), '5', null],
    ['number rule, text', f({ type: 'string', validation: { kind: 'number' } }), 'five', VALIDATION_MESSAGES.notANumber],
    ['number rule, below', f({ type: 'string', validation: { kind: 'number', min: 1 } }), '0', VALIDATION_MESSAGES.lessThan(1)],
    [
      'number rule, above',
      f({ type: 'string', inputType: 'number', validation: { kind: 'number', max: 9 } }),
      10,
      VALIDATION_MESSAGES.greaterThan(9),
    ],
    ['required rule', f({ type: 'string', validation: { kind: 'required' } }), '', VALIDATION_MESSAGES.required('Site name')],
    ['asset select', f({ type: 'assetApiSelect' }), { id: 4, label: 'Depot' }, null],
    ['asset select, bare id', f({ type: 'assetApiSelect' }), 4, FORMAT_MESSAGES.select],
    ['device select, multiple', f({ type: 'deviceApiSelect', multiple: true }), [{ id: 1, label: 'DVR' }], null],
    ['button', f({ type: 'button', enum: ['Yes', 'No'] }), 'Yes', null],
    ['button, multiple', f({ type: 'button', enum: ['A', 'B'], multiple: true }), ['A', 'B'], null],
    ['radio, not an option', f({ type: 'radio', enum: ['Yes', 'No'] }), 'Maybe', FORMAT_MESSAGES.choice],
    ['toggle', f({ type: 'toggle' }), false, null],
    ['toggle, text', f({ type: 'toggle' }), 'true', FORMAT_MESSAGES.toggle],
    ['duration', f({ type: 'duration' }), '1hr 5min 0sec', null],
    ['duration, 60 minutes', f({ type: 'duration' }), '1hr 60min 0sec', FORMAT_MESSAGES.duration],
    ['rating', f({ type: 'rating' }), 5, null],
    ['rating, above default max 5', f({ type: 'rating' }), 6, FORMAT_MESSAGES.rating(5)],
    ['rating, own max', f({ type: 'rating', max: 10 }), 8, null],
    ['date picker', f({ type: 'dateTime' }), '2026-11-23', null],
    ['date picker with time', f({ type: 'dateTime', withTime: true }), '2026-11-23 21:05', null],
    ['date picker with time, seconds', f({ type: 'dateTime', withTime: true }), '2026-11-23 21:05:00', VALIDATION_MESSAGES.dateTimeFailed],
    ['randomid', f({ type: 'randomid' }), generateRandomId(1_763_900_000_000, 0.5), null],
    ['randomid, short', f({ type: 'randomid' }), '123', FORMAT_MESSAGES.randomId],
    ['daterange', f({ type: 'daterange' }), '2026/01/01 - 2026/01/31', null],
    ['daterange, backwards', f({ type: 'daterange' }), '2026/02/01 - 2026/01/31', FORMAT_MESSAGES.dateRange],
    ['files', f({ type: 'filerenderer' }), ['0b7f4f8e-3c1d-4c52-9d55-2e1c0b7c9a11'], null],
    ['files, a name', f({ type: 'filerenderer' }), ['photo.png'], FORMAT_MESSAGES.files],
    ['time', f({ type: 'time' }), '23:59', null],
    ['time, 24:00', f({ type: 'time' }), '24:00', FORMAT_MESSAGES.time],
    ['levels', f({ type: 'multiLevelSelect', options: tree }), ['Power', 'UPS'], null],
    ['levels, unknown', f({ type: 'multiLevelSelect', options: tree }), ['Security', 'UPS'], FORMAT_MESSAGES.levels],
    ['label takes no value', f({ type: 'labelrenderer' }), 'x', FORMAT_MESSAGES.noValue],
    ['label, required ignored', f({ type: 'labelrenderer', required: true }), undefined, null],
  ];
  it.each(rows)('%s', (_name, field, value, expected) => {
    expect(validateField('site', field, value, [])).toBe(expected);
  });

  it('fields of the required list get the required check, named by label or key', () => {
    expect(validateField('site', f({ type: 'toggle', label: '' }), undefined, ['site'])).toBe(VALIDATION_MESSAGES.required('site'));
  });
});

describe('value writers', () => {
  it('writes durations, ranges and strict dates as SPEC 5 states', () => {
    expect(formatDuration({ hours: 2, minutes: 3, seconds: 4 })).toBe('2hr 3min 4sec');
    const d = parseStrict('2026/01/02', 'YYYY/MM/DD');
    expect(formatDateRange(d, null)).toBe('');
    expect(formatDateRange(d, d)).toBe('2026/01/02 - 2026/01/02');
    expect(generateRandomId(1_763_900_000_000, 0.01234)).toBe('17639000000000123');
  });
});

describe('templates', () => {
  const meta = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    formMetadataSchema.parse({ schema: { type: 'object', properties, ...extra } });
  it('accepts a sound template and names the field of each broken one', () => {
    expect(checkTemplate(meta({ a: { type: 'rating', max: 5 }, b: { type: 'radio', enum: ['x'] } }, { required: ['a'] }))).toEqual([]);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ q1: { type: 'colour' } }, 'Field "q1" has an unknown type "colour"'],
      [{ q2: { type: 'string', validation: { kind: 'regex' } } }, 'Field "q2" has a broken validation rule'],
      [{ q3: { type: 'string', validation: { kind: 'number', min: 5, max: 1 } } }, 'Field "q3" has a minimum greater than its maximum'],
      [
        { q4: { type: 'string', validation: { kind: 'date', format: 'HH:mm' } } },
        'Field "q4" has a date format without exactly one YYYY, MM and DD',
      ],
      [{ q5: { type: 'radio' } }, 'Field "q5" needs at least one option'],
      [{ q6: { type: 'toggle', validation: { kind: 'number' } } }, 'Field "q6" is not a text field and cannot take a number rule'],
    ];
    for (const [properties, message] of cases) expect(checkTemplate(meta(properties)).map((p) => p.message)).toContain(message);
    expect(checkTemplate(meta({ a: { type: 'string' } }, { required: ['zz'] }))[0]?.message).toBe(
      'The required list names an unknown field "zz"',
    );
  });
  it('accepts Groups nested in Groups up to the limit', () => {
    const nest = (depth: number): unknown =>
      depth === 0 ? { type: 'Control', scope: '#/properties/a' } : { type: 'Group', label: `Level ${depth}`, elements: [nest(depth - 1)] };
    const layout = (depth: number) =>
      formMetadataSchema.parse({
        schema: { type: 'object', properties: { a: { type: 'string' } } },
        uiSchema: { type: 'VerticalLayout', elements: [nest(depth)] },
      });
    expect(checkTemplate(layout(FORM_LIMITS.groupDepth))).toEqual([]);
    expect(checkTemplate(layout(FORM_LIMITS.groupDepth + 1))).toEqual([{ path: 'metadata.uiSchema', message: FORM_MESSAGES.groupTooDeep }]);
  });
  it('checks a whole response, including fields the template does not have', () => {
    const m = { schema: { type: 'object' as const, properties: { a: f({ type: 'rating', label: 'Score' }) }, required: ['a'] } };
    expect(validateResponse(m, {})).toEqual({ a: 'Score is required' });
    expect(validateResponse(m, { a: 3, extra: 1 })).toEqual({ extra: FORMAT_MESSAGES.noValue });
  });
});
