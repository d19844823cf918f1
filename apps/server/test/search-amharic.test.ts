import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, type SearchResponse } from '@app/shared';
import { stemWord, textStems } from '../src/db/amharic';
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

/**
 * [the Latin word or number searched for, a record's text, the word of it marked]: Amharic attaches its affixes to
 * Latin acronyms and to numbers (issue 52 item 14). The acronyms are organisations, not people.
 */
const MIXED_FORMS: [string, string, string][] = [
  ['ACLED', 'የACLED', 'የACLED'], // of ACLED
  ['UN', 'በUN', 'በUN'], // by the UN
  ['OCHA', 'ለOCHA', 'ለOCHA'], // for OCHA
  ['EHRC', 'ከEHRC', 'ከEHRC'], // from the EHRC
  ['NGO', 'NGOዎች', 'NGOዎች'], // NGOs
  ['WHO', 'WHOን', 'WHOን'], // WHO (object)
  ['AU', 'እንደAUው', 'እንደAUው'], // like the AU
  ['2013', 'በ2013ዓ.ም', 'በ2013ዓ'], // in 2013 (Ethiopian calendar)
  ['12', '12ኛው', '12ኛው'], // the 12th
  ['1990', '1990ዎቹ', '1990ዎቹ'], // the 1990s
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
    const texts = [...FORMS.map(([, form]) => form), 'ቤተሰብ', 'የሙከራ መዝገቦች', ...MIXED_FORMS.map(([, text]) => text)];
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
    const text = `Test ቤቶች, ልጆች። abc ከተማዋ 12 ${MIXED_FORMS.map(([, form]) => form).join(' ')} ኢትዮጵያ2020 A1የB2`;
    const [row] = await t.database.query<{ stems: string }>(`select search_stems($1) as stems`, [text]);
    expect(row!.stems).toBe(textStems(text));
    expect(textStems('የACLED TPLFን በ2013ዓ.ም 5ኛ')).toBe('ACLED TPLF 2013 ም 5');
  });

  it.each(MIXED_FORMS)('"%s" finds "%s" (a Latin word or a number with Amharic affixes), and so does the word as written', async (word, text, marked) => {
    for (const q of [word, marked]) {
      const body = await search(q);
      const hit = body.hits.find((h) => h.record._id === ids.get(text));
      expect(hit, `${q} -> ${text}`).toBeDefined();
      expect(hit!.snippet.filter((part) => part.match).map((part) => part.text), q).toContain(marked);
    }
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

describe('search: the stemmer of mixed words reaches the records stored before it', () => {
  it('the migration that brings it re-indexes an existing record: "ACLED" finds its "የACLED" after the upgrade', async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), '../drizzle');
    const journal = JSON.parse(readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    // The migration before the one that brought the stemmer as it is now (the last to write it; later ones may not).
    const before = journal.entries.findLastIndex((entry) => readFileSync(path.join(folder, `${entry.tag}.sql`), 'utf8').includes('search_word_stems')) - 1;
    const older = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    const client = new PGlite({ extensions: { pg_trgm } });
    try {
      cpSync(folder, older, { recursive: true });
      writeFileSync(path.join(older, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, before + 1) }));
      const db = drizzle({ client });
      await migrate(db, { migrationsFolder: older });
      await client.query(`insert into records (category, title, description) values ('massacres', 'Invented record (test data)', '${LABEL} የACLED ዘገባ')`);
      const found = async () => (await client.query<{ n: number }>(`select count(*)::int as n from records where search_vector @@ websearch_to_tsquery('simple', 'ACLED')`)).rows[0]!.n;
      expect(await found()).toBe(0);
      await migrate(db, { migrationsFolder: folder });
      expect(await found()).toBe(1);
    } finally {
      await client.close();
      rmSync(older, { recursive: true, force: true });
    }
  });
});
