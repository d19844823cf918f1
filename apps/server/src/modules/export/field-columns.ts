import { CATEGORY_LIST, paths, publicPoint, regionByCode, type CategorySlug, type IncidentRef, type RecordDto } from '@app/shared';

/**
 * The exports in the field's own formats (docs/export.md): incidents with ACLED's column names, people with the
 * incident they belong to, each column with its HXL hashtag (the row HDX reads under the header). A column follows
 * the standard named in `standard`; one that has no counterpart there is the site's own.
 */

type Value = string | number | null;
type ColumnType = 'string' | 'integer' | 'number' | 'date' | 'datetime';

export interface FieldColumn {
  name: string;
  type: ColumnType;
  /** HXL hashtag with attributes, where HXL has one for what the column holds; untagged columns are allowed by HXL. */
  hxl?: string;
  /** Which standard the column follows ("ACLED", "ACLED-like", "site"). */
  standard: string;
  description: string;
  value(record: RecordDto, context: ExportContext): Value;
}

export interface ExportContext {
  publicUrl: string;
  /** incidents.csv: the people linked to each incident of the batch that the exporting reader may read. */
  namedPeople?: Map<string, number>;
}

/** Massacres and events: the incidents people are linked to. */
export const INCIDENT_CATEGORIES: CategorySlug[] = ['massacres', 'events'];
/** Categories whose records are people (or a group of displaced people), exported in people.csv. */
export const PEOPLE_CATEGORIES: CategorySlug[] = CATEGORY_LIST.filter((c) => ['victims', 'missings', 'orphans', 'displacements'].includes(c.slug)).map((c) => c.slug);

/** ISO 3166-1 numeric code of Ethiopia, ACLED's `iso`. */
const ETHIOPIA_ISO = 231;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);
const day = (value: unknown): string | null => (typeof value === 'string' && value ? value.slice(0, 10) : null);
/** The incident date: when a massacre happened, when an event started. */
const incidentDate = (r: RecordDto) => day(r.category === 'events' ? r.startAt : r.happenedOn);
const region = (r: RecordDto) => (typeof r.region === 'string' ? regionByCode(r.region) : undefined);
/** Events may happen abroad (a commemoration in another country); massacres, and events with a region, in Ethiopia. */
const inEthiopia = (r: RecordDto) => r.category === 'massacres' || Boolean(r.region) || /ethiopia|ኢትዮጵያ/i.test(String(r.country ?? ''));

/** The cited sources' URLs: the massacre's evidence links (records of issue 39 item 2 add theirs when present). */
function sourceUrls(r: RecordDto): string[] {
  const evidence = typeof r.evidence === 'string' ? r.evidence.split(/,\s+/).filter(Boolean) : [];
  const cited = Array.isArray(r.sources) ? (r.sources as { url?: string | null; withheld?: boolean }[]).filter((s) => !s.withheld && s.url).map((s) => s.url!) : [];
  return [...new Set([...evidence, ...cited])];
}

const NOTES_MAX = 1000;
function notesOf(r: RecordDto): string | null {
  const short = text(r.shortDescription) ?? text(r.subtitle);
  if (short) return short;
  const description = text(r.description);
  return description && description.length > NOTES_MAX ? `${description.slice(0, NOTES_MAX - 1)}…` : description;
}

const pageUrl = (r: RecordDto, { publicUrl }: ExportContext) => `${publicUrl}${paths.detail(r.category, r._id)}`;

