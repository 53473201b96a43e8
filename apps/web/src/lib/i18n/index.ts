import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en.ts';

/** SPEC 9: the locale follows the browser language, English when there is no translation. */
export function browserLanguage(): string {
  if (typeof navigator === 'undefined') return 'en';
  return navigator.languages?.[0] ?? navigator.language ?? 'en';
}

export const SUPPORTED_LANGUAGES = ['en'] as const;

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: browserLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...SUPPORTED_LANGUAGES],
  nonExplicitSupportedLngs: true,
  load: 'languageOnly',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

if (typeof document !== 'undefined') document.documentElement.lang = i18n.resolvedLanguage ?? 'en';

export { i18n };
