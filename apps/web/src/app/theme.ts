import { createTheme, type Theme } from '@mui/material/styles';
import type {} from '@mui/x-data-grid/themeAugmentation';
import { SIDE_NAV_WIDTH_PX } from '@sitewatch/contracts/constants';
import type { ThemeMode } from './providers/theme-mode.tsx';

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

/** Under the system's reduced-motion setting menus, dialogs and panels appear and go at once, without ripples. */
const STILL = { transitions: { create: () => 'none' } } as const;

/**
 * `loadingLabel` names every progress indicator that has no name of its own (a bar or ring without a name is
 * announced as an unnamed progress bar).
 */
export function createAppTheme(mode: ThemeMode, reducedMotion = false, loadingLabel = 'Loading…'): Theme {
  const dark = mode === 'dark';
  return createTheme({
    ...(reducedMotion ? STILL : {}),
    palette: {
      mode,
      // Labels on filled buttons and chips (contained warning, info, …) pass WCAG AA: black where white would not.
      contrastThreshold: 4.5,
      primary: { main: dark ? '#64b5f6' : '#1565c0' },
      secondary: { main: dark ? '#80cbc4' : '#00796b' },
      // MUI's dark error red (#f44336) stands 4.35:1 on the dark paper: error text, outlined buttons and chips take
      // the light red of dark surfaces, 7.4:1 on the paper and 5.8:1 on a hovered table row (a filled one gets a
      // black label by the threshold above).
      ...(dark ? { error: { main: '#ef9a9a' } } : {}),
      // MUI's light warning orange (#ed6c02) stands 3.1:1 on white: warning text, outlined buttons and chips take a
      // deeper orange, 5.4:1 on the paper and 5:1 on the page (a filled one gets a white label).
      ...(dark ? {} : { warning: { main: '#ad4e00' } }),
      // MUI's light info blue (#0288d1) stands 3.9:1 on white: info text, outlined buttons and chips (a command's
      // "Sent" and "Delivered") take a deeper blue of the same hue, 5.8:1 on the paper and 5.3:1 on the page (a filled
      // one gets a white label).
      ...(dark ? {} : { info: { main: '#026aa7' } }),
      background: dark ? { default: '#10141a', paper: '#1b222c' } : { default: '#f4f6f8', paper: '#ffffff' },
    },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: FONT,
      h1: { fontSize: '1.75rem', fontWeight: 600 },
      h2: { fontSize: '1.4rem', fontWeight: 600 },
      h3: { fontSize: '1.15rem', fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiButtonBase: { defaultProps: { disableRipple: reducedMotion } },
      MuiCard: { defaultProps: { variant: 'outlined' } },
      MuiLinearProgress: { defaultProps: { 'aria-label': loadingLabel } },
      MuiCircularProgress: { defaultProps: { 'aria-label': loadingLabel } },
      MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
      MuiTextField: { defaultProps: { fullWidth: true } },
      // MUI draws a placeholder at 42 % of the text colour, 3.5:1 on the paper: it takes the secondary text's colour,
      // which passes AA in both themes.
      MuiInputBase: {
        styleOverrides: { input: ({ theme }) => ({ '&::placeholder': { color: theme.palette.text.secondary, opacity: 1 } }) },
      },
      // The help under a field that cannot be changed still tells what the field holds: MUI greys it like the field
      // (2.7:1 on the paper), it keeps the secondary text's colour.
      MuiFormHelperText: {
        styleOverrides: { root: ({ theme }) => ({ '&.Mui-disabled': { color: theme.palette.text.secondary } }) },
      },
      // Pagers wrap at phone width instead of widening the page.
      MuiTablePagination: { styleOverrides: { toolbar: { flexWrap: 'wrap', justifyContent: 'flex-end' } } },
      // An empty table says what the product's empty lists say (a table may name what it lacks instead).
      // The loading bar a grid draws over its rows is no part of the grid's rows and cells (role=grid may only hold
      // those): it is drawn for the eye only.
      MuiDataGrid: {
        defaultProps: { localeText: { noRowsLabel: 'No Data Found' }, slotProps: { loadingOverlay: { 'aria-hidden': true } } },
      },
    },
  });
}

export const SIDE_NAV_WIDTH = SIDE_NAV_WIDTH_PX;
