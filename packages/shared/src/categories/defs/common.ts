import type { FieldDef } from '../types';

/** Field declarations shared by several categories; each category lists the ones it uses, in its form order. */
export const f = {
  title: { name: 'title', kind: 'text', label: 'field.title', required: true, search: 'A' },
  subtitle: { name: 'subtitle', kind: 'text', label: 'field.subtitle', search: 'B' },
  description: { name: 'description', kind: 'markdown', label: 'field.description', required: true, search: 'C' },
  // The published date orders lists, feeds and exports: one in the future would put its record first for ever.
  createdAt: { name: 'createdAt', kind: 'datetime', label: 'field.createdAt', notInFuture: true },
  fullName: { name: 'fullName', kind: 'text', label: 'field.fullName', cardLabel: 'record.victimName', search: 'A' },
  location: { name: 'location', kind: 'text', label: 'field.location', search: 'B' },
  region: { name: 'region', kind: 'region', label: 'field.region', hint: 'hint.region', statistics: 'dimension' },
  zone: { name: 'zone', kind: 'text', label: 'field.zone', max: 100, search: 'B' },
  woreda: { name: 'woreda', kind: 'text', label: 'field.woreda', max: 100, search: 'B' },
  victimizer: { name: 'victimizer', kind: 'text', label: 'field.victimizer', search: 'C', statistics: 'dimension' },
  killingType: { name: 'killingType', kind: 'text', label: 'field.killingType', search: 'C', statistics: 'dimension' },
  // What happened has happened: a date ahead would reach people.csv, the statistics and the search's years.
  happenedOn: { name: 'happenedOn', kind: 'date', label: 'field.happenedOn', statistics: 'incidentDate', notInFuture: true },
  quantity: { name: 'quantity', kind: 'quantity', label: 'field.quantity', statistics: 'quantity' },
  remark: { name: 'remark', kind: 'text', label: 'field.remark', search: 'C' },
  // The same incident's event in ACLED's data (its event_id_cnty, e.g. ETH12345): a cross-reference only, ACLED's
  // rows are never copied (its terms forbid it). Exported as acled_event_id (docs/export.md).
  acledEventId: { name: 'acledEventId', kind: 'text', label: 'field.acledEventId', hint: 'hint.acledEventId', max: 40 },
  image: { name: 'image', kind: 'image', label: 'field.image' },
  files: { name: 'files', kind: 'images', label: 'field.files' },
  // Every Casualty Worldwide: a casualty record is tied to its incident; HURIDOCS Events: the Event of a Person's Act.
  incidentId: { name: 'incidentId', kind: 'incident', label: 'field.incidentId', hint: 'hint.incidentId', linksTo: ['massacres', 'events'] },
  sources: { name: 'sources', kind: 'sources', label: 'field.sources', hint: 'hint.sources' },
  latitude: { name: 'latitude', kind: 'coordinate', label: 'field.latitude', axis: 'latitude' },
  longitude: { name: 'longitude', kind: 'coordinate', label: 'field.longitude', axis: 'longitude' },
  geoPrecision: { name: 'geoPrecision', kind: 'choice', label: 'field.geoPrecision', hint: 'hint.geoPrecision', options: ['exact', 'town', 'woreda', 'zone', 'region'] },
} as const satisfies Record<string, FieldDef>;

/** Where exactly an incident happened, and how exactly the public may see it (geo.ts rounds to the precision). */
export const coordinates = [f.latitude, f.longitude, f.geoPrecision] as const satisfies readonly FieldDef[];

/** Where in Ethiopia: the region from the controlled list, then zone and woreda as written. */
export const place = [f.region, f.zone, f.woreda] as const satisfies readonly FieldDef[];


/** The fields that open a record about a named person: who, where (with the place), and by whom. */
export const namedPersonFields = [f.title, f.subtitle, f.fullName, f.location, ...place, f.victimizer] as const satisfies readonly FieldDef[];

/** What the people categories (victims, orphans, missing, displaced) share: one image each, approved, in the gallery. */
export const personCategory = {
  emptyText: 'empty.data',
  media: 'image',
  approvable: true,
  hasAccessToggle: false,
  inGallery: true,
} as const;
