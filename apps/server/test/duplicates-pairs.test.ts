import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { API_BASE, type DuplicatePair } from '@app/shared';
import { records } from '../src/db/schema';
import { scanQueue } from '../src/modules/duplicates/scan';
import { call, createTestApp, createUser, type TestApp } from './helpers';

type User = Awaited<ReturnType<typeof createUser>>;

/**
 * The admins' "Possible duplicates" over the whole table: pairs among old records are found however many records came
 * after them (the screen once looked only at the newest 400), and the pages follow one another by cursor. Made-up
 * names only: a given name with the surname ሙከራ (Mukera, "test") or ናሙና (Namuna, "sample"), and filler records whose
 * names are made of letters at random.
 */

/** Made-up pairs of one person written in both scripts (test data), the old ones first. */
const PAIRS: [string, string][] = [
  ['ዘበናይ ናሙና', 'Zebenay Namuna'],
  ['ተስፋዬ ሙከራ', 'Tesfaye Mukera'],
  ['አበበ ናሙና', 'Abebe Namuna'],
  ['ጌታቸው ሙከራ', 'Getachew Mukera'],
  ['ሙሉጌታ ናሙና', 'Mulugeta Namuna'],
];

/** More newer records than the former screen looked at. */
const FILLERS = 450;

/** A made-up name of two six-letter words for filler i, unlike the others (consonants and vowels taken in turn). */
function fillerName(i: number): string {
  const word = (salt: number) =>
    Array.from({ length: 3 }, (_, k) => 'bdfgklmnprstvz'[(i * 7 + salt * 11 + k * 5 + ((i * (k + 3)) >> 2)) % 14]! + 'aeiou'[(i * 3 + salt + k * 2) % 5]!).join('');
  return `${word(1)} ${word(2)}`;
}

describe('possible duplicates of the whole table', () => {
  let t: TestApp;
  let admin: User;
  const ids: [string, string][] = [];

  /** Warnings the process emitted while the file ran (node-postgres's deprecations among them). */
  const warnings: string[] = [];
  const keepWarning = (warning: Error) => void warnings.push(warning.message);

  beforeAll(async () => {
    process.on('warning', keepWarning);
    t = await createTestApp();
    admin = await createUser(t.app, 'admin');
    for (const [i, names] of PAIRS.entries()) {
      // Years apart, the oldest first: written long before the fillers.
      const createdAt = new Date(Date.UTC(2001 + i, 0, 1));
      const rows = await t.app.db
        .insert(records)
        .values(names.map((fullName, side) => ({ category: 'victims', title: `Test pair ${i}.${side} (test data)`, fullName, description: 'Test data, not a real person.', createdAt })))
        .returning({ id: records.id });
      ids.push([rows[0]!.id, rows[1]!.id]);
    }
    await t.app.db.insert(records).values(
      Array.from({ length: FILLERS }, (_, i) => ({ category: 'victims', title: `Test filler ${i} (test data)`, fullName: fillerName(i), description: 'Test data, not a real person.' })),
    );
  });
  afterAll(async () => {
    process.off('warning', keepWarning);
    await t.close();
  });

  const page = async (query: string) => {
    await scanQueue(t.app.db); // as the site's background scan does after a write
    const res = await call(t.app, { method: 'GET', url: `${API_BASE}/duplicates?${query}`, headers: admin.auth });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { pairs: res.body as DuplicatePair[], next: (res.headers['x-next-cursor'] as string | undefined) ?? null };
  };
  const key = (p: DuplicatePair) => [p.first._id, p.second._id].sort().join('/');
  const hasPair = (list: DuplicatePair[], [a, b]: [string, string]) => list.some((p) => key(p) === [a, b].sort().join('/'));

  it(`finds a pair among records older than the newest ${FILLERS}`, async () => {
    const { pairs } = await page('limit=200');
    expect(hasPair(pairs, ids[0]!)).toBe(true);
    for (const pair of ids) expect(hasPair(pairs, pair)).toBe(true);
    const oldest = pairs.find((p) => hasPair([p], ids[0]!))!;
    expect(oldest.reasons).toContain('name');
  });

  it('gives the pairs a page at a time, best first, each once, the next page by X-Next-Cursor', async () => {
    const whole = (await page('limit=200')).pairs;
    expect(whole.length).toBeGreaterThanOrEqual(PAIRS.length);
    const paged: DuplicatePair[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const result = await page(`limit=2${next ? `&cursor=${encodeURIComponent(next)}` : ''}`);
      expect(result.pairs.length).toBeLessThanOrEqual(2);
      paged.push(...result.pairs);
      next = result.next;
      pages++;
    } while (next && pages < 100);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(paged.map(key)).toEqual(whole.map(key));
    const scores = paged.map((p) => p.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('refuses a cursor it did not give, naming the field', async () => {
    const res = await call(t.app, { method: 'GET', url: `${API_BASE}/duplicates?cursor=not-a-cursor`, headers: admin.auth });
    expect(res.status).toBe(400);
    expect(res.body.cursor).toBeTruthy();
  });

  it('checks a record again when its name changes, whatever wrote it', async () => {
    const [first, second] = ids[1]!;
    await t.app.db.update(records).set({ fullName: 'Almaz Namuna' }).where(eq(records.id, second));
    expect(hasPair((await page('limit=200')).pairs, [first, second])).toBe(false);
    await t.app.db.update(records).set({ fullName: 'Tesfaye Mukera' }).where(eq(records.id, second));
    expect(hasPair((await page('limit=200')).pairs, [first, second])).toBe(true);
  });

  it("scans a record with a woreda and a date on its transaction's one connection, one statement at a time", async () => {
    // Three reads (name alone, the date, the woreda): the scan sent them together to its transaction's connection,
    // which node-postgres queues with a deprecation warning, seen at every start with the sample content (issue 51).
    const happenedOn = new Date(Date.UTC(2020, 4, 1));
    const rows = await t.app.db
      .insert(records)
      .values(['Selam Mukera', 'Selam Mukera'].map((fullName, side) => ({ category: 'victims', title: `Test woreda pair ${side} (test data)`, fullName, woreda: 'Test woreda', happenedOn, description: 'Test data, not a real person.' })))
      .returning({ id: records.id });
    const pair = await page('limit=200');
    const found = pair.pairs.find((p) => hasPair([p], [rows[0]!.id, rows[1]!.id]));
    expect(found?.reasons).toEqual(expect.arrayContaining(['name', 'date', 'woreda']));
    await new Promise((r) => setImmediate(r)); // warnings are emitted on the next turn of the event loop
    expect(warnings.filter((w) => /already executing a query/.test(w))).toEqual([]);
  });
});
