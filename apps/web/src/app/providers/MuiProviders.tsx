import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { usePrefersReducedMotion } from '../../lib/reduced-motion.ts';
import { createAppTheme } from '../theme.ts';
import { queryClient } from './query-client.ts';
import { useThemeMode } from './theme-mode.tsx';

/** MUI theme and TanStack Query for the layouts; loaded with the first layout, never by the login page. */
export function MuiProviders({ children }: { children: ReactNode }) {
  const { mode } = useThemeMode();
  const reducedMotion = usePrefersReducedMotion();
  const { t } = useTranslation();
  const loadingLabel = t('app.loading');
  const theme = useMemo(() => createAppTheme(mode, reducedMotion, loadingLabel), [mode, reducedMotion, loadingLabel]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ThemeProvider>
  );
}
