import type { IslandName } from './registry';

/** The element of a reading page that carries its islands' English strings (islands/strings.ts reads it). */
export const ISLAND_STRINGS_ID = 'island-strings';

/**
 * The strings each island reads (keys, or whole groups, of the language files). A reading page carries those of its
 * own islands in its HTML (entry-server.tsx), instead of every string of the site in the scripts every page loads.
 * An island reading a string missing here would show its key: test/island-strings.test.tsx renders each island with
 * these alone.
 */
export const ISLAND_STRINGS: Record<IslandName, readonly string[]> = {
  menu: ['nav', 'browse', 'footer.social', 'search.nav', 'statistics.nav'],
  copy: ['common.copy', 'common.copied'],
  carousel: ['common.next', 'common.previous', 'record.imageOf', 'record.noImage', 'record.graphicWarning', 'record.graphicVideoWarning', 'record.show'],
  viewToggle: ['record.view', 'record.viewCards', 'record.viewTable'],
  statisticsFilters: ['statistics', 'common.confirmed', 'common.notConfirmed', 'region.unknown', 'search.filtersButton'],
  searchFilters: ['search.filtersButton'],
  // With the letter form's own, which the slot loads when the form comes near.
  campaign: ['home.campaignTitle', 'campaign', 'common'],
  viewerKeys: [],
  showGraphic: ['record.show'],
};

type Strings = Record<string, unknown>;
const isStrings = (value: unknown): value is Strings => typeof value === 'object' && value !== null;

/** The parts of `strings` at `keys` (dotted paths; a key's plural forms, `key_one`..., come with it), in the same shape. */
export function pickStrings(strings: Strings, keys: Iterable<string>): Strings {
  const picked: Strings = {};
  for (const key of keys) {
    const parts = key.split('.');
    const last = parts.pop()!;
    let from: unknown = strings;
    let into = picked;
    for (const part of parts) {
      from = isStrings(from) ? from[part] : undefined;
      if (!isStrings(from)) break;
      into = isStrings(into[part]) ? into[part] : (into[part] = {});
    }
    if (!isStrings(from)) continue;
    for (const [name, value] of Object.entries(from)) if (name === last || name.startsWith(`${last}_`)) into[name] = value;
  }
  return picked;
}
