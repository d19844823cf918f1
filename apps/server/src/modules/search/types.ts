import type { FacetCount, SearchFacet, SearchFilters, SearchOrder, SnippetPart } from '@app/shared';
import type { SearchCursor } from './cursor';

export interface SearchInput {
  filters: SearchFilters;
  cursor: SearchCursor | null;
  limit?: number;
}

export interface SearchPage {
  total: number;
  /** The total and facet counts are estimates from a sample (more than `exactUpTo` records match). */
  estimated: boolean;
  order: SearchOrder;
  hits: { id: string; snippet: SnippetPart[] }[];
  facets: Record<SearchFacet, FacetCount[]>;
  nextCursor: SearchCursor | null;
}

/**
 * What a search may cost. Counting, ranking and faceting every match costs a visit to every matching record, which for
 * a common word in a large collection is slow (docs/search.md); past `exactUpTo` matches a search answers from bounded
 * work instead.
 */
export interface SearchLimits {
  /** Up to this many matches, every match is counted (per facet too) and ranked. */
  exactUpTo: number;
  /** Past it, the total and the facet counts are estimated from a sample of about this many matching records at most. */
  sampleRows: number;
  /** Records read newest first per step when looking for a page among many matches (at most), and how many steps. */
  walkStep: number;
  walkSteps: number;
}
