import { useMemo, useSyncExternalStore } from 'react';
import type { TFunction } from 'i18next';

/**
 * The interface strings as components read them (`useTranslation`), apart from the library that provides them: the
 * app plugs in i18next (lib/i18n.ts); the islands of a reading page (islands/start.tsx) plug in a small reader of the
 * English strings, so a page's menu or copy button does not bring i18next with it.
 */
export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'am', label: 'አማርኛ' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

export interface Translations {
  /** The language shown now. */
  language(): string;
  /** The translator of a language (stable per language: components memoise on it). */
  translator(language: string): TFunction;
  /** Calls `onChange` when the language changes; returns the unsubscribe. */
  subscribe(onChange: () => void): () => void;
  /** Shows the interface in another language (loading its strings, or the app, first). */
  change(language: Language): Promise<void>;
}

let translations: Translations | null = null;

export function setTranslations(provider: Translations): void {
  translations = provider;
}

function provider(): Translations {
  if (!translations) throw new Error('No interface strings: lib/i18n or the islands must be started first');
  return translations;
}

const subscribe = (onChange: () => void) => provider().subscribe(onChange);
const currentLanguage = () => provider().language();

/** Switches the interface language; the choice is remembered. */
export const changeLanguage = (language: Language): Promise<void> => provider().change(language);

/** The interface strings in the visitor's language; the component renders again when the language changes. */
export function useTranslation() {
  const language = useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
  return useMemo(() => ({ t: provider().translator(language), i18n: { language } }), [language]);
}
