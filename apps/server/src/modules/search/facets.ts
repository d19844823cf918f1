import { sql, type SQL } from 'drizzle-orm';
import { SEARCH_FACETS, UNKNOWN_REGION, type FacetCount, type SearchFacet } from '@app/shared';
import { records } from '../../db/schema';
import { searchColumns } from '../collection/filters';

/** [facet, value, count] rows, as FACET_COUNTS returns them. */
export type FacetRow = [SearchFacet, string, number];

export function emptyFacets(): Record<SearchFacet, FacetCount[]> {
  return Object.fromEntries(SEARCH_FACETS.map((facet) => [facet, [] as FacetCount[]])) as Record<SearchFacet, FacetCount[]>;
}

/** Facet counts from rows: most records first, then by value; scaled (and rounded as estimates) when `scale` is not 1. */
export function facetsFrom(rows: FacetRow[], scale = 1): Record<SearchFacet, FacetCount[]> {
  const facets = emptyFacets();
  for (const [facet, value, count] of rows) facets[facet]?.push({ value, count: scale === 1 ? count : estimate(count * scale) });
  for (const counts of Object.values(facets)) counts.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return facets;
}

/** An estimated count, to two significant digits: a sample says no more. */
export function estimate(value: number): number {
  if (value < 100) return Math.max(1, Math.round(value));
  const unit = 10 ** (Math.floor(Math.log10(value)) - 1);
  return Math.round(value / unit) * unit;
}

/** Counts per facet value of the rows of `source` (columns category, region, victimizer, killing_type, year, confirmed, n). */
export const FACET_COUNTS = (source: SQL) => sql`
  select coalesce(json_agg(json_build_array(f.facet, f.value, f.n)), '[]'::json) from (
    select case when grouping(category) = 0 then 'category' when grouping(region) = 0 then 'region'
                when grouping(victimizer) = 0 then 'victimizer' when grouping(killing_type) = 0 then 'killingType'
                when grouping(year) = 0 then 'year' else 'confirmed' end as facet,
           coalesce(category, region, victimizer, killing_type, year, confirmed) as value, sum(n)::int as n
    from ${source} group by grouping sets ((category), (region), (victimizer), (killing_type), (year), (confirmed))
  ) f where f.value is not null and f.n > 0`;

/** The facet columns of a record, as FACET_COUNTS reads them. */
export const FACET_COLUMNS = sql`${records.category} as category, coalesce(${records.region}, ${UNKNOWN_REGION}) as region,
  ${records.victimizer} as victimizer, ${records.killingType} as killing_type, ${records.approved}::text as confirmed,
  extract(year from ${searchColumns.date} at time zone 'UTC')::int::text as year, 1 as n`;
