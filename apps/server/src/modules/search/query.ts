import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { searchFields, statisticsFields, SEARCH_FACETS, SEARCH_LIMIT_DEFAULT, UNKNOWN_REGION, type FacetCount, type SearchFacet, type SearchFilters, type SearchOrder, type SnippetPart } from '@app/shared';
import { rowsOf, type Db } from '../../db';
import { GEEZ_WORD, GEEZ_WORD_SQL, stemWord } from '../../db/amharic';
import { records } from '../../db/schema';
import { statisticsRows } from '../collection/stats-rows';
import type { SearchCursor } from './cursor';
import { facetTermsQuery } from './facet-terms';
import { filterConditions, normaliseSearchText, searchColumns, textQuery, type Visibility } from '../collection/filters';
import { MATCH_END, MATCH_START, snippetParts } from './snippet';

/**
 * How close a name must be to the words searched for (pg_trgm's word_similarity: the share of the words' trigrams
 * found in one stretch of the name). pg_trgm's default, 0.6, misses one wrong letter in a five-letter name (0.5);
 * much lower and unrelated names start to match.
 */
const NAME_SIMILARITY = 0.5;

/**
 * What a search may cost. Counting, ranking and faceting every match costs a visit to every matching record, which for
 * a common word in a large collection is slow (docs/search.md); past `exactUpTo` matches a search answers from bounded
 * work instead.
 */
export interface SearchLimits {
  /** Up to this many matches, every match is counted (per facet too) and ranked. */
  exactUpTo: number;
  /** Past it, the total and the facet counts are estimated from a random sample of about this many records. */
  sampleRows: number;
  /** Records read newest first per step when looking for a page among many matches, and how many steps at most. */
  walkStep: number;
  walkSteps: number;
}

export const SEARCH_LIMITS: SearchLimits = { exactUpTo: 1000, sampleRows: 10_000, walkStep: 5000, walkSteps: 4 };

