import { STORAGE_KEYS } from '@sitewatch/contracts/constants';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { readString, writeString } from '../../lib/storage.ts';

export type ThemeMode = 'light' | 'dark';

interface ThemeModeValue {
  mode: ThemeMode;
  setMode(mode: ThemeMode): void;
  toggle(): void;
}

const ThemeModeContext = createContext<ThemeModeValue>({ mode: 'light', setMode: () => undefined, toggle: () => undefined });

/** SPEC 9: theme light or dark, persisted in localStorage under config-theme (kept across logout). */
export function readStoredThemeMode(): ThemeMode {
  return readString(STORAGE_KEYS.theme) === 'dark' ? 'dark' : 'light';
}

/** The page's colours: light or dark, for the plain pages (CSS variables) and the MUI ones alike. */
function applyToDocument(mode: ThemeMode) {
  const root = document.documentElement;
  root.dataset.theme = mode;
  root.style.colorScheme = mode;
}

/**
 * Holds the theme mode without loading MUI: the login page is plain HTML and CSS (it must stay small), the
 * layouts put MUI's ThemeProvider under this (providers/MuiProviders.tsx).
 */
export function ThemeModeProvider({ children }: { children: ReactNode }) {
  const [mode, setModeState] = useState<ThemeMode>(readStoredThemeMode);
  const setMode = useCallback((next: ThemeMode) => {
    writeString(STORAGE_KEYS.theme, next);
    setModeState(next);
  }, []);
  const toggle = useCallback(() => setMode(mode === 'dark' ? 'light' : 'dark'), [mode, setMode]);

  useEffect(() => applyToDocument(mode), [mode]);
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.theme) setModeState(readStoredThemeMode());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const value = useMemo(() => ({ mode, setMode, toggle }), [mode, setMode, toggle]);
  return <ThemeModeContext.Provider value={value}>{children}</ThemeModeContext.Provider>;
}

export const useThemeMode = () => useContext(ThemeModeContext);
