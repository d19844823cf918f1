/**
 * The vocabulary of the category registry. A category is declared once (see ./defs) and the database,
 * API validation, OpenAPI document, forms, cards and lists are all derived from that declaration.
 */

/** How a field is stored, validated and edited. */
export type FieldKind =
  | 'text' // one line of plain text
  | 'markdown' // long text rendered as sanitised markdown
  | 'datetime' // an instant shown with its time; forms use YYYY-MM-DDTHH:mm:ss
  | 'date' // when something happened: stored, validated and edited like datetime, shown as a day ("ll")
  | 'quantity' // a whole number of people, never negative
  | 'region' // one of Ethiopia's regions (places/regions.ts), stored as its code
  | 'url' // one http(s) link
  | 'urlList' // several http(s) links joined by ", " (spec: evidence)
  | 'image' // one uploaded image (multipart field `image`)
  | 'images' // several uploaded images (multipart field `files[]`)
  | 'video' // one uploaded video (multipart field `image`, as the spec names it)
  | 'incident' // the id of the massacre or event a person belongs to (FieldDef.linksTo says which categories)
  | 'sources' // the sources a record cites: a JSON array (sources.ts); in multipart bodies as JSON text
  | 'coordinate' // decimal degrees (FieldDef.axis); shown to the public rounded to the record's geoPrecision
  | 'choice'; // one of FieldDef.options, stored as written

export interface FieldDef {
  /** The API and form field name (kept exactly: clients depend on it). */
  name: string;
  kind: FieldKind;
  /** i18n key of the form label; English text lives in the web app's resources. */
  label: string;
  required?: boolean;
  /** Upper bound on length for text kinds (characters). Defaults come from FIELD_LIMITS. */
  max?: number;
  /** i18n key of a hint shown under the input. */
  hint?: string;
  /** i18n key of the label on cards, where it differs from the form's (the victim's name). */
  cardLabel?: string;
  /** Another field shown in brackets after this one's value (the remark after the happened-on date). */
  annotatedBy?: string;
  /** A `date` whose time of day is part of the fact (when a victim was killed): shown "ll hh:mm A", not as a day. */
  shownWithTime?: boolean;
  /** A date that may not be later than now (future-dates.ts: a few minutes of clock skew allowed, a day that has begun somewhere). */
  notInFuture?: boolean;
  /**
   * Found by the search, with this weight (ranking): 'A' titles and names (also found when misspelt by a letter), 'B'
   * short identifying text (subtitles, places, case numbers), 'C' the rest. The search columns of the records table
   * are generated from these: change one, then `npm run db:generate` (docs/search.md).
   */
  search?: SearchWeight;
  /** What the statistics (record_stats, its trigger) and the search's filters do with the field (docs/statistics.md). */
  statistics?: StatisticsRole;
  /** `incident` fields: the categories whose records it may name. */
  linksTo?: readonly CategorySlug[];
  /** `coordinate` fields: which of the two (bounds -90..90 or -180..180). */
  axis?: 'latitude' | 'longitude';
  /** `choice` fields: the values allowed, in form order; their labels are the i18n keys `choice.${name}.${value}`. */
  options?: readonly string[];
}

export type SearchWeight = 'A' | 'B' | 'C';

/**
 * - 'dimension': counted per value (a column of record_stats), a filter of the search, statistics and export, and a
 *   facet of the search. A `region` field or a text field.
 * - 'quantity': summed per count (people killed, displaced, kidnapped).
 * - 'incidentDate': when the record's events happened: counted per month, the `from`/`to` filters and the year facet.
 *   At most one per category.
 */
export type StatisticsRole = 'dimension' | 'quantity' | 'incidentDate';

/** Where the record's files go. */
export type MediaMode = 'none' | 'image' | 'images' | 'video';

export interface CategoryDef {
  /** API path segment and the `category` column value: /api/v1.0.0/{slug}. */
  slug: CategorySlug;
  /** Base of the web routes: list at `route`, detail at `route/{id}`, edit at `route/edit/{id}`. */
  route: string;
  /** i18n key of the singular name ("Victim"). */
  singular: string;
  /** Dashboard picker label, in picker order; absent when the dashboard cannot add it. */
  pickerLabel: string;
  pickerOrder: number;
  /** Fields of the create and edit calls, in form order. */
  fields: readonly FieldDef[];
  /**
   * i18n key of the list title; `{{total}}` is the API total ("Victims (n)"). Not `count`: that name makes
   * i18next look for plural forms, which these titles do not have, on every list's first render.
   */
  listTitle: string;
  /** The list's name in English, in page titles, feeds and link previews ("Displaced People"). */
  listName: string;
  /** Characters of description shown on a card before "Read More". */
  previewLength: number;
  /** i18n key of the empty-list text. */
  emptyText: string;
  media: MediaMode;
  /** Approve call exists. */
  approvable: boolean;
  /** Has a `public` flag toggled by PUT /{slug}/{id}/access; private records are hidden from anonymous readers. */
  hasAccessToggle: boolean;
  /** Its images appear in the derived /images gallery. */
  inGallery: boolean;
  /**
   * Card shows these fields (besides title, subtitle, dates, confirmation), as a list of facts unless the category's
   * own presentation shows them (the event block: start, end and address).
   */
  cardFields: readonly string[];
  /** Where edits go after saving: the detail page after `redirectDelayMs`. */
  redirectDelayMs?: number;
  /**
   * Each record names one person (its `fullName`, else its title): the form shows likely duplicates before saving, and
   * admins merge duplicates or mark them as different people (docs/duplicates.md).
   */
  checksDuplicates?: boolean;
}

export const CATEGORY_SLUGS = [
  'victims',
  'massacres',
  'displacements',
  'orphans',
  'missings',
  'videos',
  'links',
  'events',
  'blogs',
] as const;

export type CategorySlug = (typeof CATEGORY_SLUGS)[number];

export const FIELD_LIMITS = {
  text: 300,
  markdown: 50_000,
  url: 2_000,
  urlList: 20_000,
  quantity: 10_000_000,
} as const;
