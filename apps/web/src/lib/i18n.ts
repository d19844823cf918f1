import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
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

// English ships in the entry bundle; Amharic is loaded when chosen, so it costs nothing to visitors who never do.
const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Record<string, unknown> }>> = {
  am: () => import('../locales/am.json'),
};

async function ensureLanguage(lng: Language): Promise<void> {
  if (lng === 'en' || i18n.hasResourceBundle(lng, 'translation')) return;
  const bundle = await loaders[lng]();
  i18n.addResourceBundle(lng, 'translation', bundle.default, true, true);
}

/** Loads the language's strings if needed, then switches to it (remembered). */
export async function changeLanguage(lng: Language): Promise<void> {
  await ensureLanguage(lng);
  await i18n.changeLanguage(lng);
}

const startLanguage = initialLanguage();
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: 'en',
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
if (startLanguage !== 'en') void changeLanguage(startLanguage);

export default i18n;
