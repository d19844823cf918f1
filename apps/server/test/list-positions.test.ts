import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_BASE } from '@app/shared';
import { preparedOnce } from '../src/db';
import { ListPositions } from '../src/modules/records/list-positions';
import { call, createTestApp, createUser, type TestApp } from './helpers';

const at = (n: number) => ({ createdAt: `2024-01-01T00:00:${String(n).padStart(2, '0')}.000000Z`, id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` });

describe('positions kept of the lists', () => {
  it("keeps each list's total until a change, and none read before one", () => {
    const positions = new ListPositions();
    const before = positions.currentGeneration();
    positions.rememberTotal('victims_public', 60, before);
    expect(positions.totalOf('victims_public')).toBe(60);
    expect(positions.totalOf('victims_all')).toBeUndefined();
    positions.clear();
    expect(positions.totalOf('victims_public')).toBeUndefined();
    positions.rememberTotal('victims_public', 60, before);
    expect(positions.totalOf('victims_public')).toBeUndefined();
  });

  it('finds the nearest known position before an offset, and the entries in between', () => {
    const positions = new ListPositions();
    const generation = positions.currentGeneration();
    positions.remember('victims_public', 100, [at(1), at(2), at(3)], generation);
    expect(positions.nearestBefore('victims_public', 100)).toBeNull();
    expect(positions.nearestBefore('victims_public', 101)).toEqual({ cursor: at(1), skip: 0 });
    expect(positions.nearestBefore('victims_public', 102)).toEqual({ cursor: at(2), skip: 0 });
    expect(positions.nearestBefore('victims_public', 110)).toEqual({ cursor: at(3), skip: 7 });
    expect(positions.nearestBefore('victims_all', 110)).toBeNull();
  });

  it('gives the entries of a page only when every one of them is known', () => {
    const positions = new ListPositions();
    const generation = positions.currentGeneration();
    positions.remember('victims_public', 10, [at(1), at(2), at(3), at(4)], generation);
    expect(positions.entriesAt('victims_public', 10, 4)).toEqual([at(1), at(2), at(3), at(4)]);
    expect(positions.entriesAt('victims_public', 11, 2)).toEqual([at(2), at(3)]);
    expect(positions.entriesAt('victims_public', 11, 4)).toBeNull();
    expect(positions.entriesAt('victims_public', 9, 2)).toBeNull();
    expect(positions.entriesAt('victims_all', 10, 1)).toBeNull();
    // The known entries that follow a position, as far as they go.
    expect(positions.entriesFrom('victims_public', 12, 16)).toEqual([at(3), at(4)]);
    expect(positions.entriesFrom('victims_public', 14, 16)).toEqual([]);
  });

  it('joins runs that overlap or touch, and keeps apart those that do not', () => {
    const positions = new ListPositions();
    const generation = positions.currentGeneration();
    positions.remember('orphans_public', 0, [at(0), at(1), at(2)], generation);
    positions.remember('orphans_public', 6, [at(6), at(7)], generation);
    expect(positions.entriesAt('orphans_public', 0, 8)).toBeNull();
    expect(positions.nearestBefore('orphans_public', 6)).toEqual({ cursor: at(2), skip: 3 });
    // Touching the first run on its right and the second on its left: one run from 0 to 7.
    positions.remember('orphans_public', 3, [at(3), at(4), at(5)], generation);
    expect(positions.entriesAt('orphans_public', 0, 8)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map(at));
    // Inside and past the run: its entries are replaced by what was read last, and it grows.
    positions.remember('orphans_public', 5, [at(5), at(6), at(7), at(8), at(9)], generation);
    expect(positions.entriesAt('orphans_public', 0, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(at));
    // Before it, overlapping its start.
    positions.remember('orphans_public', 20, [at(20)], generation);
    expect(positions.entriesAt('orphans_public', 19, 2)).toBeNull();
    positions.remember('orphans_public', 18, [at(18), at(19), at(20), at(21)], generation);
    expect(positions.entriesAt('orphans_public', 18, 4)).toEqual([18, 19, 20, 21].map(at));
    expect(positions.entriesAt('orphans_public', 0, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(at));
    expect(positions.entriesAt('orphans_public', 9, 10)).toBeNull();
  });

  it('keeps at most 2,048 entries of a list, dropping first those farthest from the page read last, and never that page', () => {
    const positions = new ListPositions();
    const generation = positions.currentGeneration();
    const run = (start: number, n: number) => Array.from({ length: n }, (_, i) => at((start + i) % 60));
    positions.remember('victims_public', 0, run(0, 1000), generation);
    positions.remember('victims_public', 10_000, run(10_000, 1000), generation);
    positions.remember('victims_public', 5_000, run(5_000, 40), generation);
    // 2,040 entries: all kept.
    expect(positions.entriesAt('victims_public', 0, 1)).not.toBeNull();
    expect(positions.entriesAt('victims_public', 10_000, 1)).not.toBeNull();
    // 50 more near the end of the list: the run at its start is the farthest, and goes.
    positions.remember('victims_public', 13_000, run(13_000, 50), generation);
    expect(positions.entriesAt('victims_public', 0, 1)).toBeNull();
    expect(positions.entriesAt('victims_public', 5_000, 40)).not.toBeNull();
    expect(positions.entriesAt('victims_public', 10_000, 1000)).not.toBeNull();
    expect(positions.entriesAt('victims_public', 13_000, 50)).not.toBeNull();
    // A run that outgrows the bound, read page after page onwards, keeps the 2,048 entries up to the last page read.
    for (let offset = 0; offset < 5000; offset += 50) positions.remember('news_public', offset, run(offset, 150), generation);
    expect(positions.entriesAt('news_public', 5100 - 2048, 2048)).not.toBeNull();
    expect(positions.entriesAt('news_public', 5100 - 2049, 1)).toBeNull();
    expect(positions.entriesAt('news_public', 5100, 1)).toBeNull();
    // Read backwards from there, it keeps the page read and what follows it.
    positions.remember('news_public', 3000, run(3000, 150), generation);
    expect(positions.entriesAt('news_public', 3000, 2048)).not.toBeNull();
    expect(positions.entriesAt('news_public', 3000, 2049)).toBeNull();
    expect(positions.nearestBefore('news_public', 3000)).toBeNull();
  });

  it('keeps nothing read before a change, and forgets everything at one', () => {
    const positions = new ListPositions();
    const before = positions.currentGeneration();
    positions.remember('orphans_public', 10, [at(1)], before);
    positions.clear();
    expect(positions.nearestBefore('orphans_public', 20)).toBeNull();
    positions.remember('orphans_public', 10, [at(1)], before);
    expect(positions.nearestBefore('orphans_public', 20)).toBeNull();
  });
});

/**
 * Deep numbered pages start from positions earlier reads learnt (records/list-positions.ts), pages read their records
 * once however many requests want them at the same moment, and a page that reads records reads the next ones too
 * (records/reads.ts). None of it may change an answer.
 */
describe('list reads from known positions', () => {
  let t: TestApp;
  let reader: Awaited<ReturnType<typeof createUser>>;
  const list = `${API_BASE}/orphans`;

  beforeAll(async () => {
    t = await createTestApp();
    reader = await createUser(t.app, 'contributor');
    // Pairs of records share an instant, so a position's keyset must be the stored microseconds and the id.
    await t.database.query(
      `insert into records (category, title, description, sample, created_at)
       select 'orphans', 'Positions test ' || n, 'Test data, not real.', true, timestamptz '2024-01-01' + (n / 2) * interval '1 second'
       from generate_series(1, 60) n`,
    );
    t.app.contentChanged({ area: 'records' });
  });
  afterAll(async () => t.close());

  const ids = async (url: string, headers: Record<string, string> = {}) => {
    const res = await call(t.app, { method: 'GET', url, headers });
    expect(res.status).toBe(200);
    return (res.body as { _id: string }[]).map((r) => r._id);
  };

  it('answers every numbered page as the list itself orders it, read in order and out of order', async () => {
    const all = await ids(`${list}?limit=100`);
    expect(all).toHaveLength(60);
    for (const offset of [1, 2, 3, 9, 25, 26, 40, 12, 55, 59, 60]) {
      expect(await ids(`${list}?limit=7&offset=${offset}`), `offset ${offset}`).toEqual(all.slice(offset, offset + 7));
      expect(await ids(`${list}?limit=7&offset=${offset}`, reader.auth), `offset ${offset}, signed in`).toEqual(all.slice(offset, offset + 7));
    }
    // Those pages came from known positions, not from walking the list from its start.
    expect(t.app.listPositions.nearestBefore('orphans_public', 41)).toEqual(expect.objectContaining({ skip: 0 }));
  });

  it('forgets the positions at a change, and pages show it', async () => {
    await ids(`${list}?limit=7&offset=20`);
    expect(t.app.listPositions.nearestBefore('orphans_public', 30)).not.toBeNull();
    await t.database.query(
      `insert into records (category, title, description, sample, created_at) values ('orphans', 'Positions test newest', 'Test data, not real.', true, timestamptz '2024-06-01')`,
    );
    t.app.contentChanged({ area: 'records' });
    expect(t.app.listPositions.nearestBefore('orphans_public', 30)).toBeNull();
    const all = await ids(`${list}?limit=100`);
    expect(all).toHaveLength(61);
    expect(await ids(`${list}?limit=7&offset=21`)).toEqual(all.slice(21, 28));
    expect(await ids(`${list}?limit=7&offset=22`)).toEqual(all.slice(22, 29));
  });

  it('answers a numbered page past the known total with no statement, until a change adds records', async () => {
    const all = await ids(`${list}?limit=100`);
    // Every statement the app sends, whichever way (drizzle or preparedRows), goes through the driver's client.
    const client = (t.app.db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
    const queries = vi.spyOn(client, 'query');
    const sent = () => queries.mock.calls.map(([query]) => (typeof query === 'string' ? query : (query as { text: string }).text));
    try {
      // With no total known, the first page past the end reads it in its one statement (no count after it).
      t.app.contentChanged({ area: 'records' });
      queries.mockClear();
      const first = await call(t.app, { method: 'GET', url: `${list}?limit=7&offset=${all.length + 3}` });
      expect(first.body).toEqual([]);
      expect(first.headers['x-total-count']).toBe(String(all.length));
      expect(sent()).toHaveLength(1);
      expect(sent()[0]).toMatch(/records_list_page/);
      queries.mockClear();
      for (const offset of [all.length, all.length + 1, 10_000, 1_000_000]) {
        const res = await call(t.app, { method: 'GET', url: `${list}?limit=7&offset=${offset}` });
        expect(res.status).toBe(200);
        expect(res.body).toEqual([]);
        expect(res.headers['x-total-count']).toBe(String(all.length));
      }
      expect(sent()).toEqual([]);
      // The page just before the end still reads its entry.
      expect(await ids(`${list}?limit=7&offset=${all.length - 1}`)).toEqual(all.slice(-1));
      // A change forgets the total: the page that was past the end shows the new last record.
      await t.database.query(
        `insert into records (category, title, description, sample, created_at) values ('orphans', 'Positions test oldest', 'Test data, not real.', true, timestamptz '2023-01-01')`,
      );
      t.app.contentChanged({ area: 'records' });
      const after = await ids(`${list}?limit=200`);
      expect(after).toHaveLength(all.length + 1);
      expect(await ids(`${list}?limit=7&offset=${all.length}`)).toEqual(after.slice(-1));
    } finally {
      queries.mockRestore();
    }
  });

  it('answers the pages after one just read from the positions it read ahead, with no statement, until a change', async () => {
    const all = await ids(`${list}?limit=100`);
    const client = (t.app.db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
    const queries = vi.spyOn(client, 'query');
    const listStatements = () => queries.mock.calls.filter(([query]) => /records_list_page/.test(typeof query === 'string' ? query : (query as { text: string }).text)).length;
    try {
      t.app.contentChanged({ area: 'records' });
      queries.mockClear();
      // A numbered page reads the positions of the hundred entries after it too (here, to the end of the list).
      expect(await ids(`${list}?limit=5&offset=10`)).toEqual(all.slice(10, 15));
      expect(listStatements()).toBe(1);
      for (const offset of [10, 11, 15, 20, 40, all.length - 5, all.length - 2]) {
        const res = await call(t.app, { method: 'GET', url: `${list}?limit=5&offset=${offset}` });
        expect((res.body as { _id: string }[]).map((r) => r._id), `offset ${offset}`).toEqual(all.slice(offset, offset + 5));
        expect(res.headers['x-total-count']).toBe(String(all.length));
        if (offset + 5 < all.length) expect(res.headers.link).toContain(`offset=${offset + 5}`);
      }
      expect(listStatements()).toBe(1);
      // Pages asked for at once, past what is known, wait for the one read that covers them all.
      t.app.contentChanged({ area: 'records' });
      queries.mockClear();
      const offsets = [20, 21, 22, 23, 24, 25, 30, 40];
      const pages = await Promise.all(offsets.map((offset) => ids(`${list}?limit=5&offset=${offset}`)));
      pages.forEach((page, i) => expect(page, `offset ${offsets[i]}`).toEqual(all.slice(offsets[i], offsets[i]! + 5)));
      expect(listStatements()).toBe(1);
      // A page that starts before what is known is read.
      expect(await ids(`${list}?limit=5&offset=7`)).toEqual(all.slice(7, 12));
      expect(listStatements()).toBe(2);
      expect(await ids(`${list}?limit=5&offset=8`)).toEqual(all.slice(8, 13));
      expect(listStatements()).toBe(2);
      // Signed-in readers have their own list (it may hold more records), read once too.
      expect(await ids(`${list}?limit=5&offset=11`, reader.auth)).toEqual(all.slice(11, 16));
      expect(await ids(`${list}?limit=5&offset=12`, reader.auth)).toEqual(all.slice(12, 17));
      expect(listStatements()).toBe(3);
      // A change forgets every position: the same page is read again and shows it.
      await t.database.query(
        `insert into records (category, title, description, sample, created_at) values ('orphans', 'Positions test newer', 'Test data, not real.', true, timestamptz '2024-07-01')`,
      );
      t.app.contentChanged({ area: 'records' });
      queries.mockClear();
      const page = await ids(`${list}?limit=5&offset=11`);
      expect(listStatements()).toBe(1);
      const after = await ids(`${list}?limit=100`);
      expect(after).toHaveLength(all.length + 1);
      expect(page).toEqual(after.slice(11, 16));
      expect(page).not.toEqual(all.slice(11, 16));
    } finally {
      queries.mockRestore();
    }
  });

  it('reads records that several requests want at once in one statement, and the next page\'s with them', async () => {
    const all = await ids(`${list}?limit=100`);
    t.app.contentChanged({ area: 'records' });
    const statement = preparedOnce<{ execute: (params: { ids: string[] }) => Promise<unknown> }>(t.app.db, 'record_views', () => {
      throw new Error('the reads have not prepared record_views');
    });
    // Slowed down, so that every request asks for the records while the first one's statement is still running.
    const original = statement.execute.bind(statement);
    const execute = vi.spyOn(statement, 'execute').mockImplementation(async (params) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return original(params);
    });
    try {
      const pages = await Promise.all(Array.from({ length: 8 }, () => ids(`${list}?limit=5&offset=5`, reader.auth)));
      for (const page of pages) expect(page).toEqual(all.slice(5, 10));
      expect(execute).toHaveBeenCalledTimes(1);
      // The page's five and the sixteen after them are kept now; the one after those is not.
      for (const id of all.slice(5, 26)) expect(t.app.recordFragments.get(id), id).toBeDefined();
      expect(t.app.recordFragments.get(all[26]!)).toBeUndefined();
      // The next pages need no statement for their records.
      expect(await ids(`${list}?limit=5&offset=10`, reader.auth)).toEqual(all.slice(10, 15));
      expect(await ids(`${list}?limit=5&offset=21`, reader.auth)).toEqual(all.slice(21, 26));
      expect(execute).toHaveBeenCalledTimes(1);
      // The first page, read again and again, reads no further than itself.
      t.app.contentChanged({ area: 'records' });
      expect(await ids(`${list}?limit=5`, reader.auth)).toEqual(all.slice(0, 5));
      expect(execute).toHaveBeenCalledTimes(2);
      expect(t.app.recordFragments.get(all[4]!)).toBeDefined();
      expect(t.app.recordFragments.get(all[5]!)).toBeUndefined();
    } finally {
      execute.mockRestore();
    }
  });
});
