import { paths } from '@app/shared';

/** A place in the site a visitor can open from the header's Browse menu, the phone menu and the home page. */
export interface SiteLink {
  /** Key under `browse` in the language files. */
  key: string;
  to: string;
}

/**
 * Every list of records and every way to read across them, in one place, so the header, the phone menu and the home
 * page offer the same ones (issue 38: nothing more than two taps from the home page).
 */
export const SITE_LISTS: readonly SiteLink[] = [
  { key: 'massacres', to: paths.list('massacres') },
  { key: 'victims', to: paths.list('victims') },
  { key: 'displacements', to: paths.list('displacements') },
  { key: 'missings', to: paths.list('missings') },
  { key: 'orphans', to: paths.list('orphans') },
  { key: 'events', to: paths.list('events') },
  { key: 'images', to: paths.images },
  { key: 'videos', to: paths.list('videos') },
  { key: 'links', to: paths.list('links') },
  { key: 'blogs', to: paths.list('blogs') },
  { key: 'reports', to: paths.reports },
];

/** Search, statistics, the map and the open-data export. */
export const SITE_TOOLS: readonly SiteLink[] = [
  { key: 'search', to: paths.search },
  { key: 'statistics', to: paths.statistics },
  { key: 'map', to: paths.map },
  { key: 'export', to: paths.exportData },
];