/** One row per massacre or event, ACLED's columns first, in ACLED's names and meanings where they have one. */
export const INCIDENT_COLUMNS: readonly FieldColumn[] = [
  { name: 'event_id', type: 'string', hxl: '#event+id', standard: 'ACLED (event_id_cnty; here the record id, a uuid)', description: "The record's id", value: (r) => r._id },
  { name: 'event_date', type: 'date', hxl: '#date+start', standard: 'ACLED', description: 'When it happened (a massacre) or started (an event), YYYY-MM-DD', value: incidentDate },
  {
    name: 'time_precision',
    type: 'integer',
    // HXL requires every #date value to be a date: a code about the date is metadata.
    hxl: '#meta+date+precision',
    standard: 'ACLED (1 = the day is known)',
    description: '1 when the day is known; empty without a date',
    value: (r) => (incidentDate(r) ? 1 : null),
  },
  {
    name: 'event_type',
    type: 'string',
    hxl: '#event+type',
    standard: 'ACLED',
    description: 'ACLED event type: "Violence against civilians" for massacres; empty for events (not classified)',
    value: (r) => (r.category === 'massacres' ? 'Violence against civilians' : null),
  },
  {
    name: 'sub_event_type',
    type: 'string',
    hxl: '#event+type+sub',
    standard: 'ACLED',
    description: 'ACLED sub-event type: "Attack" for massacres; empty for events',
    value: (r) => (r.category === 'massacres' ? 'Attack' : null),
  },
  { name: 'actor1', type: 'string', hxl: '#group+name+first', standard: 'ACLED', description: 'The perpetrator, as recorded', value: (r) => text(r.victimizer) },
  { name: 'iso', type: 'integer', hxl: '#country+code', standard: 'ACLED (ISO 3166-1 numeric)', description: '231 (Ethiopia) where it happened in Ethiopia', value: (r) => (inEthiopia(r) ? ETHIOPIA_ISO : null) },
  { name: 'country', type: 'string', hxl: '#country+name', standard: 'ACLED', description: 'Country', value: (r) => (inEthiopia(r) ? 'Ethiopia' : text(r.country)) },
  { name: 'admin1', type: 'string', hxl: '#adm1+name', standard: 'ACLED', description: 'Region (regional state or chartered city), English name', value: (r) => region(r)?.en ?? null },
  {
    name: 'admin1_pcode',
    type: 'string',
    hxl: '#adm1+code',
    standard: 'OCHA COD-AB p-code (ACLED-like; ISO 3166-2 in admin1_iso)',
    description: "The region's OCHA p-code, where confirmed (packages/shared/src/places/regions.ts)",
    value: (r) => region(r)?.pcode ?? null,
  },
  { name: 'admin1_iso', type: 'string', standard: 'ISO 3166-2:ET', description: "The region's ISO 3166-2 code, where it has one", value: (r) => region(r)?.iso ?? null },
  { name: 'admin2', type: 'string', hxl: '#adm2+name', standard: 'ACLED', description: 'Zone, as written', value: (r) => text(r.zone) },
  { name: 'admin3', type: 'string', hxl: '#adm3+name', standard: 'ACLED', description: 'Woreda, as written', value: (r) => text(r.woreda) },
  { name: 'location', type: 'string', hxl: '#loc+name', standard: 'ACLED', description: 'Place (town, village; the city of an event)', value: (r) => text(r.location) ?? text(r.city) },
  { name: 'latitude', type: 'number', hxl: '#geo+lat', standard: 'ACLED', description: 'Latitude, rounded to geo_precision (empty until coordinates are recorded)', value: (r) => coordinate(r, 'latitude') },
  { name: 'longitude', type: 'number', hxl: '#geo+lon', standard: 'ACLED', description: 'Longitude, rounded to geo_precision', value: (r) => coordinate(r, 'longitude') },
  {
    name: 'geo_precision',
    type: 'string',
    hxl: '#geo+precision',
    standard: "ACLED-like (ACLED uses 1-3; here the site's words: exact, town, woreda, zone, region)",
    description: 'How exact the coordinates are',
    value: (r) => text(r.geoPrecision),
  },
  { name: 'fatalities', type: 'integer', hxl: '#affected+killed', standard: 'ACLED (reported)', description: 'People reported killed (massacres)', value: (r) => (typeof r.quantity === 'number' ? r.quantity : null) },
  {
    name: 'named_people',
    type: 'integer',
    hxl: '#affected+killed+named',
    standard: 'site (Every Casualty: named victims)',
    description: 'People on the site linked to this incident (victims, missing people, orphans, displacements)',
    value: (r, { namedPeople }) => (namedPeople ? (namedPeople.get(r._id) ?? 0) : null),
  },
  { name: 'source', type: 'string', hxl: '#meta+source', standard: 'ACLED (here the sources\' URLs, separated by "; ")', description: 'Cited sources; witness testimony withheld for safety is never listed', value: (r) => sourceUrls(r).join('; ') || null },
  { name: 'source_count', type: 'integer', hxl: '#meta+source+num', standard: 'site', description: 'How many sources are cited', value: (r) => sourceUrls(r).length },
  { name: 'notes', type: 'string', hxl: '#description', standard: 'ACLED', description: 'A short description', value: notesOf },
  { name: 'updated_at', type: 'datetime', hxl: '#date+updated', standard: 'ACLED (timestamp; here ISO 8601)', description: 'Last change of the record', value: (r) => r.updatedAt },
  { name: 'acled_event_id', type: 'string', hxl: '#event+id+acled', standard: 'site (cross-reference to ACLED)', description: "The same event's id in ACLED's data, where an editor recorded it", value: (r) => text(r.acledEventId) },
  { name: 'category', type: 'string', hxl: '#event+category', standard: 'site', description: 'massacres or events', value: (r) => r.category },
  { name: 'title', type: 'string', hxl: '#event+name', standard: 'site', description: 'Title', value: (r) => r.title },
  { name: 'url', type: 'string', hxl: '#meta+url', standard: 'site', description: "The record's page", value: pageUrl },
];

