import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import am from '../locales/am.json';
import en from '../locales/en.json';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'am', label: 'አማርኛ' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

const LANG_KEY = 'lang';

function initialLanguage(): Language {
  try {
    const saved = localStorage.getItem(LANG_KEY);
    if (saved === 'en' || saved === 'am') return saved;
  } catch {
    // Storage unavailable: default below.
  }
  return 'en';
}

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, am: { translation: am } },
  lng: initialLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
});

function applyDocumentLanguage(lng: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}
applyDocumentLanguage(i18n.language);
i18n.on('languageChanged', (lng) => {
  applyDocumentLanguage(lng);
  try {
    localStorage.setItem(LANG_KEY, lng);
  } catch {
    // The choice still applies to this visit.
  }
  // Ge'ez glyphs: load the self-hosted font only when Amharic is chosen.
  if (lng === 'am') void import('@fontsource/noto-sans-ethiopic/400.css');
});
if (i18n.language === 'am') void import('@fontsource/noto-sans-ethiopic/400.css');

export default i18n;
