import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db';
import { stemText } from '../../db/amharic';
import { normaliseSearchText } from '../collection/filters';

/** A share of the records, as bounds: at least `low`, at most `high` (0 to 1). */
export interface Share {
  low: number;
  high: number;
}

const UNKNOWN: Share = { low: 0, high: 1 };

/**
 * How common each indexed word is, as PostgreSQL's own statistics of records.search_vector say (pg_stats'
 * most_common_elems: the share of records holding each of the most common lexemes, about a thousand of them, and the
 * least share it keeps, which every other word is below). ANALYZE writes them, and autovacuum runs it as records change,
 * so they stay current without a word table kept by every write. A search reads them from memory to know whether its
 * words are common, instead of counting matches to find out.
 */
export class WordFrequencies {
  private shares = new Map<string, number>();
  /** The share of a word PostgreSQL does not list: below the least it lists. Null: no statistics (never analysed). */
  private floor: number | null = null;
  private records = 0;
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly maxAgeMs = 60_000,
  ) {}

  /** The records in the table as PostgreSQL last counted them (0: unknown). */
  get recordCount(): number {
    return this.records;
  }

  /** The share of records holding `lexeme` (a word as the index keeps it). */
  share(lexeme: string): Share {
    if (this.floor === null) return UNKNOWN;
    const share = this.shares.get(lexeme);
    return share === undefined ? { low: 0, high: this.floor } : { low: share, high: share };
  }

  /** Starts a read of the statistics when the last one is older than maxAgeMs; searches go on with what is known. */
  refresh(now = Date.now()): Promise<void> {
    if (this.reading || now - this.readAt < this.maxAgeMs) return this.reading ?? Promise.resolve();
    this.readAt = now;
    this.reading = this.read()
      .catch(() => undefined)
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }

  private async read(): Promise<void> {
    const [row] = await rowsOf<{ elems: string[] | null; freqs: number[] | null; records: number }>(
      this.db,
      sql`select (s.most_common_elems::text)::text[] as elems, s.most_common_elem_freqs::float8[] as freqs,
          (select greatest(reltuples, 0)::float8 from pg_class where oid = 'records'::regclass) as records
        from (select 1) as one left join pg_stats s
          on s.schemaname = current_schema() and s.tablename = 'records' and s.attname = 'search_vector'`,
    );
    this.records = Number(row?.records ?? 0);
    if (!row?.elems || !row.freqs) {
      this.shares = new Map();
      this.floor = null;
      return;
    }
    // Each element's share, then the least and the greatest of them (and maybe the share of nulls).
    this.shares = new Map(row.elems.map((elem, i) => [elem, row.freqs![i]!]));
    this.floor = row.freqs[row.elems.length] ?? 0;
  }
}

/**
 * The share of records that the words of `q` find, as bounds from the share of each word, reading `q` as
 * websearch_to_tsquery does: words and "quoted phrases" must all be found, `or` between two gives either (it binds
 * tighter than the words around it), `-word` leaves it out. Words are split as the index splits them (letters and
 * digits), lower-cased, Amharic words stemmed. The low bound takes words as independent; the high one as always found
 * together. The words of a "quoted phrase" are taken as found together in both bounds: that is what quoting them says,
 * and independence put a phrase of two words each in a seventh of the records at a 49th, so a phrase with thousands of
 * matches was first counted up to the limit, in vain. A phrase whose words seldom meet is then estimated first, finds
 * few in its sample, and is counted and ranked after all (query.ts).
 */
export function queryShare(q: string, shareOf: (lexeme: string) => Share): Share {
  const tokens = stemText(normaliseSearchText(q)).toLowerCase().match(/-?"[^"]*"?|\S+/g) ?? [];
  // Terms that must all hold, each a list of alternatives.
  const groups: Share[][] = [];
  let joinNext = false;
  for (const token of tokens) {
    if (token === 'or') {
      joinNext = groups.length > 0;
      continue;
    }
    const words = token.match(/[\p{L}\p{N}]+/gu) ?? [];
    if (!words.length) continue;
    const shares = words.map(shareOf);
    const phrase = token.startsWith('"') || token.startsWith('-"');
    const high = Math.min(...shares.map((s) => s.high));
    const found = { low: phrase ? Math.min(...shares.map((s) => s.low)) : shares.reduce((p, s) => p * s.low, 1), high };
    const term = token.startsWith('-') ? { low: 1 - found.high, high: 1 - found.low } : found;
    if (joinNext) groups.at(-1)!.push(term);
    else groups.push([term]);
    joinNext = false;
  }
  if (!groups.length) return { low: 0, high: 0 };
  const either = groups.map((terms) => ({ low: Math.max(...terms.map((t) => t.low)), high: Math.min(1, terms.reduce((sum, t) => sum + t.high, 0)) }));
  return { low: either.reduce((p, s) => p * s.low, 1), high: Math.min(...either.map((s) => s.high)) };
}
