import { describe, expect, it } from 'vitest';
import { GuardedReads } from '../src/modules/cache/guarded-reads';
import { makeEntry } from '../src/modules/cache/cached-entry';
import { ResponseCache } from '../src/modules/cache/response-cache';
import { RecordFragments } from '../src/modules/records/fragments';
import { ListPositions } from '../src/modules/records/list-positions';

/** A read that settles when the test says so, counting how often it was started. */
function controlled<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: Error) => void;
  let started = 0;
  const read = () => {
    started++;
    return new Promise<T>((yes, no) => {
      resolve = yes;
      reject = no;
    });
  };
  return { read, resolve: (v: T) => resolve(v), reject: (e: Error) => reject(e), started: () => started };
}

/**
 * The one "generation guard + merged concurrent reads" (cache/guarded-reads.ts) that the response cache, the kept
 * serialised records and the list positions use.
 */
describe('GuardedReads', () => {
  it('merges concurrent reads of one key into one, and keeps its value once', async () => {
    const reads = new GuardedReads();
    const kept: string[] = [];
    const { read, resolve, started } = controlled<string>();
    const first = reads.run('a', read, (v) => kept.push(v));
    const second = reads.run('a', read, (v) => kept.push(`second ${v}`));
    expect(second).toBe(first);
    expect(started()).toBe(1);
    resolve('value');
    expect(await Promise.all([first, second])).toEqual(['value', 'value']);
    expect(kept).toEqual(['value']);
    // Settled: the next request reads again.
    const again = controlled<string>();
    void reads.run('a', again.read);
    expect(again.started()).toBe(1);
    again.resolve('later');
  });

  it('does not merge reads of other keys', () => {
    const reads = new GuardedReads();
    const { read, started } = controlled<string>();
    void reads.run('a', read);
    void reads.run('b', read);
    expect(started()).toBe(2);
  });

  it('keeps nothing a read started before a change read, and joins no request after the change to it', async () => {
    const reads = new GuardedReads();
    const kept: string[] = [];
    const before = controlled<string>();
    const stale = reads.run('a', before.read, (v) => kept.push(v));
    reads.advance();
    const after = controlled<string>();
    const fresh = reads.run('a', after.read, (v) => kept.push(v));
    expect(fresh).not.toBe(stale);
    expect(after.started()).toBe(1);
    before.resolve('stale');
    after.resolve('fresh');
    expect(await stale).toBe('stale');
    expect(await fresh).toBe('fresh');
    expect(kept).toEqual(['fresh']);
  });

  it('does not register a read whose generation is already past, nor keep it', async () => {
    const reads = new GuardedReads();
    const generation = reads.current();
    reads.advance();
    const kept: string[] = [];
    const late = controlled<string>();
    const read = reads.run('a', late.read, (v) => kept.push(v), generation);
    expect(reads.joinable('a')).toBeUndefined();
    expect(reads.isCurrent(generation)).toBe(false);
    late.resolve('late');
    expect(await read).toBe('late');
    expect(kept).toEqual([]);
  });

  it('keeps no error: a failed read is not joined again and keeps nothing', async () => {
    const reads = new GuardedReads();
    const kept: string[] = [];
    const failing = controlled<string>();
    const first = reads.run('a', failing.read, (v) => kept.push(v));
    const joined = reads.run('a', failing.read);
    failing.reject(new Error('database away'));
    await expect(first).rejects.toThrow('database away');
    await expect(joined).rejects.toThrow('database away');
    expect(reads.joinable('a')).toBeUndefined();
    const retry = controlled<string>();
    const second = reads.run('a', retry.read, (v) => kept.push(v));
    expect(retry.started()).toBe(1);
    retry.resolve('ok');
    expect(await second).toBe('ok');
    expect(kept).toEqual(['ok']);
  });

  it('finds a read under way by a test of its key, in its generation only', () => {
    const reads = new GuardedReads<{ list: string; start: number; end: number }>();
    const { read } = controlled<number>();
    const underWay = reads.run({ list: 'victims', start: 0, end: 150 }, read);
    const covering = (list: string, from: number, to: number) => (k: { list: string; start: number; end: number }) =>
      k.list === list && k.start <= from && to <= k.end;
    expect(reads.find(covering('victims', 50, 100))).toBe(underWay);
    expect(reads.find(covering('victims', 100, 200))).toBeUndefined();
    expect(reads.find(covering('orphans', 50, 100))).toBeUndefined();
    const generation = reads.current();
    reads.advance();
    expect(reads.find(covering('victims', 50, 100), generation)).toBeUndefined();
  });
});

describe('the caches that use GuardedReads', () => {
  it('response cache: an answer produced before a change is not stored after it', () => {
    const cache = new ResponseCache(1024 * 1024);
    const generation = cache.currentGeneration();
    cache.invalidateAll();
    expect(cache.set('/a', makeEntry({ status: 200, headers: {}, body: 'a' }), generation)).toBe(false);
    expect(cache.get('/a')).toBeUndefined();
    const afterReports = cache.currentGeneration();
    cache.invalidateWhere(() => false);
    expect(cache.set('/b', makeEntry({ status: 200, headers: {}, body: 'b' }), afterReports)).toBe(false);
    expect(cache.set('/c', makeEntry({ status: 200, headers: {}, body: 'c' }), cache.currentGeneration())).toBe(true);
  });

  it('record fragments: one read per record for concurrent requests; kept unless a change came or it failed', async () => {
    const fragments = new RecordFragments(1024 * 1024);
    const fragment = RecordFragments.make('{"_id":"a"}', 'victims', true);
    const { read, resolve, started } = controlled<typeof fragment | null>();
    const first = fragments.readOnce('a', read, fragments.currentGeneration());
    const second = fragments.readOnce('a', read, fragments.currentGeneration());
    expect(started()).toBe(1);
    resolve(fragment);
    expect(await second).toBe(await first);
    expect(fragments.get('a')).toBe(fragment);

    const racing = controlled<typeof fragment | null>();
    const stale = fragments.readOnce('b', racing.read, fragments.currentGeneration());
    fragments.clear();
    racing.resolve(RecordFragments.make('{"_id":"b"}', 'victims', true));
    await stale;
    expect(fragments.get('b')).toBeUndefined();

    const failing = controlled<typeof fragment | null>();
    const failed = fragments.readOnce('c', failing.read, fragments.currentGeneration());
    failing.reject(new Error('no'));
    await expect(failed).rejects.toThrow('no');
    expect(fragments.get('c')).toBeUndefined();
    expect(fragments.readingNow('c', fragments.currentGeneration())).toBeUndefined();
  });

  it('list positions: a read covering a page is found while under way, and forgotten at a change', async () => {
    const positions = new ListPositions();
    const generation = positions.currentGeneration();
    const { read, resolve } = controlled<string>();
    const underWay = positions.readPositions('victims_public', 0, 150, read, generation);
    expect(positions.readingCovering('victims_public', 50, 50, generation)).toBe(underWay);
    expect(positions.readingCovering('victims_public', 120, 50, generation)).toBeUndefined();
    positions.clear();
    expect(positions.readingCovering('victims_public', 50, 50, positions.currentGeneration())).toBeUndefined();
    resolve('done');
    await underWay;
  });
});
