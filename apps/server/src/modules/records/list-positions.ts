import { GuardedReads } from '../cache/guarded-reads';
import { DEFAULT_MAX_AGE_MS } from '../cache/response-cache';
import type { Cursor } from './paging';

/**
 * Entries kept per list. Past it the runs farthest from the one being added are dropped. An entry takes about 150 bytes
 * (its id, its instant and their object), so a list keeps at most about 300 KB, and the twenty lists (ten, public and
 * signed-in) 6 MB if crawlers page deep into every one of them. Someone paging on needs only the next 150 or so.
 */
const MAX_PER_LIST = 2048;

/** Consecutive positions of a list, from `start` on, as pages read them. */
interface Run {
  start: number;
  entries: Cursor[];
}

const endOf = (run: Run) => run.start + run.entries.length;

/**
 * Where records stood in each list (category and visibility) when pages were last read: runs of consecutive positions,
 * each position's (createdAt, id).
 * - A numbered page whose every position is known, with the list's total, is answered without a statement. Someone
 *   paging on (a reader, a crawler) reads each page with the ids of the next entries (listPage's `readAhead`), so the
 *   pages after it cost no round trip to the database while nothing changes.
 * - A numbered page deep in a list (`offset=20000`) starts from the nearest position known before it, as a keyset page
 *   skipping only the few entries in between, instead of walking every entry the offset skips (docs/performance.md).
 * Any change of records moves positions, so they are cleared with the serialised records (GuardedReads keeps what a
 * read started before a change from being stored after it).
 */
export class ListPositions {
  /** Each list's runs, sorted by start, neither overlapping nor touching (touching runs are merged). */
  private readonly lists = new Map<string, Run[]>();
  /**
   * Each list's total as last read. A numbered page at or past it is empty, and is answered without a statement: the
   * walk that finds nothing there goes through the whole list, so each new offset past the end cost PostgreSQL more
   * than any page inside the list.
   */
  private readonly totals = new Map<string, number>();
  /** The reads under way, each with the positions of its list it will make known (from `start` to before `end`). */
  private readonly reads = new GuardedReads<{ list: string; start: number; end: number }>();
  /** When the current generation started: past `maxAgeMs` everything known is forgotten (see `fresh`). */
  private since = Date.now();

  /** `maxAgeMs`: the longest a position is used (CACHE_MAX_AGE_SECONDS), even if no change reaches this process. */
  constructor(private readonly maxAgeMs = DEFAULT_MAX_AGE_MS) {}

  currentGeneration(): number {
    this.fresh();
    return this.reads.current();
  }

  /** Clears what was learnt more than `maxAgeMs` ago (all of it: positions are learnt together and move together). */
  private fresh(): void {
    if (Date.now() - this.since > this.maxAgeMs) this.clear();
  }

  /** The known position nearest before `offset` in `list`, with the number of entries between it and `offset`. */
  nearestBefore(list: string, offset: number): { cursor: Cursor; skip: number } | null {
    this.fresh();
    const runs = this.lists.get(list);
    if (!runs || offset <= 0) return null;
    const i = lastStartingBefore(runs, offset);
    if (i < 0) return null;
    const run = runs[i]!;
    const position = Math.min(offset - 1, endOf(run) - 1);
    return { cursor: run.entries[position - run.start]!, skip: offset - position - 1 };
  }

  /** The entries at positions `offset` to `offset + count - 1` of `list`, when every one of them is known. */
  entriesAt(list: string, offset: number, count: number): Cursor[] | null {
    const entries = this.entriesFrom(list, offset, count);
    return entries.length === count ? entries : null;
  }

  /** The known entries from position `offset` on, at most `count`, up to the first position not known. */
  entriesFrom(list: string, offset: number, count: number): Cursor[] {
    this.fresh();
    const runs = this.lists.get(list);
    const i = runs ? lastStartingBefore(runs, offset + 1) : -1;
    if (i < 0 || count <= 0) return [];
    const run = runs![i]!;
    return run.entries.slice(offset - run.start, offset - run.start + count);
  }

  /** Remembers where a numbered page's entries (and those read past it) stand, read under `generation`. */
  remember(list: string, offset: number, entries: readonly Cursor[], generation: number): void {
    if (!this.reads.isCurrent(generation) || !entries.length) return;
    const runs = this.lists.get(list) ?? [];
    const added: Run = { start: offset, entries: [...entries] };
    // The runs the new one overlaps or touches are merged into it; the others stay as they are.
    const first = runs.findIndex((run) => endOf(run) >= added.start);
    let last = first < 0 ? -1 : first - 1;
    if (first >= 0) while (last + 1 < runs.length && runs[last + 1]!.start <= endOf(added)) last++;
    const from = first < 0 ? runs.length : first;
    if (last >= from) {
      const before = runs[from]!;
      const after = runs[last]!;
      if (before.start < added.start) added.entries = [...before.entries.slice(0, added.start - before.start), ...added.entries];
      if (endOf(after) > offset + entries.length) added.entries.push(...after.entries.slice(offset + entries.length - after.start));
      added.start = Math.min(added.start, before.start);
    }
    runs.splice(from, Math.max(0, last - from + 1), added);
    this.bound(runs, added, offset + entries.length);
    this.lists.set(list, runs);
  }

  /** A read of `list` under way in this generation that will make positions `offset` to `offset + count - 1` known. */
  readingCovering(list: string, offset: number, count: number, generation: number): Promise<unknown> | undefined {
    return this.reads.find((r) => r.list === list && r.start <= offset && offset + count <= r.end, generation);
  }

  /** Runs `read`, known as the read of positions `start` to before `end` of `list` until it settles. */
  readPositions<T>(list: string, start: number, end: number, read: () => Promise<T>, generation: number): Promise<T> {
    return this.reads.run({ list, start, end }, read, undefined, generation);
  }

  /** Remembers the total of `list` (read under `generation`). */
  rememberTotal(list: string, total: number, generation: number): void {
    if (this.reads.isCurrent(generation)) this.totals.set(list, total);
  }

  /** The total of `list` read since the last change, if any. */
  totalOf(list: string): number | undefined {
    this.fresh();
    return this.totals.get(list);
  }

  clear(): void {
    this.reads.advance();
    this.since = Date.now();
    this.lists.clear();
    this.totals.clear();
  }

  /**
   * Drops the runs farthest from `kept` while the list holds more than MAX_PER_LIST entries. Past that, `kept` (merged
   * with what it touched) keeps the entries before `keptEnd`, the end of what was just read: readers page on from there.
   */
  private bound(runs: Run[], kept: Run, keptEnd: number): void {
    let size = runs.reduce((sum, run) => sum + run.entries.length, 0);
    while (size > MAX_PER_LIST && runs.length > 1) {
      const farthest = Math.abs(runs[0]!.start - kept.start) > Math.abs(runs.at(-1)!.start - kept.start) ? 0 : runs.length - 1;
      if (runs[farthest] === kept) break;
      size -= runs.splice(farthest, 1)[0]!.entries.length;
    }
    if (size <= MAX_PER_LIST) return;
    const end = Math.min(endOf(kept), Math.max(keptEnd, kept.start + MAX_PER_LIST));
    kept.entries = kept.entries.slice(end - MAX_PER_LIST - kept.start, end - kept.start);
    kept.start = end - MAX_PER_LIST;
  }
}

/** The index of the last run starting before `offset` (binary search), or -1. */
function lastStartingBefore(runs: readonly Run[], offset: number): number {
  let low = 0;
  let high = runs.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (runs[mid]!.start < offset) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}
