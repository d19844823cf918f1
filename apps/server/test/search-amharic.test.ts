import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, type SearchResponse } from '@app/shared';
import { stemText, stemWord } from '../src/db/amharic';
import { call, createTestApp, createUser, type TestApp } from './helpers';

/**
 * Amharic words found in their inflected forms (db/amharic.ts): prepositions written before the word, articles,
 * plurals and objects after it. Every record here is invented test data, labelled as such; the words are common nouns.
 */
const LABEL = 'Test data, not a real record.';

/** [the word searched for, a form of it in a record's text]: real Amharic forms with prefixes, suffixes or both. */
const FORMS: [string, string][] = [
  ['ሙከራ', 'የሙከራ'], // of the test
  ['ሙከራ', 'ሙከራዎች'], // tests
  ['ቤት', 'ቤቶች'], // houses
  ['ቤት', 'በቤቱ'], // in the house
  ['ልጅ', 'ልጆች'], // children
  ['ልጅ', 'ልጃቸው'], // their child
  ['ከተማ', 'በከተማዋ'], // in the city
  ['ሰው', 'ለሰዎቹ'], // for the people
  ['መንደር', 'ከመንደሩ'], // from the village
  ['ገበሬ', 'እንደገበሬዎቹ'], // like the farmers
  ['ትምህርት', 'ትምህርታቸውን'], // their education (object)
  ['መዝገብ', 'መዝገቦቹ'], // the registers
];

describe('search: Amharic words with prefixes and suffixes', () => {
  let t: TestApp;
  const ids = new Map<string, string>();

  const search = async (q: string) => {
    const res = await call(t.app, { method: 'GET', url: `${API_BASE}/search?q=${encodeURIComponent(q)}&limit=50` });
    expect(res.status).toBe(200);
    return res.body as SearchResponse;
  };

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await createUser(t.app, 'admin');
    const texts = [...FORMS.map(([, form]) => form), 'ቤተሰብ', 'የሙከራ መዝገቦች'];
    for (const [i, text] of texts.entries()) {
      const res = await call(t.app, {
        method: 'POST',
        url: `${API_BASE}/massacres`,
        headers: admin.auth,
        payload: { title: `Invented record ${i} (test data)`, description: `${LABEL} ${text}። ጽሑፍ` },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.set(text, res.body._id);
    }
  });
  afterAll(async () => t?.close());

  it('the database stems words as the server does', async () => {
    const words = [...new Set(FORMS.flat()), 'ቤተሰብ', 'ለማ', 'የለማ', 'ሰላሙ', 'ዘመኑ', 'ቤቶቻችን', 'ኢትዮጵያ'];
    const rows = await t.database.query<{ word: string; stem: string }>(`select w as word, search_stem(w) as stem from unnest($1::text[]) as w`, [words]);
    expect(Object.fromEntries(rows.map((r) => [r.word, r.stem]))).toEqual(Object.fromEntries(words.map((w) => [w, stemWord(w)])));
    const text = 'Test ቤቶች, ልጆች። abc ከተማዋ 12';
    const [row] = await t.database.query<{ stems: string }>(`select search_stems($1) as stems`, [text]);
    expect(row!.stems).toBe(stemText(text).match(/[\u1200-\u1357]+/g)!.join(' '));
  });

  it.each(FORMS)('"%s" finds "%s", and highlights it', async (word, form) => {
    const body = await search(word);
    const hit = body.hits.find((h) => h.record._id === ids.get(form));
    expect(hit, `${word} -> ${form}`).toBeDefined();
    expect(hit!.snippet.filter((part) => part.match).map((part) => part.text)).toContain(form);
  });

  it('finds the plain word from an inflected one, and a phrase of inflected words', async () => {
    const byForm = await search('የከተማ');
    expect(byForm.hits.map((h) => h.record._id)).toContain(ids.get('በከተማዋ'));
    const phrase = await search('"ሙከራ መዝገብ"');
    expect(phrase.hits.map((h) => h.record._id)).toEqual([ids.get('የሙከራ መዝገቦች')]);
  });

  it('does not find another word that only starts alike', async () => {
    const body = await search('ቤት');
    const found = body.hits.map((h) => h.record._id);
    expect(found).toEqual(expect.arrayContaining([ids.get('ቤቶች'), ids.get('በቤቱ')]));
    expect(found).not.toContain(ids.get('ቤተሰብ'));
  });
});
