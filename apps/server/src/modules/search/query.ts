import { sql, type SQL } from 'drizzle-orm';
import { SEARCH_FACETS, SEARCH_LIMIT_DEFAULT, UNKNOWN_REGION, type FacetCount, type SearchFacet, type SearchFilters, type SnippetPart } from '@app/shared';
import { rowsOf, type Db } from '../../db';
import { records } from '../../db/schema';
import type { SearchCursor } from './cursor';
import { filterConditions, normaliseSearchText, searchColumns, textQuery, type Visibility } from './filters';
import { MATCH_END, MATCH_START, snippetParts } from './snippet';

/**
 * How close a name must be to the words searched for (pg_trgm's word_similarity: the share of the words' trigrams
 * found in one stretch of the name). pg_trgm's default, 0.6, misses one wrong letter in a five-letter name (0.5);
 * much lower and unrelated names start to match.
 */
const NAME_SIMILARITY = 0.5;

/** The longest snippet: a few lines of a card. */
const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=28, MinWords=12, ShortWord=1, MaxFragments=2, FragmentDelimiter=" … "`;

/** Ge'ez punctuation read as spaces (as the index reads it), and the highlight markers removed from the record's text. */
const HEADLINE_FROM = '፠፡።፣፤፥፦፧፨' + MATCH_START + MATCH_END;
const HEADLINE_TO = ' '.repeat(9);

interface SearchInput {
  filters: SearchFilters;
  cursor: SearchCursor | null;
  limit?: number;
}

interface SearchPage {
  total: number;
  hits: { id: string; snippet: SnippetPart[] }[];
  facets: Record<SearchFacet, FacetCount[]>;
  nextCursor: SearchCursor | null;
}

interface Row {
  total: number;
  page: { id: string; rank: number | string; createdAt: string; headline: string | null }[];
  facets: [SearchFacet, string, number][];
}

/** How the words are matched: as full text, or (when full text finds nothing) as names with a letter or two wrong. */
type WordMatch = 'text' | 'names';

/**
 * One page of search results with the total and the facet counts: the records that match (the filters, who is
 * reading, and the words) are found once, then counted, counted per facet value, and paged, in one statement. Words
 * are matched as full text; only when that finds nothing are they matched against names and titles by trigram
 * similarity (a name misspelt by a letter). Similarity is slow where many names share a word, and ranking every
 * full-text match by it too cost a second per search at 100k records, so it is the fallback, not a second branch of
 * every search. Facet counts are those of the records found, every filter applied.
 */
export async function searchRecords(db: Db, input: SearchInput, visibility: Visibility): Promise<SearchPage> {
  if (!input.filters.q) return searchWith(db, input, visibility, null);
  const byText = await searchWith(db, input, visibility, 'text');
  // Names hold no digits: a case number or a word with digits that full text did not find is not a misspelt name.
  if (byText.total > 0 || /\d/.test(input.filters.q)) return byText;
  return searchWith(db, input, visibility, 'names');
}

async function searchWith(db: Db, { filters, cursor, limit = SEARCH_LIMIT_DEFAULT }: SearchInput, visibility: Visibility, match: WordMatch | null): Promise<SearchPage> {
  const { q, ...rest } = filters;
  const where = filterConditions(rest, visibility);
  let rank: SQL = sql`0::real`;
  let tsQuery: SQL | null = null;
  if (q && match) {
    tsQuery = textQuery(q);
    const words = normaliseSearchText(q);
    if (match === 'text') {
      where.push(sql`${searchColumns.vector} @@ ${tsQuery}`);
      rank = sql`ts_rank(${searchColumns.vector}, ${tsQuery})::real`;
    } else {
      where.push(sql`${words} <% ${searchColumns.names}`);
      rank = sql`word_similarity(${words}, ${searchColumns.names})::real`;
    }
  }
  const ranked = tsQuery !== null;
  const order = ranked ? sql`m.rank desc, m.id desc` : sql`m.created_at desc, m.id desc`;
  let after = sql`true`;
  if (cursor && 'rank' in cursor) after = sql`(m.rank, m.id) < (${cursor.rank}::real, ${cursor.id}::uuid)`;
  if (cursor && 'createdAt' in cursor) after = sql`(m.created_at, m.id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;
  const headline = tsQuery
    ? sql`ts_headline('simple', translate(concat_ws(' ', ${records.subtitle}, ${records.location}, ${records.shortDescription},
        ${records.description}, ${records.remark}), ${HEADLINE_FROM}, ${HEADLINE_TO}), ${tsQuery}, ${HEADLINE_OPTIONS})`
    : sql`null`;

  const statement = sql`
    with m as materialized (
      select ${records.id} as id, ${records.createdAt} as created_at, ${records.category} as category,
        coalesce(${records.region}, ${UNKNOWN_REGION}) as region, ${records.victimizer} as victimizer,
        ${records.killingType} as killing_type, ${records.approved}::text as confirmed,
        extract(year from ${searchColumns.date} at time zone 'UTC')::int::text as year, ${rank} as rank
      from ${records}
      where ${sql.join(where, sql` and `)}
    )
    select
      (select count(*)::int from m) as total,
      (select coalesce(json_agg(json_build_object('id', p.id, 'rank', p.rank, 'createdAt', p.created_at, 'headline', ${headline}) order by p.ord), '[]'::json)
        from (select m.*, row_number() over (order by ${order}) as ord from m where ${after} order by ${order} limit ${limit + 1}) p
        join ${records} on ${records.id} = p.id) as page,
      (select coalesce(json_agg(json_build_array(f.facet, f.value, f.n) order by f.facet, f.n desc, f.value), '[]'::json) from (
        select case when grouping(category) = 0 then 'category' when grouping(region) = 0 then 'region'
                    when grouping(victimizer) = 0 then 'victimizer' when grouping(killing_type) = 0 then 'killingType'
                    when grouping(year) = 0 then 'year' else 'confirmed' end as facet,
               coalesce(category, region, victimizer, killing_type, year, confirmed) as value, count(*)::int as n
        from m group by grouping sets ((category), (region), (victimizer), (killing_type), (year), (confirmed))
      ) f where f.value is not null) as facets`;

  const [row] = match === 'names'
    ? await db.transaction(async (tx) => {
        // Local to this transaction: the threshold of the name operator (<%) for this search only.
        await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(NAME_SIMILARITY)}, true)`);
        return rowsOf<Row>(tx, statement);
      })
    : await rowsOf<Row>(db, statement);
  if (!row) throw new Error('search: no row');

  const page = row.page.slice(0, limit);
  const last = page.at(-1);
  const facets = Object.fromEntries(SEARCH_FACETS.map((facet) => [facet, [] as FacetCount[]])) as Record<SearchFacet, FacetCount[]>;
  for (const [facet, value, count] of row.facets) facets[facet]?.push({ value, count });
  return {
    total: row.total,
    hits: page.map((hit) => ({ id: hit.id, snippet: snippetParts(hit.headline) })),
    facets,
    nextCursor:
      row.page.length > limit && last ? (ranked ? { rank: String(last.rank), id: last.id } : { createdAt: last.createdAt, id: last.id }) : null,
  };
}
