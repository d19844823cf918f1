import { sql } from 'drizzle-orm';
import { UNKNOWN_REGION } from '@app/shared';
import { preparedSqlRows, type Db } from '../../db';
import type { Visibility } from '../collection/filters';
import { statisticsRows } from '../collection/stats-rows';
import { exactSearch } from './exact';
import { emptyFacets, estimate, FACET_COUNTS, facetsFrom, type FacetRow } from './facets';
import type { Expected, SearchKnowledge } from './knowledge';
import { matchConditions } from './match';
import { newestPage } from './newest';
import { sampleCounts, type Counted } from './sample';
import type { SearchInput, SearchLimits, SearchPage } from './types';

export type { SearchLimits } from './types';
export { estimate } from './facets';

export const SEARCH_LIMITS: SearchLimits = { exactUpTo: 1000, sampleRows: 2000, walkStep: 5000, walkSteps: 4 };

/** Expected matches at least this many times exactUpTo: estimated without first trying to count them. */
const SURELY_MANY = 1.25;

/**
 * One page of search results with the total and the facet counts.
 * - Without words: the counts come from record_stats (trigger-kept counts, as the statistics read them), the page newest
 *   first.
 * - With words, full text first. Up to `exactUpTo` matches, everything is exact and ranked (one statement, which stops
 *   reading past the limit). Past it, the counts are estimated in a hashed part of the records (sample.ts) and the page
 *   goes newest first: ranking every match of a common word is what costs a second, and ranks a word found everywhere
 *   no better than its date does. What a search knows beforehand (`knowledge`: how common its words are, how many
 *   records its filters leave) lets a search that surely has many matches skip the count.
 * - Only when full text finds nothing are the words matched against names and titles by trigram similarity (a name
 *   misspelt by a letter): similarity is slow where many names share a word, so it is the fallback.
 */
export async function searchRecords(db: Db, input: SearchInput, visibility: Visibility, limits: SearchLimits = SEARCH_LIMITS, knowledge?: SearchKnowledge): Promise<SearchPage> {
  const { q } = input.filters;
  if (!q) return browse(db, input, visibility, limits);
  // Filters that leave no record (record_stats says so): nothing to find by text or by name, and nothing to count.
  if (knowledge && (await knowledge.leavesNone(input.filters, visibility))) return nothingFound(input);
  const byText = await searchText(db, input, visibility, limits, knowledge);
  // Names hold no digits: a case number or a word with digits that full text did not find is not a misspelt name.
  if (byText.total > 0 || /\d/.test(q)) return byText;
  return (await exactSearch(db, input, visibility, 'names', null, knowledge?.snippets))!;
}

/**
 * Words in at least this share of the records (PostgreSQL's statistics of the index, word-frequencies.ts) tell almost
 * nothing of where a record is: the counts of the filters alone (record_stats), scaled by the words' share, are the
 * estimate, read without looking at any record. Each count is then off by at most the 5 % of records without the words.
 */
const WORDS_EVERYWHERE = 0.95;

/** The counts of the filters (record_stats) scaled by the share of records holding the words: an estimate. */
async function scaledStatistics(db: Db, filters: SearchInput['filters'], visibility: Visibility, share: number): Promise<Counted> {
  const counted = await statisticsCounts(db, filters, visibility);
  const scaled = (n: number) => (n === 0 ? 0 : estimate(n * share));
  const facets = facetsFrom(counted.facets);
  for (const counts of Object.values(facets)) for (const count of counts) count.count = scaled(count.count);
  return { total: scaled(counted.total), estimated: true, facets };
}

/**
 * Matches in at most this share of the records, surely (the words' statistics): the index finds them, whatever the words,
 * far sooner than reading the table in its order up to the limit would (a hundredth of the records match: a hundred
 * records read per match), so one plan, made once, serves every such search (exact.ts).
 */
const RARE_SHARE = 0.01;

export const surelyRare = (expected: Expected | null): boolean => expected !== null && expected.records > 0 && expected.high <= RARE_SHARE * expected.records;