/** The longest snippet: a few lines of a card. */
const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=28, MinWords=12, ShortWord=1, MaxFragments=2, FragmentDelimiter=" … "`;

/** Ge'ez punctuation read as spaces (as the index reads it), and the highlight markers removed from the record's text. */
const HEADLINE_FROM = '፠፡።፣፤፥፦፧፨' + MATCH_START + MATCH_END;
const HEADLINE_TO = ' '.repeat(9);

/** Seed of the sample: the same search over the same records draws the same sample, so it gives the same answer. */
const SAMPLE_SEED = 7;

interface SearchInput {
  filters: SearchFilters;
  cursor: SearchCursor | null;
  limit?: number;
}

interface SearchPage {
  total: number;
  /** The total and facet counts are estimates from a sample (more than `exactUpTo` records match). */
  estimated: boolean;
  order: SearchOrder;
  hits: { id: string; snippet: SnippetPart[] }[];
  facets: Record<SearchFacet, FacetCount[]>;
  nextCursor: SearchCursor | null;
}

/** How the words are matched: as full text, or (when full text finds nothing) as names with a letter or two wrong. */
type WordMatch = 'text' | 'names';

/** A hit as the page statements return it: its position (rank or date, then id) and its highlighted text. */
interface PageRow {
  id: string;
  rank: number | string;
  createdAt: string;
  headline: string | null;
}

/**
 * One page of search results with the total and the facet counts.
 * - Without words: the counts come from record_stats (trigger-kept counts, as the statistics read them), the page newest
 *   first.
 * - With words, full text first. Up to `exactUpTo` matches, everything is exact and ranked (one statement). Past it, the
 *   counts are estimated from a sample and the page goes newest first: ranking every match of a common word is what
 *   costs a second, and ranks a word found everywhere no better than its date does.
 * - Only when full text finds nothing are the words matched against names and titles by trigram similarity (a name
 *   misspelt by a letter): similarity is slow where many names share a word, so it is the fallback.
 */
export async function searchRecords(db: Db, input: SearchInput, visibility: Visibility, limits: SearchLimits = SEARCH_LIMITS): Promise<SearchPage> {
  const { q } = input.filters;
  if (!q) return browse(db, input, visibility, limits);
  const byText = await searchText(db, input, visibility, limits);
  // Names hold no digits: a case number or a word with digits that full text did not find is not a misspelt name.
  if (byText.total > 0 || /\d/.test(q)) return byText;
  return exactSearch(db, input, visibility, 'names');
}

interface MatchConditions {
  /** The conditions, as each record is tested against them. */
  where: SQL[];
  /**
   * The same conditions with the filters also as terms of the full-text index (facet-terms.ts), for statements whose
   * plan PostgreSQL chooses: words and filters are intersected inside the GIN index.
   */
  indexed: SQL[];
  tsQuery: SQL | null;
  rank: SQL;
}

/** The conditions of the filters and, with words, of the words (as full text or as names). */
function matchConditions(filters: SearchFilters, visibility: Visibility, match: WordMatch | null): MatchConditions {
  const { q, ...rest } = filters;
  const where = filterConditions(rest, visibility);
  const terms = facetTermsQuery(rest);
  if (!q || !match) {
    return { where, indexed: terms ? [...where, sql`${searchColumns.vector} @@ ${terms}`] : where, tsQuery: null, rank: sql`0::real` };
  }
  const tsQuery = textQuery(q);
  if (match === 'text') {
    const indexed = [...where, sql`${searchColumns.vector} @@ ${terms ? sql`(${tsQuery} && ${terms})` : tsQuery}`];
    where.push(sql`${searchColumns.vector} @@ ${tsQuery}`);
    return { where, indexed, tsQuery, rank: sql`ts_rank(${searchColumns.vector}, ${tsQuery})::real` };
  }
  const words = normaliseSearchText(q);
  where.push(sql`${words} <% ${searchColumns.names}`);
  return {
    where,
    indexed: terms ? [...where, sql`${searchColumns.vector} @@ ${terms}`] : where,
    tsQuery,
    rank: sql`word_similarity(${words}, ${searchColumns.names})::real`,
  };
}

/** The text a snippet is cut from: the searchable text but titles and names (the card shows them) and the facets. */
const SNIPPET_FIELDS = searchFields()
  .filter((field) => field.weight !== 'A' && !statisticsFields('dimension').includes(field.name))
  .map((field) => (records as unknown as Record<string, SQLWrapper>)[field.name]!);

/**
 * The highlighted text of a record where the query's words were found (null without words). An Amharic word is found
 * by its stem, which the text does not hold as written: the record's own forms of the stems searched for (its indexed
 * words whose stem is one of them, "የሙከራ" for "ሙከራ") are highlighted too.
 */
function headlineOf(tsQuery: SQL | null, q: string | undefined): SQL {
  if (!tsQuery || !q) return sql`null`;
  const stems = [...new Set(normaliseSearchText(q).match(GEEZ_WORD)?.map(stemWord) ?? [])];
  const query = stems.length
    ? sql`coalesce(${tsQuery} || (select string_agg(quote_literal(l.lexeme), ' | ')::tsquery from unnest(${searchColumns.vector}) as l
        where l.lexeme ~ ${`^${GEEZ_WORD_SQL}$`} and search_stem(l.lexeme) = any(${`{${stems.join(',')}}`}::text[])), ${tsQuery})`
    : tsQuery;
  return sql`ts_headline('simple', translate(concat_ws(' ', ${sql.join(SNIPPET_FIELDS, sql`, `)}), ${HEADLINE_FROM}, ${HEADLINE_TO}), ${query}, ${HEADLINE_OPTIONS})`;
}

const and = (where: SQL[]) => sql.join(where, sql` and `);

/** The records in the table, as PostgreSQL last counted them (ANALYZE, autovacuum): at least 1, so it can divide. */
const RECORDS_IN_TABLE = sql`(select greatest(reltuples, 1)::float8 from pg_class where oid = 'records'::regclass)`;

function emptyFacets(): Record<SearchFacet, FacetCount[]> {
  return Object.fromEntries(SEARCH_FACETS.map((facet) => [facet, [] as FacetCount[]])) as Record<SearchFacet, FacetCount[]>;
}

/** Facet counts from [facet, value, count] rows: most records first, then by value. */
function facetsFrom(rows: [SearchFacet, string, number][], scale = 1): Record<SearchFacet, FacetCount[]> {
  const facets = emptyFacets();
  for (const [facet, value, count] of rows) facets[facet]?.push({ value, count: scale === 1 ? count : estimate(count * scale) });
  for (const counts of Object.values(facets)) counts.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return facets;
}

/** An estimated count, to two significant digits: the sample says no more. */
export function estimate(value: number): number {
  if (value < 100) return Math.max(1, Math.round(value));
  const unit = 10 ** (Math.floor(Math.log10(value)) - 1);
  return Math.round(value / unit) * unit;
}

/** Counts per facet value of the rows of `source` (columns category, region, victimizer, killing_type, year, confirmed). */
const FACET_COUNTS = (source: SQL) => sql`
  select coalesce(json_agg(json_build_array(f.facet, f.value, f.n)), '[]'::json) from (
    select case when grouping(category) = 0 then 'category' when grouping(region) = 0 then 'region'
                when grouping(victimizer) = 0 then 'victimizer' when grouping(killing_type) = 0 then 'killingType'
                when grouping(year) = 0 then 'year' else 'confirmed' end as facet,
           coalesce(category, region, victimizer, killing_type, year, confirmed) as value, sum(n)::int as n
    from ${source} group by grouping sets ((category), (region), (victimizer), (killing_type), (year), (confirmed))
  ) f where f.value is not null and f.n > 0`;

/** The facet columns of a record, as FACET_COUNTS reads them. */
const FACET_COLUMNS = sql`${records.category} as category, coalesce(${records.region}, ${UNKNOWN_REGION}) as region,
  ${records.victimizer} as victimizer, ${records.killingType} as killing_type, ${records.approved}::text as confirmed,
  extract(year from ${searchColumns.date} at time zone 'UTC')::int::text as year, 1 as n`;

/** After the cursor's position: by rank then id, or by date then id, of the columns given. */
function cursorAfter(cursor: SearchCursor | null, columns: { rank: SQL; createdAt: SQL; id: SQL }): SQL {
  if (cursor && 'rank' in cursor) return sql`(${columns.rank}, ${columns.id}) < (${cursor.rank}::real, ${cursor.id}::uuid)`;
  if (cursor && 'createdAt' in cursor) return sql`(${columns.createdAt}, ${columns.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;
  return sql`true`;
}

/** Newest first, as records_news_idx and the category list indexes hold them (nulls last), so that they are read in order. */
const NEWEST_FIRST = sql`${records.createdAt} desc nulls last, ${records.id} desc nulls last`;

const MATCHED_COLUMNS = { rank: sql`m.rank`, createdAt: sql`m.created_at`, id: sql`m.id` };
const RECORD_COLUMNS = { rank: sql`0`, createdAt: sql`${records.createdAt}`, id: sql`${records.id}` };

function nextCursorOf(rows: PageRow[], limit: number, order: SearchOrder): SearchCursor | null {
  const last = rows[limit - 1];
  if (rows.length <= limit || !last) return null;
  return order === 'relevance' ? { rank: String(last.rank), id: last.id } : { createdAt: last.createdAt, id: last.id };
}

/** Every match counted, per facet, and paged in one statement (the matches are found once). */
async function exactSearch(db: Db, input: SearchInput, visibility: Visibility, match: WordMatch): Promise<SearchPage> {
  const { filters, cursor, limit = SEARCH_LIMIT_DEFAULT } = input;
  const { indexed, tsQuery, rank } = matchConditions(filters, visibility, match);
  // A date cursor on a search with words is a page of a search that had many matches: it goes on newest first.
  const order: SearchOrder = cursor && 'createdAt' in cursor ? 'newest' : 'relevance';
  const orderBy = order === 'relevance' ? sql`m.rank desc, m.id desc` : sql`m.created_at desc, m.id desc`;
  const statement = sql`
    with m as materialized (
      select ${records.id} as id, ${records.createdAt} as created_at, ${rank} as rank, ${FACET_COLUMNS}
      from ${records} where ${and(indexed)}
    )
    select
      (select count(*)::int from m) as total,
      (select coalesce(json_agg(json_build_object('id', p.id, 'rank', p.rank, 'createdAt', p.created_at, 'headline', ${headlineOf(tsQuery, filters.q)}) order by p.ord), '[]'::json)
        from (select m.id, m.rank, m.created_at, row_number() over (order by ${orderBy}) as ord from m
              where ${cursorAfter(cursor, MATCHED_COLUMNS)} order by ${orderBy} limit ${limit + 1}) p
        join ${records} on ${records.id} = p.id) as page,
      (${FACET_COUNTS(sql`m`)}) as facets`;

  type Row = { total: number; page: PageRow[]; facets: [SearchFacet, string, number][] };
  const [row] =
    match === 'names'
      ? await db.transaction(async (tx) => {
          // Local to this transaction: the threshold of the name operator (<%) for this search only.
          await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(NAME_SIMILARITY)}, true)`);
          return rowsOf<Row>(tx, statement);
        })
      : await rowsOf<Row>(db, statement);
  if (!row) throw new Error('search: no row');
  return {
    total: row.total,
    estimated: false,
    order,
    hits: row.page.slice(0, limit).map((hit) => ({ id: hit.id, snippet: snippetParts(hit.headline) })),
    facets: facetsFrom(row.facets),
    nextCursor: nextCursorOf(row.page, limit, order),
  };
}

/** Full-text search: exact up to `exactUpTo` matches, estimated past it. */
async function searchText(db: Db, input: SearchInput, visibility: Visibility, limits: SearchLimits): Promise<SearchPage> {
  const conditions = matchConditions(input.filters, visibility, 'text');
  // A date cursor is a page of a search that had too many matches to rank: it goes on as it began.
  if (!(input.cursor && 'createdAt' in input.cursor)) {
    // Ids only, at most one more than the limit: the records' pages are visited once each, nothing is ranked.
    const [probe] = await rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from (select 1 from ${records} where ${and(conditions.indexed)} limit ${limits.exactUpTo + 1}) as found`,
    );
    if ((probe?.n ?? 0) <= limits.exactUpTo) return exactSearch(db, input, visibility, 'text');
  }
  const [counted, page] = await Promise.all([
    sampleCounts(db, conditions.where, limits),
    newestPage(db, conditions, input, limits, null),
  ]);
  return {
    // At least what the exact count saw before it stopped.
    total: counted.estimated ? Math.max(counted.total, limits.exactUpTo + 1) : counted.total,
    estimated: counted.estimated,
    order: 'newest',
    ...page,
    facets: counted.facets,
  };
}

