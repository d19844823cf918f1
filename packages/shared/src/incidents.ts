import { z } from 'zod';
import { CATEGORY_LIST } from './categories/registry';
import { CATEGORY_SLUGS, type CategoryDef, type CategorySlug, type FieldDef } from './categories/types';

/**
 * People linked to incidents (issue 39 item 1): a victim, missing person, orphan or displacement names the massacre or
 * event it belongs to in its `incident` field, whose FieldDef.linksTo says which categories it may name.
 */

/** The category's field that names its incident, if it has one. */
export function incidentField(category: CategoryDef): FieldDef | undefined {
  return category.fields.find((field) => field.kind === 'incident');
}

/** The categories whose records may name a record of `slug` as their incident, in registry order. */
export function categoriesLinkingTo(slug: CategorySlug): CategoryDef[] {
  return CATEGORY_LIST.filter((category) => incidentField(category)?.linksTo?.includes(slug));
}

/** The categories some record may name as its incident (massacres, events). */
export const INCIDENT_CATEGORIES: readonly CategorySlug[] = [...new Set(CATEGORY_LIST.flatMap((c) => incidentField(c)?.linksTo ?? []))];

export const isIncidentCategory = (slug: string): boolean => (INCIDENT_CATEGORIES as readonly string[]).includes(slug);

/**
 * What a person's JSON says of its incident, as its reader may see it: the incident itself (id, category, title) when
 * the reader may read it; `unavailable` when it was moved to the trash (the link is kept and comes back with it).
 * A reader who may not read the incident (a private one, to an anonymous visitor) is told nothing: `incidentId` is
 * null and `incident` absent, as for a person linked to none.
 */
export const incidentRefSchema = z.union([
  z.object({ _id: z.string(), category: z.enum(CATEGORY_SLUGS), title: z.string(), happenedOn: z.string().nullable(), quantity: z.number().nullable() }),
  z.object({ unavailable: z.literal(true) }),
]);
export type IncidentRef = z.infer<typeof incidentRefSchema>;

/** One answer of GET /{massacres|events}/{id}/people: the linked people, counted per category over every page. */
export interface IncidentPeopleCounts {
  /** People of each category linked to the incident, whom the reader may read. */
  [category: string]: number;
}
