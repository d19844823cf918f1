import type { TFunction } from 'i18next';
import type { Translations } from '../lib/translate';
import { ISLAND_STRINGS_ID } from './pageStrings';

/**
 * English plural rules, made at the first count a string is looked up with: building the first Intl object of a page
 * loads the engine's locale data (about a millisecond of a page load's script), and a page whose islands are not
 * adopted at load never needs it.
 */
let plural: Intl.PluralRules | null = null;
const pluralOf = (count: number) => (plural ??= new Intl.PluralRules('en')).select(count);

/** The English strings the server put in the page for its islands (islands/pageStrings.ts); none when missing or damaged. */
export function stringsOfPage(doc: Document = document): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(doc.getElementById(ISLAND_STRINGS_ID)?.textContent ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A reader of `strings` as i18next reads them for the calls the islands make: a key, `{{name}}` filled from the
 * options, the plural form (`key_one`, `key_other`) by `count`, `defaultValue` when missing. `missing` hears of a key
 * it did not find (tests).
 */
export function translator(strings: Record<string, unknown>, missing?: (key: string) => void): TFunction {
  const lookup = (key: string): unknown => {
    let node: unknown = strings;
    for (const part of key.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
    return node;
  };
  return ((key: string, options?: Record<string, unknown>) => {
    const count = options?.count;
    const found = (typeof count === 'number' ? lookup(`${key}_${pluralOf(count)}`) : undefined) ?? lookup(key);
    if (found === undefined) missing?.(key);
    const text = found ?? options?.defaultValue ?? key;
    if (typeof text !== 'string' || !options) return text;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in options ? String(options[name]) : whole));
  }) as unknown as TFunction;
}

/**
 * The islands' strings: English, as the server rendered the page (`strings`: those it put in the page for its
 * islands, or what reads them). Another language is the app's: choosing one remembers it and starts the app, which
 * shows the page in it (`startApp`). `missing` as for `translator`. A reader of the strings is read when an island
 * first asks for a string, so a page whose islands wait to be reached does not parse them at load.
 */
export function englishStrings(
  startApp: () => void,
  strings: Record<string, unknown> | (() => Record<string, unknown>),
  missing?: (key: string) => void,
): Translations {
  let t: TFunction | null = null;
  return {
    language: () => 'en',
    translator: () => (t ??= translator(typeof strings === 'function' ? strings() : strings, missing)),
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
