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

/**
 * How an island is adopted (islands/start.tsx). By default when the reader first reaches its own markup, so a reader
 * who only reads pays nothing for it; its mount effects may then run after that first event.
 * - `atOnce`: adopted as soon as its code has run, when it says so: its effects act before the reader touches it.
 * - `reachedThrough`: the part of the page whose first event adopts it, when that is more than its own markup.
 */
type IslandDef = {
  file: string;
  exported: string;
  atOnce?: () => boolean;
  reachedThrough?: (root: HTMLElement) => HTMLElement;
};

const always = () => true;

const ISLANDS = {
  menu: { file: '../components/SiteMenu.tsx', exported: 'SiteMenu' },
  copy: { file: '../components/CopyButton.tsx', exported: 'CopyButton' },
  carousel: { file: '../components/ImageCarousel.tsx', exported: 'ImageCarousel' },
  viewToggle: { file: '../features/records/ViewToggle.tsx', exported: 'ViewToggle' },
  statisticsFilters: { file: '../features/statistics/FilterForm.tsx', exported: 'FilterForm' },
  // The filters act on their whole form (a ticked facet anywhere in it sends it; its Enter or "Apply" sends it without
  // its empty fields). At once only to give the focus back to the field that sent the form on the page before.
  searchFilters: {
    file: '../features/search/FiltersToggle.tsx',
    exported: 'FiltersToggle',
    atOnce: filterFocusKept,
    reachedThrough: (root) => root.closest('form') ?? root,
  },
  // The campaign form loads when near; the document's keys turn the gallery's pages.
  campaign: { file: '../features/home/CampaignSlot.tsx', exported: 'CampaignSlot', atOnce: always },
  viewerKeys: { file: '../features/gallery/ViewerKeys.tsx', exported: 'ViewerKeys', atOnce: always },
  showGraphic: { file: '../components/ShowGraphic.tsx', exported: 'ShowGraphic' },
} as const satisfies Record<string, IslandDef>;

export type IslandName = keyof typeof ISLANDS;

const defOf = (name: IslandName): IslandDef => ISLANDS[name];

/** Whether an island is adopted as soon as its code has run, rather than when first reached. */
export const adoptedAtOnce = (name: IslandName): boolean => defOf(name).atOnce?.() ?? false;

/** The part of the page whose first event adopts an island: its own markup unless its entry says otherwise. */
export const reachedThrough = (name: IslandName, root: HTMLElement): HTMLElement => defOf(name).reachedThrough?.(root) ?? root;

export const isIslandName = (name: string): name is IslandName => Object.hasOwn(ISLANDS, name);

/** The build manifest names a module by its path from the web app's folder: '../x/Y.tsx' here is 'src/x/Y.tsx'. */
const manifestKey = (fileFromHere: string) => new URL(fileFromHere, 'file:///src/islands/').pathname.slice(1);

/** Each island's module, as the build's manifest names it. */
export const ISLAND_MODULES = Object.fromEntries(Object.entries(ISLANDS).map(([name, { file }]) => [name, manifestKey(file)])) as Record<IslandName, string>;

/** The component of an island. */
export async function loadIsland(name: IslandName): Promise<ComponentType<Record<string, unknown>>> {
  const { file, exported } = defOf(name);
  const load = modules[file];
  if (!load) throw new Error(`island ${name}: no module ${file}`);
  const component = (await load())[exported];
  if (!component) throw new Error(`island ${name}: ${file} has no export ${exported}`);
  return component;
}
