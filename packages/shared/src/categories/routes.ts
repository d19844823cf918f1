import type { CategorySlug } from './types';

/**
 * Each category's web route (its list at `route`, a record at `route/{id}`), apart from the registry's definitions,
 * which take theirs from here: links (paths.ts) need the routes alone, and a reading page's menu should not bring
 * every category's fields to a phone to draw them.
 */
export const CATEGORY_ROUTES = {
  victims: '/victims',
  massacres: '/massacres',
  displacements: '/displacements',
  orphans: '/orphans',
  missings: '/missings',
  videos: '/videos',
  links: '/links',
  events: '/events',
  blogs: '/educations',
} as const satisfies Record<CategorySlug, string>;
