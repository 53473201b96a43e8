import { describe, expect, it } from 'vitest';
import { AA_TEXT, contrastRatio, overlay } from '../lib/contrast.ts';
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

  it('draws error, warning, info and success text that passes AA on the dark paper and page', () => {
    const { palette } = createAppTheme('dark');
    for (const colour of [palette.error, palette.warning, palette.info, palette.success]) {
      expect(contrastRatio(colour.main, palette.background.paper)).toBeGreaterThanOrEqual(AA_TEXT);
      expect(contrastRatio(colour.main, palette.background.default)).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });

  it('draws error, warning, info and success text that passes AA on the light paper and page', () => {
    const { palette } = createAppTheme('light');
    for (const colour of [palette.error, palette.warning, palette.info, palette.success]) {
      expect(contrastRatio(colour.main, palette.background.paper)).toBeGreaterThanOrEqual(AA_TEXT);
      expect(contrastRatio(colour.main, palette.background.default)).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });

  it('labels filled error, warning, info and success chips and buttons so that they pass AA in both themes', () => {
    for (const mode of ['light', 'dark'] as const) {
      const { palette } = createAppTheme(mode);
      for (const [name, colour] of Object.entries({
        error: palette.error,
        warning: palette.warning,
        info: palette.info,
        success: palette.success,
      })) {
        // a translucent label (MUI's black text, 87 %) is seen mixed with the fill
        const label = colour.contrastText.startsWith('rgba') ? overlay(colour.main, colour.contrastText) : colour.contrastText;
        expect(contrastRatio(label, colour.main), `${mode} ${name}`).toBeGreaterThanOrEqual(AA_TEXT);
      }
    }
  });

  it('keeps the help under a field that cannot be changed in the secondary text colour', () => {
    for (const mode of ['light', 'dark'] as const) {
      const theme = createAppTheme(mode);
      const root = theme.components?.MuiFormHelperText?.styleOverrides?.root;
      const style = (typeof root === 'function' ? root({ theme } as never) : root) as Record<string, Record<string, unknown>>;
      expect(style['&.Mui-disabled']).toEqual({ color: theme.palette.text.secondary });
    }
  });

  it('draws placeholders in the secondary text colour, which passes AA on the paper of both themes', () => {
    for (const mode of ['light', 'dark'] as const) {
      const theme = createAppTheme(mode);
      const input = theme.components?.MuiInputBase?.styleOverrides?.input;
      const style = (typeof input === 'function' ? input({ theme } as never) : input) as Record<string, Record<string, unknown>>;
      expect(style['&::placeholder']).toEqual({ color: theme.palette.text.secondary, opacity: 1 });
      const { paper } = theme.palette.background;
      expect(contrastRatio(overlay(paper, theme.palette.text.secondary), paper), mode).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });

  it('names progress indicators that have no name of their own, and keeps a grid loading bar out of its rows', () => {
    const theme = createAppTheme('light', false, 'Chargement…');
    expect(theme.components?.MuiLinearProgress?.defaultProps).toMatchObject({ 'aria-label': 'Chargement…' });
    expect(theme.components?.MuiCircularProgress?.defaultProps).toMatchObject({ 'aria-label': 'Chargement…' });
    expect(theme.components?.MuiDataGrid?.defaultProps?.slotProps?.loadingOverlay).toMatchObject({ 'aria-hidden': true });
  });
});
