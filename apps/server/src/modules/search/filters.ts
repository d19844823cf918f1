import { sql, type SQL } from 'drizzle-orm';
import { UNKNOWN_REGION, type SearchFilters } from '@app/shared';
import { records } from '../../db/schema';

/**
 * The generated search columns of records (migration 0007_search). They are not in the Drizzle schema, so no read of a
 * record carries them; queries name them here.
 */
export const searchColumns = {
  vector: sql.raw('records.search_vector'),
  names: sql.raw('records.search_names'),
  date: sql.raw('records.search_date'),
};

/** Ge'ez punctuation read as spaces, as the indexed text is (the same list as in 0007_search.sql). */
export function normaliseSearchText(text: string): string {
  return text.replace(/[፠፡።፣፤፥፦፧፨]/g, ' ');
}

/** The full-text query of `q`: words, "quoted phrases", `or` and `-excluded`, without stemming. */
export function textQuery(q: string): SQL {
  return sql`websearch_to_tsquery('simple', ${normaliseSearchText(q)})`;
}

export interface Visibility {
  /** Signed-in readers also see non-public records; anonymous readers see live, public records only. */
  includePrivate: boolean;
}

/**
 * The conditions of the filters (without `q`, whose matching belongs to each reader of the collection) and of who is
 * reading. Every reader of the collection (search, facets, statistics, map, export) starts from these, so none of them
 * can show an anonymous visitor a private or trashed record, or count one.
 */
export function filterConditions(filters: Omit<SearchFilters, 'q'>, { includePrivate }: Visibility): SQL[] {
  const where: SQL[] = [sql`${records.deletedAt} is null`];
  if (!includePrivate) where.push(sql`${records.public}`);
  if (filters.category) where.push(sql`${records.category} in (${sql.join(filters.category.map((c) => sql`${c}`), sql`, `)})`);
  if (filters.region) {
    const known = filters.region.filter((r) => r !== UNKNOWN_REGION);
    const either: SQL[] = [];
    if (known.length) either.push(sql`${records.region} in (${sql.join(known.map((r) => sql`${r}`), sql`, `)})`);
    if (known.length !== filters.region.length) either.push(sql`${records.region} is null`);
    where.push(sql`(${sql.join(either, sql` or `)})`);
  }
  if (filters.victimizer) where.push(sql`${records.victimizer} in (${sql.join(filters.victimizer.map((v) => sql`${v}`), sql`, `)})`);
  if (filters.killingType) where.push(sql`${records.killingType} in (${sql.join(filters.killingType.map((v) => sql`${v}`), sql`, `)})`);
  if (filters.from) where.push(sql`${searchColumns.date} >= ${`${filters.from}T00:00:00Z`}::timestamptz`);
  if (filters.to) where.push(sql`${searchColumns.date} < (${`${filters.to}T00:00:00Z`}::timestamptz + interval '1 day')`);
  if (filters.confirmed) where.push(filters.confirmed === 'true' ? sql`${records.approved}` : sql`not ${records.approved}`);
  return where;
}