/**
 * The total and facet counts of the records matching `where`, from a random sample of the table's pages (about
 * `sampleRows` records, seeded): the share of the sampled records that match, times the records in the table. A
 * sample that is the whole table is an exact count.
 */
async function sampleCounts(db: Db, where: SQL[], limits: SearchLimits): Promise<{ total: number; estimated: boolean; facets: Record<SearchFacet, FacetCount[]> }> {
  const [row] = await rowsOf<{ percent: number; records: number; sampled: number; total: number; facets: [SearchFacet, string, number][] }>(
    db,
    sql`with n as materialized (select ${RECORDS_IN_TABLE} as records),
      p as materialized (select records, least(100, 100.0 * ${limits.sampleRows} / records)::float8 as percent from n),
      sampled as materialized (
        select (${and(where)}) as matched, ${FACET_COLUMNS}
        from ${records} tablesample system ((select percent from p)) repeatable (${SAMPLE_SEED})
      ), s as (select * from sampled where matched)
      select (select percent from p) as percent, (select records from p) as records, (select count(*)::int from sampled) as sampled,
        (select count(*)::int from s) as total, (${FACET_COUNTS(sql`s`)}) as facets`,
  );
  if (!row) throw new Error('search: no sample');
  if (row.percent >= 100) return { total: row.total, estimated: false, facets: facetsFrom(row.facets) };
  const scale = row.records / Math.max(1, row.sampled);
  return { total: row.total === 0 ? 0 : estimate(row.total * scale), estimated: true, facets: facetsFrom(row.facets, scale) };
}

