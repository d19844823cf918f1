import type { ComponentType } from 'react';
import { filterFocusKept } from '../features/search/filterFocus';

/**
 * Every island a reading page may hold: its component, loaded when a page has one. The server links the code of the
 * islands a page uses (`ISLAND_MODULES`, keys of the build's manifest), so it arrives with the page's first scripts.
 */
const modules = import.meta.glob<Record<string, ComponentType<Record<string, unknown>>>>([
  '../components/SiteMenu.tsx',
  '../components/CopyButton.tsx',
  '../components/ImageCarousel.tsx',
  '../features/records/ViewToggle.tsx',
  '../features/statistics/FilterForm.tsx',
  '../features/search/FiltersToggle.tsx',
  '../features/home/CampaignSlot.tsx',
  '../features/gallery/ViewerKeys.tsx',
  '../components/ShowGraphic.tsx',
]);

const ISLANDS = {
  menu: ['../components/SiteMenu.tsx', 'SiteMenu'],
  copy: ['../components/CopyButton.tsx', 'CopyButton'],
  carousel: ['../components/ImageCarousel.tsx', 'ImageCarousel'],
  viewToggle: ['../features/records/ViewToggle.tsx', 'ViewToggle'],
  statisticsFilters: ['../features/statistics/FilterForm.tsx', 'FilterForm'],
  searchFilters: ['../features/search/FiltersToggle.tsx', 'FiltersToggle'],
  campaign: ['../features/home/CampaignSlot.tsx', 'CampaignSlot'],
  viewerKeys: ['../features/gallery/ViewerKeys.tsx', 'ViewerKeys'],
  showGraphic: ['../components/ShowGraphic.tsx', 'ShowGraphic'],
} as const satisfies Record<string, readonly [string, string]>;

export type IslandName = keyof typeof ISLANDS;

/**
 * The islands adopted as soon as their code has run: their effects act before the reader touches them (the document's
 * keys turn the gallery's pages, the campaign form loads when near). Every other island is adopted when the reader
 * first reaches it (islands/start.tsx), so a reader who only reads pays nothing for it; its mount effects may then run
 * after that first event.
 */
const ADOPTED_AT_ONCE: ReadonlySet<IslandName> = new Set(['viewerKeys', 'campaign']);

/**
 * Whether an island is adopted at once. The search's filters are, only to give the focus back to the field that sent
 * the form on the page before (features/search/filterFocus.ts); otherwise when their form is first reached.
 */
export const adoptedAtOnce = (name: IslandName): boolean => ADOPTED_AT_ONCE.has(name) || (name === 'searchFilters' && filterFocusKept());

/**
 * The part of the page whose first event adopts an island: its own markup, but the search's filters act on their whole
 * form (a ticked facet anywhere in it sends it; its Enter or "Apply" sends it without its empty fields), so the form's.
 */
export const reachedThrough = (name: IslandName, root: HTMLElement): HTMLElement =>
  name === 'searchFilters' ? (root.closest('form') ?? root) : root;

export const isIslandName = (name: string): name is IslandName => Object.hasOwn(ISLANDS, name);

/** The build manifest names a module by its path from the web app's folder: '../x/Y.tsx' here is 'src/x/Y.tsx'. */
const manifestKey = (fileFromHere: string) => new URL(fileFromHere, 'file:///src/islands/').pathname.slice(1);

/** Each island's module, as the build's manifest names it. */
export const ISLAND_MODULES = Object.fromEntries(Object.entries(ISLANDS).map(([name, [file]]) => [name, manifestKey(file)])) as Record<IslandName, string>;

/** The component of an island. */
export async function loadIsland(name: IslandName): Promise<ComponentType<Record<string, unknown>>> {
  const [file, exported] = ISLANDS[name];
  const load = modules[file];
  if (!load) throw new Error(`island ${name}: no module ${file}`);
  const component = (await load())[exported];
  if (!component) throw new Error(`island ${name}: ${file} has no export ${exported}`);
  return component;
}
