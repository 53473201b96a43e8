import { checkTemplate, formTemplateInputSchema } from '@sitewatch/contracts';
import { describe, expect, it } from 'vitest';
import { DEMO_FORMS } from '../../demo/forms.ts';

describe('demo forms', () => {
  it.each(DEMO_FORMS.map((f) => [f.name, f] as const))('%s is a sound template', (_name, form) => {
    const parsed = formTemplateInputSchema.parse(form);
    expect(checkTemplate(parsed.metadata)).toEqual([]);
  });
  it('include an incident report with AWB and Table required', () => {
    const incident = DEMO_FORMS.find((f) => f.name === 'incident-report');
    expect(incident?.metadata.schema.properties.awb?.label).toBe('AWB');
    expect(incident?.metadata.schema.properties.table?.label).toBe('Table');
    expect(incident?.metadata.schema.required).toEqual(expect.arrayContaining(['awb', 'table']));
  });
});
