import { describe, expect, it } from 'vitest';
import { createAppTheme } from './theme.ts';

describe('createAppTheme', () => {
  it('animates by default', () => {
    const theme = createAppTheme('light');
    expect(theme.transitions.duration.standard).toBeGreaterThan(0);
    expect(theme.transitions.create('opacity')).toMatch(/^opacity \d+ms/);
    expect(theme.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(false);
  });

  it('keeps still under reduced motion: no transitions, no ripples', () => {
    const theme = createAppTheme('dark', true);
    expect(theme.transitions.create(['opacity', 'transform'])).toBe('none');
    expect(theme.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(true);
    expect(theme.palette.mode).toBe('dark');
  });
});
