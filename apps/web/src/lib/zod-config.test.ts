import { describe, expect, it } from 'vitest';

describe('zod configuration of the web app', () => {
  it('turns off the eval probe before any schema is built (a CSP violation on every page otherwise)', async () => {
    await import('./zod-config.ts');
    const { util } = await import('zod/v4/core');
    const { groupSchema } = await import('@sitewatch/contracts');
    expect(groupSchema.safeParse({ id: 1, name: 'x', permissions: [] }).success).toBe(true);
    // false: zod never ran `new Function('')`, the probe a strict CSP reports
    expect(util.allowsEval.value).toBe(false);
  });
});