/** Full-text search: exact up to `exactUpTo` matches, estimated past it. */
async function searchText(db: Db, input: SearchInput, visibility: Visibility, limits: SearchLimits, knowledge?: SearchKnowledge): Promise<SearchPage> {
  const expected = knowledge ? await knowledge.expected(input.filters, visibility) : null;
  // A date cursor is a page of a search that had too many matches to rank: it goes on as it began.
  const goesOnNewest = input.cursor !== null && 'createdAt' in input.cursor;
  if (!goesOnNewest && !(expected && expected.low >= SURELY_MANY * limits.exactUpTo)) {
    const exact = await exactSearch(db, input, visibility, 'text', limits.exactUpTo, knowledge?.snippets, surelyRare(expected) ? 'generic' : 'chosen');
    if (exact) return exact;
  }
  const conditions = matchConditions(input.filters, visibility, 'text');
  const density = expected?.records ? { share: expected.low / expected.records, filtered: expected.filtered / expected.records, records: expected.records } : null;
  const everywhere = expected !== null && expected.filtered > 0 && expected.low / expected.filtered >= WORDS_EVERYWHERE;
  const [counted, page] = await Promise.all([
    everywhere
      ? scaledStatistics(db, input.filters, visibility, expected.low / expected.filtered)
      : sampleCounts(db, conditions.indexed, limits.sampleRows, expected ? Math.max(expected.high, limits.exactUpTo) : null),
    newestPage(db, conditions, input, limits, density, knowledge?.snippets),
  ]);
  if (!goesOnNewest && expected && counted.total <= limits.exactUpTo) {
    // Fewer than the words' statistics said: counted and ranked after all.
    const exact = await exactSearch(db, input, visibility, 'text', limits.exactUpTo, knowledge?.snippets);
    if (exact) return exact;
  }
  return {
    // At least what the exact count saw before it stopped.
    total: counted.estimated ? Math.max(counted.total, limits.exactUpTo + 1) : counted.total,
    estimated: counted.estimated,
    order: 'newest',
    ...page,
    facets: counted.facets,
  };
}

function nothingFound(input: SearchInput): SearchPage {
  const order = input.cursor && 'createdAt' in input.cursor ? 'newest' : 'relevance';
  return { total: 0, estimated: false, order, hits: [], facets: emptyFacets(), nextCursor: null };
}

/**
 * Without words: the total and facet counts from record_stats (exact, a few thousand rows at any size; partial months
 * of a date range are counted live, as the statistics do), and the page newest first.
 */
async function browse(db: Db, input: SearchInput, visibility: Visibility, limits: SearchLimits): Promise<SearchPage> {
  const { filters } = input;
  const counted = await statisticsCounts(db, filters, visibility);
  const share = counted.total / counted.records;
  const page = await newestPage(db, matchConditions(filters, visibility, null), input, limits, { share, filtered: share, records: counted.records });
  return { total: counted.total, estimated: false, order: 'newest', ...page, facets: facetsFrom(counted.facets) };
}

/** The records the filters but the words leave, per facet value, from record_stats; and the records in the table. */
async function statisticsCounts(db: Db, filters: SearchInput['filters'], visibility: Visibility): Promise<{ total: number; records: number; facets: FacetRow[] }> {
  const { rows } = statisticsRows({ ...filters, q: undefined }, visibility);
  const [counted] = await preparedSqlRows<{ total: number; records: number; facets: FacetRow[] }>(
    db,
    sql`with s as materialized (
        select category, case when region = '' then ${UNKNOWN_REGION} else region end as region,
          nullif(victimizer, '') as victimizer, nullif(killing_type, '') as killing_type, confirmed::text as confirmed,
          nullif(left(month, 4), '') as year, n
        from (${rows}) as counted
      )
      select (select coalesce(sum(n), 0)::int from s) as total,
        (select greatest(reltuples, 1)::float8 from pg_class where oid = 'records'::regclass) as records,
        (${FACET_COUNTS(sql`s`)}) as facets`,
    'generic',
  );
  if (!counted) throw new Error('search: no counts');
  return counted;
}
