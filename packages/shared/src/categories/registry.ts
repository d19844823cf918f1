import { blogs } from './defs/blogs';
import { displacements } from './defs/displacements';
import { events } from './defs/events';
import { links } from './defs/links';
import { massacres } from './defs/massacres';
import { missings } from './defs/missings';
import { orphans } from './defs/orphans';
import { victims } from './defs/victims';
import { videos } from './defs/videos';
import { CATEGORY_SLUGS, type CategoryDef, type CategorySlug, type FieldDef, type SearchWeight, type StatisticsRole } from './types';

/** The declarations with their exact types (field names as literals), for the checks made by the type checker. */
const DECLARATIONS = {
  victims,
  massacres,
  displacements,
  orphans,
  missings,
  videos,
  links,
  events,
  blogs,
} as const;

export const CATEGORIES: Record<CategorySlug, CategoryDef> = DECLARATIONS;

type DeclaredField = (typeof DECLARATIONS)[CategorySlug]['fields'][number];

/** A field that carries data in the record row, as declared (name and kind as literals). */
export type DeclaredDataField = Exclude<DeclaredField, { kind: 'image' | 'images' | 'video' }>;

/** Every data field name of every category: the records table has a column for each (checked by its schema's type). */
export type DataFieldName = DeclaredDataField['name'];

export const CATEGORY_LIST: readonly CategoryDef[] = CATEGORY_SLUGS.map((slug) => CATEGORIES[slug]);

/** Dashboard picker order (Displacement, Orphan, Massacre, Video, Victim, Missing, Link URL, Event, Other). */
export const PICKER_CATEGORIES: readonly CategoryDef[] = [...CATEGORY_LIST].sort(
  (a, b) => a.pickerOrder - b.pickerOrder,
);

function isCategorySlug(value: string): value is CategorySlug {
  return (CATEGORY_SLUGS as readonly string[]).includes(value);
}

export function getCategory(slug: string): CategoryDef | undefined {
  return isCategorySlug(slug) ? CATEGORIES[slug] : undefined;
}

/** The category whose web routes start with `route` (e.g. '/educations' -> blogs). */
export function categoryByRoute(route: string): CategoryDef | undefined {
  return CATEGORY_LIST.find((c) => c.route === route);
}

/** Kinds whose value is an instant (validated, stored and edited alike; shown with or without the time). */
export function isDateKind(kind: FieldDef['kind']): kind is 'datetime' | 'date' {
  return kind === 'datetime' || kind === 'date';
}

/** Fields that carry data in the record row (everything but uploads). */
export function dataFields(category: CategoryDef): FieldDef[] {
  return category.fields.filter((fd) => fd.kind !== 'image' && fd.kind !== 'images' && fd.kind !== 'video');
}

export function uploadFields(category: CategoryDef): FieldDef[] {
  return category.fields.filter((fd) => fd.kind === 'image' || fd.kind === 'images' || fd.kind === 'video');
}

/** Every data field name used by any category: the category-specific columns of the records table. */
export const ALL_DATA_FIELD_NAMES: readonly string[] = [
  ...new Set(CATEGORY_LIST.flatMap((c) => dataFields(c).map((fd) => fd.name))),
];

/** Categories whose records say where in Ethiopia they happened (a `region` field): the ones search and the map place. */
export function hasPlace(category: CategoryDef): boolean {
  return category.fields.some((fd) => fd.kind === 'region');
}

/**
 * The value of `flag` of every data field that sets it, once per field name in registry order. A field name is one
 * column of the records table, so every category that declares it must declare it alike: a disagreement is an error
 * naming the field.
 */
function perColumn<Flag extends 'search' | 'statistics'>(flag: Flag): { name: string; value: NonNullable<FieldDef[Flag]> }[] {
  const found = new Map<string, NonNullable<FieldDef[Flag]>>();
  for (const category of CATEGORY_LIST) {
    for (const field of dataFields(category)) {
      const value = field[flag];
      const before = found.get(field.name);
      if (before !== undefined && before !== value) throw new Error(`registry: field "${field.name}" has ${flag} "${before}" in one category and "${value}" in ${category.slug}`);
      if (value !== undefined) found.set(field.name, value);
    }
  }
  return [...found].map(([name, value]) => ({ name, value }));
}

/** The fields the search finds, with their weight (FieldDef.search): the search columns are generated from them. */
export function searchFields(): { name: string; weight: SearchWeight }[] {
  return perColumn('search').map(({ name, value }) => ({ name, weight: value }));
}

/** The names of the fields of one statistics role (FieldDef.statistics), in registry order: record_stats follows them. */
export function statisticsFields(role: StatisticsRole): string[] {
  return perColumn('statistics')
    .filter((field) => field.value === role)
    .map((field) => field.name);
}

/** The kind of the data field `name` (one column: every category that declares it declares one kind). */
export function dataFieldKind(name: string): FieldDef['kind'] | undefined {
  for (const category of CATEGORY_LIST) {
    const field = category.fields.find((f) => f.name === name);
    if (field) return field.kind;
  }
  return undefined;
}
