import { z } from 'zod';
import { CATEGORY_LIST } from './categories/registry';
import { CATEGORY_SLUGS, type CategorySlug } from './categories/types';
import { GEO_PRECISIONS } from './geo';

/**
 * Incidents on the map (issue 39 item 5): the massacres and events that carry coordinates, each where the public may
 * see it (rounded to the precision an editor chose, geo.ts), whoever reads: a map is shared and copied, so it never
 * shows an exact place that the record's own page would round.
 */

/** The categories whose records may carry coordinates (a `coordinate` field), in registry order. */
export const MAP_POINT_CATEGORIES: readonly CategorySlug[] = CATEGORY_LIST.filter((c) => c.fields.some((f) => f.kind === 'coordinate')).map((c) => c.slug);

/** The most points one answer carries, newest incidents first (the rest are counted in `total`). */
export const MAP_POINTS_MAX = 500;

export const mapPointSchema = z.object({
  _id: z.string(),
  category: z.enum(CATEGORY_SLUGS),
  title: z.string(),
  /** The incident's day (happened on, or an event's start), YYYY-MM-DD in UTC; null when not recorded. */
  date: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  /** How exactly the point is given (a record saved without one is rounded, and named, as a region). */
  geoPrecision: z.enum(GEO_PRECISIONS),
  region: z.string().nullable(),
  /** The place as written: a massacre's location, an event's city. */
  location: z.string().nullable(),
  zone: z.string().nullable(),
  woreda: z.string().nullable(),
  approved: z.boolean(),
});
export type MapPoint = z.infer<typeof mapPointSchema>;

export const mapPointsResponseSchema = z.object({
  /** At most MAP_POINTS_MAX, newest incident first. */
  points: z.array(mapPointSchema),
  /** Every incident with coordinates that matches the filters and that the reader may read. */
  total: z.number().int(),
});
export type MapPointsResponse = z.infer<typeof mapPointsResponseSchema>;
