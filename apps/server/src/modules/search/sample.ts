import { sql, type SQL } from 'drizzle-orm';
import type { FacetCount, SearchFacet } from '@app/shared';
import { preparedSqlRows, type Db } from '../../db';
import { SEARCH_SAMPLE_DIVISORS, searchSamplePredicate } from '../../db/registry-sql';
import { records } from '../../db/schema';
import { estimate, FACET_COLUMNS, FACET_COUNTS, facetsFrom, type FacetRow } from './facets';
import { and } from './match';

/**
 * The parts of the records a search can count its matches in when they are many: every record, and the records whose
 * id hashes to 0 modulo 8, 64 and 512. Each of the three has a GIN index of its own over search_vector (partial, over
 * those records only: db/registry-sql.ts), so matching words and filters there reads 8, 64 or 512 times less, and the
 * records found are a fair sample of every record, whatever the words.
 */
const SAMPLE_DIVISORS = [1, ...SEARCH_SAMPLE_DIVISORS] as const;

/** The condition that picks the records of the part `1/divisor`: the partial index's own expression. */
function sampleCondition(divisor: number): SQL | null {
  return divisor === 1 ? null : sql.raw(searchSamplePredicate(divisor, 'records.id'));
}

export interface Counted {
  total: number;
  /** Counted in a part of the records, and scaled: an estimate. */
  estimated: boolean;
  facets: Record<SearchFacet, FacetCount[]>;
}

/**
 * The total and the facet counts of the records matching `indexed`, counted in the smallest part of the records that
 * holds at most `maxRows` matches (every record when few match), scaled to the whole. `expected` (the matches expected,
 * at most) says where to start; a part that holds more than maxRows is left for the next smaller one.
 */
export async function sampleCounts(db: Db, indexed: SQL[], maxRows: number, expected: number | null): Promise<Counted> {
  const fits = expected === null ? 0 : SAMPLE_DIVISORS.findIndex((d) => expected / d <= maxRows);
  for (let level = fits === -1 ? SAMPLE_DIVISORS.length - 1 : fits; ; level++) {
    const divisor = SAMPLE_DIVISORS[level]!;
    const last = level === SAMPLE_DIVISORS.length - 1;
    const part = sampleCondition(divisor);
    const [row] = await preparedSqlRows<{ total: number; facets: FacetRow[] }>(
      db,
      sql`with s as materialized (
          select ${FACET_COLUMNS} from ${records} where ${and(part ? [part, ...indexed] : indexed)} ${last ? sql`` : sql`limit ${maxRows + 1}`}
        )
        select (select count(*)::int from s) as total, (${FACET_COUNTS(sql`s`)}) as facets`,
      // One plan for every word: the part is chosen so that it holds few matches, which its index finds whatever the
      // words. Not known beforehand (no statistics of the words yet, an incident), the part may hold many, and a common
      // word is read faster in the table's order up to the limit than through the index, which the value's plan sees.
      expected === null ? 'chosen' : 'generic',
    );
    if (!row) throw new Error('search: no sample');
    if (row.total > maxRows && !last) continue;
    if (divisor === 1) return { total: row.total, estimated: false, facets: facetsFrom(row.facets) };
    return { total: row.total === 0 ? 0 : estimate(row.total * divisor), estimated: true, facets: facetsFrom(row.facets, divisor) };
  }
}
