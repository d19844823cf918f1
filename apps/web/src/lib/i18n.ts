import i18n, { type TFunction } from 'i18next';
import en from '../locales/en.json';
import { setTranslations, type Language } from './translate';

export { changeLanguage, LANGUAGES, useTranslation, type Language } from './translate';

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
async function switchLanguage(lng: Language): Promise<void> {
  await ensureLanguage(lng);
  await i18n.changeLanguage(lng);
}

/** The language the visitor chose on an earlier visit (the server renders pages in English). */
export const startLanguage = initialLanguage();
void i18n.init({
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
});
if (startLanguage !== 'en') void switchLanguage(startLanguage);

const subscribeToLanguage = (onChange: () => void) => {
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
};
const currentLanguage = () => i18n.language;
const translators = new Map<string, TFunction>();
function translatorFor(language: string): TFunction {
  let t = translators.get(language);
  if (!t) {
    const fixed = i18n.getFixedT(language) as (key: unknown, options?: unknown) => unknown;
    const bareKeys = new Map<string, unknown>();
    // Most calls are a bare key (field labels, buttons, on every card of a list): looked up once per language.
    // A language is switched to only once its strings are loaded, so a cached text is never a missing one.
    t = ((key: unknown, options?: unknown) => {
      if (options !== undefined || typeof key !== 'string') return fixed(key, options);
      if (!bareKeys.has(key)) bareKeys.set(key, fixed(key));
      return bareKeys.get(key);
    }) as unknown as TFunction;
    translators.set(language, t);
  }
  return t;
}

// The app's strings come from i18next (react-i18next's hook copied the whole instance on every mount, a cost on a
// list's every card, so lib/translate reads it through these few calls).
setTranslations({
  language: currentLanguage,
  translator: translatorFor,
  subscribe: subscribeToLanguage,
  change: switchLanguage,
});

export default i18n;
