import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { SearchFilters } from '@app/shared';
import { dimensionFilters } from '../collection/filters';

/**
 * The filters as terms of the full-text index, as db/registry-sql.ts writes them into search_vector:
 * `category=<slug>`, `<dimension>=<region code or unknown>` or `<dimension>=<md5 of the text>` (the field name in
 * lower case: `victimizer=`, `killingtype=`), `confirmed=<true|false>`. Searched together with the words in one query
 * of the GIN index, they let PostgreSQL intersect the lists inside the index instead of reading every record of the
 * broadest filter. The text parser splits on '=', so no typed word is a term; free text is hashed (md5 of its UTF-8
 * bytes, as PostgreSQL's md5 of text in a UTF-8 database).
 */
export function facetTermsQuery(filters: Omit<SearchFilters, 'q'>): SQL | null {
  const groups: string[][] = [];
  if (filters.category) groups.push(filters.category.map((c) => `category=${c}`));
  for (const { field, values, isRegion } of dimensionFilters(filters)) {
    groups.push(values.map((v) => `${field.toLowerCase()}=${isRegion ? v : md5(v)}`));
  }
  if (filters.confirmed) groups.push([`confirmed=${filters.confirmed}`]);
  if (!groups.length) return null;
  // Every term is [a-z0-9=_-]: quoted, it is read as one lexeme by the tsquery input, never as an operator.
  const text = groups.map((terms) => `(${terms.map((term) => `'${term}'`).join(' | ')})`).join(' & ');
  return sql`${text}::tsquery`;
}

function md5(value: string): string {
  return createHash('md5').update(value, 'utf8').digest('hex');
}
