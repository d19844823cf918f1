import { sql } from 'drizzle-orm';
import { SEARCH_LIMIT_DEFAULT, type SearchFacet, type SearchOrder } from '@app/shared';
import { preparedSqlRows, rowsOf, type Db } from '../../db';
import { records } from '../../db/schema';
import type { Visibility } from '../collection/filters';
import { FACET_COLUMNS, FACET_COUNTS, facetsFrom } from './facets';
import { and, cursorAfter, matchConditions, snippetTextOf, type WordMatch } from './match';
import { snippetsOfHits, type SnippetCache } from './snippet-cache';
import type { SearchInput, SearchPage } from './types';

/**
 * How close a name must be to the words searched for (pg_trgm's word_similarity: the share of the words' trigrams
 * found in one stretch of the name). pg_trgm's default, 0.6, misses one wrong letter in a five-letter name (0.5);
 * much lower and unrelated names start to match.
 */
const NAME_SIMILARITY = 0.5;

/** A hit as the statement returns it: its position (rank or date, then id) and the text of its snippet. */
interface PageRow {
  id: string;
  rank: number | string;
  createdAt: string;
  text: string | null;
}

const MATCHED = { rank: sql`m.rank`, createdAt: sql`m.created_at`, id: sql`m.id` };

/**
 * Every match counted, per facet, ranked and paged in one statement (the matches are found once). With `bound`, at most
 * that many matches are read: null when there are more (the caller estimates instead), so the work stays bounded.
 * `plan`: 'generic' when the words are known to be rare (their statistics): the index finds them whatever the words, so
 * one plan serves every search; unknown or maybe common, a common word may be read faster in the table's order.
 */
export async function exactSearch(
  db: Db,
  input: SearchInput,
  visibility: Visibility,
  match: WordMatch,
  bound: number | null = null,
  snippets?: SnippetCache,
  plan: 'chosen' | 'generic' = 'chosen',
): Promise<SearchPage | null> {
  const { filters, cursor, limit = SEARCH_LIMIT_DEFAULT } = input;
  const generation = snippets?.current() ?? 0;
  const conditions = matchConditions(filters, visibility, match);
  // A date cursor on a search with words is a page of a search that had many matches: it goes on newest first.
  const order: SearchOrder = cursor && 'createdAt' in cursor ? 'newest' : 'relevance';
  const orderBy = order === 'relevance' ? sql`m.rank desc, m.id desc` : sql`m.created_at desc, m.id desc`;
  const statement = sql`
    with m as materialized (
      select ${records.id} as id, ${records.createdAt} as created_at, ${conditions.rank} as rank, ${FACET_COLUMNS}
      from ${records} where ${and(conditions.indexed)} ${bound === null ? sql`` : sql`limit ${bound + 1}`}
    )
    select
      (select count(*)::int from m) as total,
      (select coalesce(json_agg(json_build_object('id', p.id, 'rank', p.rank, 'createdAt', p.created_at, 'text', ${snippetTextOf(conditions)}) order by p.ord), '[]'::json)
        from (select m.id, m.rank, m.created_at, row_number() over (order by ${orderBy}) as ord from m
              where ${cursorAfter(cursor, MATCHED)} order by ${orderBy} limit ${limit + 1}) p
        join ${records} on ${records.id} = p.id
        where ${bound === null ? sql`true` : sql`(select count(*) from m) <= ${bound}`}) as page,
      (${FACET_COUNTS(sql`m`)}) as facets`;

  type Row = { total: number; page: PageRow[]; facets: [SearchFacet, string, number][] };
  const [row] =
    match === 'names'
      ? await db.transaction(async (tx) => {
          // Local to this transaction: the threshold of the name operator (<%) for this search only.
          await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(NAME_SIMILARITY)}, true)`);
          return rowsOf<Row>(tx, statement);
        })
      : await preparedSqlRows<Row>(db, statement, plan);
  if (!row) throw new Error('search: no row');
  if (bound !== null && row.total > bound) return null;
  const last = row.page[limit - 1];
  const shown = row.page.slice(0, limit);
  const cut = snippetsOfHits(shown, filters.q, snippets, generation);
  return {
    total: row.total,
    estimated: false,
    order,
    hits: shown.map((hit, i) => ({ id: hit.id, snippet: cut[i]! })),
    facets: facetsFrom(row.facets),
    nextCursor: row.page.length > limit && last ? (order === 'relevance' ? { rank: String(last.rank), id: last.id } : { createdAt: last.createdAt, id: last.id }) : null,
  };
}
