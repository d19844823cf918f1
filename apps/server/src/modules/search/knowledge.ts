import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { SearchFilters } from '@app/shared';
import { preparedSqlRows, type Db } from '../../db';
import { STATS_VALUE_MAX } from '../../db/registry-sql';
import { dimensionFilters, type Visibility } from '../collection/filters';
import { statisticsRows } from '../collection/stats-rows';
import { SnippetCache } from './snippet-cache';
import { queryShare, WordFrequencies } from './word-frequencies';

/** How many records a search is expected to find before it looks: bounds, and the part of all records they are. */
export interface Expected {
  low: number;
  high: number;
  /** The records the search could find (its filters, but words and dates), out of... */
  filtered: number;
  /** ...the records in the table. */
  records: number;
}

/**
 * What a search knows before it runs, so that it can choose its way without counting: how common its words are
 * (PostgreSQL's statistics, word-frequencies.ts) and how many records its filters leave (record_stats, the counts the
 * statistics read, kept a few seconds per filter set: a burst of searches with the same filters reads them once).
 * It also keeps the snippets it cut lately (snippet-cache.ts), forgotten with the counts.
 */
export class SearchKnowledge {
  readonly words: WordFrequencies;
  readonly snippets = new SnippetCache();
  private readonly filtered = new LRUCache<string, Promise<number>>({ max: 1000, ttl: 10_000 });

  constructor(private readonly db: Db) {
    this.words = new WordFrequencies(db);
  }

  /** The matches expected of a search with words, or null when the words' statistics are not known yet. */
  async expected(filters: SearchFilters, visibility: Visibility): Promise<Expected | null> {
    void this.words.refresh();
    // record_stats keeps no incident: with one, nothing is known beforehand.
    if (!filters.q || !this.words.recordCount || filters.incident) return null;
    const share = queryShare(filters.q, (lexeme) => this.words.share(lexeme));
    const filtered = await this.filteredCount(filters, visibility);
    return { low: filtered * share.low, high: filtered * share.high, filtered, records: this.words.recordCount };
  }

  /**
   * Whether the filters leave no record to search (so that no words can find one): record_stats counts none. Not known
   * with an incident (record_stats keeps none) or a value longer than record_stats keeps (it cannot tell it apart).
   */
  async leavesNone(filters: SearchFilters, visibility: Visibility): Promise<boolean> {
    if (filters.incident || dimensionFilters(filters).some((d) => d.values.some((v) => v.length > STATS_VALUE_MAX))) return false;
    return (await this.filteredCount(filters, visibility)) === 0;
  }

  /** Forgets the counts of the filters and the snippets: records changed (the search plugin calls it as the response cache is cleared). */
  forget(): void {
    this.filtered.clear();
    this.snippets.forget();
  }

  /** The records that the filters but the words and dates leave (dates only narrow it: an upper bound). */
  private filteredCount(filters: SearchFilters, visibility: Visibility): Promise<number> {
    const { q: _q, from: _from, to: _to, ...rest } = filters;
    const key = JSON.stringify([rest, visibility.includePrivate]);
    let count = this.filtered.get(key);
    if (!count) {
      const { rows } = statisticsRows({ ...rest, q: undefined, from: undefined, to: undefined }, visibility);
      count = preparedSqlRows<{ n: number }>(this.db, sql`select coalesce(sum(n), 0)::float8 as n from (${rows}) as counted`, 'generic').then(([row]) => Number(row?.n ?? 0));
      void count.catch(() => this.filtered.delete(key));
      this.filtered.set(key, count);
    }
    return count;
  }
}
