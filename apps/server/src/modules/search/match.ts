import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { searchFields, statisticsFields, type SearchFilters } from '@app/shared';
import { records } from '../../db/schema';
import { filterConditions, normaliseSearchText, searchColumns, textQuery, type Visibility } from '../collection/filters';
import type { SearchCursor } from './cursor';
import { facetTermsQuery } from './facet-terms';

/** How the words are matched: as full text, or (when full text finds nothing) as names with a letter or two wrong. */
export type WordMatch = 'text' | 'names';

export interface MatchConditions {
  /**
   * The filters (but that the record is live), as each record is tested against them: on the columns that
   * records_search_newest_idx holds, so a newest-first walk tests them in the index without reading the records.
   */
  filters: SQL[];
  /** The words, as each record is tested against them (null: no words). */
  words: SQL | null;
  /**
   * The same conditions with the filters also as terms of the full-text index (facet-terms.ts), for statements whose
   * plan PostgreSQL chooses: words and filters are intersected inside the GIN index.
   */
  indexed: SQL[];
  tsQuery: SQL | null;
  rank: SQL;
  /** The words searched for, for highlighting. */
  q?: string;
}

/** The conditions of the filters and, with words, of the words (as full text or as names). */
export function matchConditions(filters: SearchFilters, visibility: Visibility, match: WordMatch | null): MatchConditions {
  const { q, ...rest } = filters;
  const where = filterConditions(rest, visibility);
  // The first condition is that the record is live: the walk reads live records only (the index's own condition).
  const tested = where.slice(1);
  const terms = facetTermsQuery(rest);
  const byTerms = (conditions: SQL[]) => (terms ? [...conditions, sql`${searchColumns.vector} @@ ${terms}`] : conditions);
  if (!q || !match) return { filters: tested, words: null, indexed: byTerms(where), tsQuery: null, rank: sql`0::real` };
  const tsQuery = textQuery(q);
  if (match === 'text') {
    const indexed = [...where, sql`${searchColumns.vector} @@ ${terms ? sql`(${tsQuery} && ${terms})` : tsQuery}`];
    return { filters: tested, words: sql`${searchColumns.vector} @@ ${tsQuery}`, indexed, tsQuery, rank: sql`ts_rank(${searchColumns.vector}, ${tsQuery})::real`, q };
  }
  const normalised = normaliseSearchText(q);
  const words = sql`${normalised} <% ${searchColumns.names}`;
  return { filters: tested, words, indexed: byTerms([...where, words]), tsQuery, rank: sql`word_similarity(${normalised}, ${searchColumns.names})::real`, q };
}

export const and = (where: SQL[]) => sql.join(where, sql` and `);

/** Newest first, as records_news_idx and the category list indexes hold them (nulls last), so that they are read in order. */
export const NEWEST_FIRST = sql`${records.createdAt} desc nulls last, ${records.id} desc nulls last`;

/** After the cursor's position: by rank then id, or by date then id, of the columns given. */
export function cursorAfter(cursor: SearchCursor | null, columns: { rank: SQL; createdAt: SQL; id: SQL }): SQL {
  if (cursor && 'rank' in cursor) return sql`(${columns.rank}, ${columns.id}) < (${cursor.rank}::real, ${cursor.id}::uuid)`;
  if (cursor && 'createdAt' in cursor) return sql`(${columns.createdAt}, ${columns.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;
  return sql`true`;
}

export const RECORD_COLUMNS = { rank: sql`0`, createdAt: sql`${records.createdAt}`, id: sql`${records.id}` };

/** The text a snippet is cut from: the searchable text but titles and names (the card shows them) and the facets. */
const SNIPPET_FIELDS = searchFields()
  .filter((field) => field.weight !== 'A' && !statisticsFields('dimension').includes(field.name))
  .map((field) => (records as unknown as Record<string, SQLWrapper>)[field.name]!);

/** The text of a record (a row of `records`) that its snippet is cut from (snippet.ts), null without words. */
export function snippetTextOf({ q }: Pick<MatchConditions, 'q'>): SQL {
  return q ? sql`concat_ws(' ', ${sql.join(SNIPPET_FIELDS, sql`, `)})` : sql`null`;
}
