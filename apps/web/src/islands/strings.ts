import type { TFunction } from 'i18next';
import en from '../locales/en.json';
import type { Translations } from '../lib/translate';

const plural = new Intl.PluralRules('en');

function lookup(key: string): unknown {
  let node: unknown = en;
  for (const part of key.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return node;
}

/**
 * The English strings read as i18next reads them for the calls the islands make: a key, `{{name}}` filled from the
 * options, the plural form (`key_one`, `key_other`) by `count`, `defaultValue` when missing.
 */
const t = ((key: string, options?: Record<string, unknown>) => {
  const count = options?.count;
  const text = (typeof count === 'number' ? lookup(`${key}_${plural.select(count)}`) : undefined) ?? lookup(key) ?? options?.defaultValue ?? key;
  if (typeof text !== 'string' || !options) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in options ? String(options[name]) : whole));
}) as unknown as TFunction;

/**
 * The islands' strings: English, as the server rendered the page. Another language is the app's: choosing one
 * remembers it and starts the app, which shows the page in it (`startApp`).
 */
export function englishStrings(startApp: () => void): Translations {
  return {
    language: () => 'en',
    translator: () => t,
    subscribe: () => () => undefined,
    change: async (language) => {
      try {
        localStorage.setItem('lang', language);
      } catch {
        // Without storage the app starts in English; the reader can choose again there.
      }
      if (language !== 'en') startApp();
    },
  };
}