/**
 * A page of the records matching `where`, newest first. Where matches are many (`share`: the part of all records that
 * match, known without words; null when the exact count already found more than it ranks), the records are read newest
 * first, a step at a time, and tested: a page among thousands of matches is found in the first steps, and no plan
 * depends on PostgreSQL's guess of how many match. What the steps leave unfound is asked of the planner.
 */
async function newestPage(db: Db, { where, indexed, tsQuery }: MatchConditions, input: SearchInput, limits: SearchLimits, share: number | null): Promise<Pick<SearchPage, 'hits' | 'nextCursor'>> {
  const { cursor, limit = SEARCH_LIMIT_DEFAULT } = input;
  const want = limit + 1;
  const found: Position[] = [];
  let after: SearchCursor | null = cursor && 'createdAt' in cursor ? cursor : null;
  const walk = share === null || share * limits.walkStep * limits.walkSteps >= 2 * want;
  for (let step = 0; walk && step < limits.walkSteps && found.length < want; step++) {
    const from: SQL = after === null ? sql`true` : cursorAfter(after, RECORD_COLUMNS);
    const [row]: WalkRow[] = await rowsOf<WalkRow>(
      db,
      sql`with c as materialized (
          select ${records.id} as id, ${records.createdAt} as created_at, (${and(where)}) as matched
          from ${records} where ${records.deletedAt} is null and ${from}
          order by ${NEWEST_FIRST} limit ${limits.walkStep}
        )
        select
          (select json_agg(json_build_object('id', h.id, 'createdAt', h.created_at) order by h.created_at desc, h.id desc)
            from (select id, created_at from c where matched order by created_at desc, id desc limit ${want - found.length}) h) as hits,
          (select json_build_object('id', id, 'createdAt', created_at) from c order by created_at desc, id desc
            offset ${limits.walkStep - 1} limit 1) as last`,
    );
    found.push(...(row?.hits ?? []));
    // A short step is the end of the records: nothing older is left to find.
    if (!row?.last) return pageOf(db, found, tsQuery, input.filters.q, limit);
    after = { createdAt: row.last.createdAt, id: row.last.id };
  }
  if (found.length < want) {
    const rest = await rowsOf<{ id: string; createdAt: string }>(
      db,
      // As text: the position keeps its microseconds whatever the driver makes of a timestamp.
      sql`select ${records.id} as id, ${records.createdAt}::text as "createdAt" from ${records}
        where ${and(indexed)} and ${cursorAfter(after, RECORD_COLUMNS)}
        order by ${NEWEST_FIRST} limit ${want - found.length}`,
    );
    found.push(...rest);
  }
  return pageOf(db, found, tsQuery, input.filters.q, limit);
}