/** Always as the public sees it, rounded to its precision (witness safety), whoever exports. */
function coordinate(r: RecordDto, name: 'latitude' | 'longitude'): number | null {
  if (typeof r.latitude !== 'number' || typeof r.longitude !== 'number') return null;
  return publicPoint(r.latitude, r.longitude, typeof r.geoPrecision === 'string' ? r.geoPrecision : null)[name];
}

/** One row per person (or group of displaced people), with the incident it belongs to. */
export const PEOPLE_COLUMNS: readonly FieldColumn[] = [
  { name: 'person_id', type: 'string', hxl: '#meta+id', standard: 'site', description: "The record's id", value: (r) => r._id },
  {
    name: 'incident_id',
    type: 'string',
    hxl: '#event+id',
    standard: 'site (foreign key to incidents.event_id)',
    description: "The massacre or event the person belongs to, a row of the same reader's incidents.csv; empty when none, or when that file leaves it out (private, or in the trash)",
    // The incident as read with the person: a signed-in reader's JSON keeps the id of a trashed incident, which
    // incidents.csv leaves out, so the key would point nowhere.
    value: (r) => {
      const incident = r.incident as IncidentRef | undefined;
      return incident && '_id' in incident ? incident._id : null;
    },
  },
  { name: 'category', type: 'string', standard: 'site', description: 'victims, missings, orphans or displacements', value: (r) => r.category },
  { name: 'name', type: 'string', standard: 'site', description: 'Full name, or the title where none was recorded', value: (r) => text(r.fullName) ?? r.title },
  { name: 'title', type: 'string', standard: 'site', description: 'Title', value: (r) => r.title },
  { name: 'date', type: 'date', hxl: '#date+occurred', standard: 'site', description: 'When it happened (killed, kidnapped, orphaned, displaced), YYYY-MM-DD', value: (r) => day(r.happenedOn) },
  { name: 'admin1', type: 'string', hxl: '#adm1+name', standard: 'ACLED names', description: 'Region, English name', value: (r) => region(r)?.en ?? null },
  { name: 'admin1_pcode', type: 'string', hxl: '#adm1+code', standard: 'OCHA COD-AB p-code', description: "The region's p-code, where confirmed", value: (r) => region(r)?.pcode ?? null },
  { name: 'admin2', type: 'string', hxl: '#adm2+name', standard: 'ACLED names', description: 'Zone, as written', value: (r) => text(r.zone) },
  { name: 'admin3', type: 'string', hxl: '#adm3+name', standard: 'ACLED names', description: 'Woreda, as written', value: (r) => text(r.woreda) },
  { name: 'location', type: 'string', hxl: '#loc+name', standard: 'ACLED names', description: 'Place, as written', value: (r) => text(r.location) },
  { name: 'actor1', type: 'string', hxl: '#group+name+first', standard: 'ACLED names', description: 'The perpetrator, as recorded', value: (r) => text(r.victimizer) },
  { name: 'killing_type', type: 'string', standard: 'site', description: 'How the person was killed (victims)', value: (r) => text(r.killingType) },
  { name: 'people', type: 'integer', hxl: '#affected+num', standard: 'site', description: 'People counted (kidnapped, displaced), where the record counts a group', value: (r) => (typeof r.quantity === 'number' ? r.quantity : null) },
  { name: 'confirmed', type: 'string', standard: 'site', description: 'true when reviewed and approved by the site', value: (r) => String(r.approved) },
  { name: 'updated_at', type: 'datetime', hxl: '#date+updated', standard: 'site', description: 'Last change of the record', value: (r) => r.updatedAt },
  { name: 'url', type: 'string', hxl: '#meta+url', standard: 'site', description: "The record's page", value: pageUrl },
];

export const fieldRow = (columns: readonly FieldColumn[], record: RecordDto, context: ExportContext): Value[] => columns.map((c) => c.value(record, context));
/** HDX's hashtag row: each column's hashtag, empty where HXL has none for it. */
export const hxlRow = (columns: readonly FieldColumn[]): string[] => columns.map((c) => c.hxl ?? '');
