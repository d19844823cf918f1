import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { dataFieldKind, statisticsFields, UNKNOWN_REGION, type SearchFilters } from '@app/shared';
import { stemText } from '../../db/amharic';
import { GEEZ_PUNCTUATION } from '../../db/registry-sql';
import { records } from '../../db/schema';

/**
 * The generated search columns of records (db/registry-sql.ts). They are not in the Drizzle schema, so no read of a
 * record carries them; queries name them here.
 */
export const searchColumns = {
  vector: sql.raw('records.search_vector'),
  names: sql.raw('records.search_names'),
  date: sql.raw('records.search_date'),
};

const PUNCTUATION = new RegExp(`[${GEEZ_PUNCTUATION}]`, 'g');

/** Ge'ez punctuation read as spaces, as the indexed text is. */
export function normaliseSearchText(text: string): string {
  return text.replace(PUNCTUATION, ' ');
}

/**
 * The full-text query of `q`: words, "quoted phrases", `or` and `-excluded`, without stemming but for Amharic, whose
 * words are matched by their stems (db/amharic.ts): the index holds the stem of every Ge'ez word beside the word.
 */
export function textQuery(q: string): SQL {
  return sql`websearch_to_tsquery('simple', ${stemText(normaliseSearchText(q))})`;
}

export interface Visibility {
  /** Signed-in readers also see non-public records; anonymous readers see live, public records only. */
  includePrivate: boolean;
}

/** A filter on a statistics dimension (FieldDef.statistics 'dimension'): its field, column and the values asked for. */
export interface DimensionFilter {
  field: string;
  column: SQLWrapper;
  /** Its column's name, also the name of its column in record_stats. */
  columnName: string;
  values: string[];
  /** A region code, where UNKNOWN_REGION asks for records without one. */
  isRegion: boolean;
}

/** The dimensions (FieldDef.statistics 'dimension'), in registry order, with their columns. */
export const DIMENSIONS = statisticsFields('dimension').map((field) => {
  const column = (records as unknown as Record<string, (SQLWrapper & { name: string }) | undefined>)[field];
  if (!column) throw new Error(`collection: dimension "${field}" has no column in records`);
  return { field, column, columnName: column.name, isRegion: dataFieldKind(field) === 'region' };
});

/** The dimension filters that `filters` sets, in registry order. */
export function dimensionFilters(filters: Omit<SearchFilters, 'q'>): DimensionFilter[] {
  return DIMENSIONS.flatMap((dimension) => {
    const values = (filters as Record<string, unknown>)[dimension.field] as string[] | undefined;
    return values?.length ? [{ ...dimension, values }] : [];
  });
}

export const inList = (column: SQLWrapper, values: readonly string[]) => sql`${column} in (${sql.join(values.map((v) => sql`${v}`), sql`, `)})`;

/**
 * The conditions of the filters (without `q`, whose matching belongs to each reader of the collection) and of who is
 * reading. Every reader of the collection (search, facets, statistics, map, export) starts from these, so none of them
 * can show an anonymous visitor a private or trashed record, or count one.
 */
export function filterConditions(filters: Omit<SearchFilters, 'q'>, { includePrivate }: Visibility): SQL[] {
  const where: SQL[] = [sql`${records.deletedAt} is null`];
  if (!includePrivate) where.push(sql`${records.public}`);
  if (filters.category) where.push(inList(records.category, filters.category));
  for (const { column, values, isRegion } of dimensionFilters(filters)) {
    const known = isRegion ? values.filter((r) => r !== UNKNOWN_REGION) : values;
    const either: SQL[] = [];
    if (known.length) either.push(inList(column, known));
    if (known.length !== values.length) either.push(sql`${column} is null`);
    where.push(either.length === 1 ? either[0]! : sql`(${sql.join(either, sql` or `)})`);
  }
  if (filters.from) where.push(sql`${searchColumns.date} >= ${`${filters.from}T00:00:00Z`}::timestamptz`);
  if (filters.to) where.push(sql`${searchColumns.date} < (${`${filters.to}T00:00:00Z`}::timestamptz + interval '1 day')`);
  if (filters.confirmed) where.push(filters.confirmed === 'true' ? sql`${records.approved}` : sql`not ${records.approved}`);
  // An incident's people, only when the reader may read the incident itself: a private one finds nothing for the public.
  if (filters.incident) {
    where.push(sql`${records.incidentId} = ${filters.incident}::uuid`);
    where.push(sql`exists (select 1 from records i where i.id = ${filters.incident}::uuid and i.deleted_at is null${includePrivate ? sql`` : sql` and i.public`})`);
  }
  return where;
}