interface Position {
  id: string;
  createdAt: string;
}

/** A step of the walk: its matches, and its last record (none when the step reached the oldest record). */
interface WalkRow {
  hits: Position[] | null;
  last: Position | null;
}

/** The hits of a page with their highlighted text, and the cursor of the next page. */
async function pageOf(db: Db, found: Position[], tsQuery: SQL | null, q: string | undefined, limit: number): Promise<Pick<SearchPage, 'hits' | 'nextCursor'>> {
  const shown = found.slice(0, limit);
  const headlines = new Map<string, string | null>();
  if (tsQuery && shown.length) {
    const rows = await rowsOf<{ id: string; headline: string | null }>(
      db,
      sql`select ${records.id} as id, ${headlineOf(tsQuery, q)} as headline from ${records}
        where ${records.id} in (${sql.join(shown.map((hit) => sql`${hit.id}::uuid`), sql`, `)})`,
    );
    for (const row of rows) headlines.set(row.id, row.headline);
  }
  const last = shown.at(-1);
  return {
    hits: shown.map((hit) => ({ id: hit.id, snippet: snippetParts(headlines.get(hit.id) ?? null) })),
    nextCursor: found.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null,
  };
}

/**
 * Without words: the total and facet counts from record_stats (exact, a few thousand rows at any size; partial months
 * of a date range are counted live, as the statistics do), and the page newest first.
 */
async function browse(db: Db, input: SearchInput, visibility: Visibility, limits: SearchLimits): Promise<SearchPage> {
  const { filters } = input;
  const { rows } = statisticsRows(filters, visibility);
  const [counted] = await rowsOf<{ total: number; records: number; facets: [SearchFacet, string, number][] }>(
    db,
    sql`with s as materialized (
        select category, case when region = '' then ${UNKNOWN_REGION} else region end as region,
          nullif(victimizer, '') as victimizer, nullif(killing_type, '') as killing_type, confirmed::text as confirmed,
          nullif(left(month, 4), '') as year, n
        from (${rows}) as counted
      )
      select (select coalesce(sum(n), 0)::int from s) as total,
        ${RECORDS_IN_TABLE} as records,
        (${FACET_COUNTS(sql`s`)}) as facets`,
  );
  if (!counted) throw new Error('search: no counts');
  const page = await newestPage(db, matchConditions(filters, visibility, null), input, limits, counted.total / counted.records);
  return { total: counted.total, estimated: false, order: 'newest', ...page, facets: facetsFrom(counted.facets) };
}
