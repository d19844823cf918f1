import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * A reading page whose islands wait to be reached runs none of their strings' work at load: the strings the server
 * put in the page are parsed, and the plural rules built, when an island first asks for a string (islands/strings.ts).
 */
describe("the islands' strings, read when first asked for", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('reads the page strings at the first string asked for, and once', async () => {
    const { englishStrings } = await import('../src/islands/strings');
    const read = vi.fn(() => ({ nav: { menu: 'Menu' }, search: { found_one: '{{count}} record', found_other: '{{count}} records' } }));
    const strings = englishStrings(() => undefined, read);
    expect(read).not.toHaveBeenCalled();
    const t = strings.translator('en');
    expect(t('nav.menu')).toBe('Menu');
    expect(strings.translator('en')).toBe(t);
    expect(t('search.found', { count: 2 })).toBe('2 records');
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('builds the plural rules only when a string is looked up by count', async () => {
    const Rules = Intl.PluralRules;
    // Intl's properties are writable; its TypeScript declaration says otherwise.
    const intl = Intl as { PluralRules: typeof Rules };
    let built = 0;
    class CountedRules extends Rules {
      constructor(...args: ConstructorParameters<typeof Rules>) {
        super(...args);
        built++;
      }
    }
    intl.PluralRules = CountedRules as typeof Rules;
    try {
      const { englishStrings } = await import('../src/islands/strings');
      const t = englishStrings(() => undefined, { a: 'one', b_one: '{{count}} b', b_other: '{{count}} bs' }).translator('en');
      expect(t('a')).toBe('one');
      expect(built).toBe(0);
      expect(t('b', { count: 1 })).toBe('1 b');
      expect(t('b', { count: 3 })).toBe('3 bs');
      expect(built).toBe(1);
    } finally {
      intl.PluralRules = Rules;
    }
  });
});
