import { FIELD_LABELS, dataFields, headerKey, type CategoryDef, type ImportMapping } from '@app/shared';

/**
 * Which column of a file holds which field of the category: by the field's name, its English and Amharic labels
 * (shared FIELD_LABELS, the locale files' own), and the column names of the site's own exports (people.csv, incidents.csv), so an
 * exported file imports as it is.
 */

/** Columns of people.csv and incidents.csv (modules/export/field-columns.ts) and the field each is read into. */
export const EXPORT_COLUMN_FIELDS: Record<string, readonly string[]> = {
  name: ['fullName'],
  title: ['title'],
  date: ['happenedOn'],
  event_date: ['happenedOn', 'startAt'],
  admin1: ['region'],
  admin1_pcode: ['region'],
  admin1_iso: ['region'],
  admin2: ['zone'],
  admin3: ['woreda'],
  location: ['location', 'city'],
  actor1: ['victimizer'],
  killing_type: ['killingType'],
  people: ['quantity'],
  fatalities: ['quantity'],
  incident_id: ['incidentId'],
  latitude: ['latitude'],
  longitude: ['longitude'],
  geo_precision: ['geoPrecision'],
  source: ['evidence', 'sources'],
  notes: ['shortDescription', 'subtitle'],
  acled_event_id: ['acledEventId'],
  country: ['country'],
};

/** Export columns that carry the row's own id in the site it came from: kept as the row's key, never a field. */
export const SOURCE_KEY_COLUMNS = ['person_id', 'event_id'] as const;

/** Every header key that names `field` of the category. */
function namesOf(category: CategoryDef, fieldName: string, label: string): string[] {
  const names = [fieldName, label.replace(/^field\./, ''), FIELD_LABELS[label]?.en, FIELD_LABELS[label]?.am];
  for (const [column, fields] of Object.entries(EXPORT_COLUMN_FIELDS)) {
    // The first of the fields this category has takes the column.
    const own = fields.find((name) => category.fields.some((f) => f.name === name));
    if (own === fieldName) names.push(column);
  }
  return names.filter((n): n is string => Boolean(n)).map(headerKey);
}

/** The mapping read from the headers: each field from the first column that names it. */
export function matchHeaders(category: CategoryDef, headers: readonly string[]): ImportMapping {
  const keys = headers.map(headerKey);
  const mapping: ImportMapping = {};
  const taken = new Set<number>();
  for (const field of dataFields(category)) {
    const names = namesOf(category, field.name, field.label);
    // An exact header first (`fullName`), then a group path's last part (`group_victim/full_name`).
    const index = keys.findIndex((key, i) => !taken.has(i) && names.includes(key));
    if (index < 0) continue;
    taken.add(index);
    mapping[field.name] = { column: headers[index]! };
  }
  return mapping;
}

/** How many headers name a field of the category: tells a second header row (under merged cells) from data. */
export function matchedCount(category: CategoryDef, headers: readonly string[]): number {
  return Object.keys(matchHeaders(category, headers)).length;
}

/**
 * The header of a file whose first row groups columns under merged cells ("Victim" over "Name" and "Age"): a
 * merged cell is read by a streaming reader as its text in the first column and nothing in the others, so each
 * group's title is carried to the right and joined to the second row's header as a group path.
 */
export function combineHeaderRows(first: readonly string[], second: readonly string[]): string[] {
  const width = Math.max(first.length, second.length);
  const out: string[] = [];
  let group = '';
  for (let i = 0; i < width; i++) {
    const top = (first[i] ?? '').trim();
    const below = (second[i] ?? '').trim();
    if (top) group = top;
    out.push(below ? `${group ? `${group}/` : ''}${below}` : top || group);
  }
  return out;
}

/** Whether the second row is more header (a row under merged group titles), not the first row of data. */
export function isSecondHeaderRow(category: CategoryDef, first: readonly string[], second: readonly string[]): boolean {
  // A merged cell reads as its text in its first column and nothing (or, from some writers, the same text) in the others.
  const grouped =
    first.some((cell, i) => !cell.trim() && (second[i] ?? '').trim()) || first.some((cell, i) => i > 0 && cell.trim() !== '' && cell === first[i - 1]) || second.length > first.length;
  if (!grouped) return false;
  return matchedCount(category, second) > matchedCount(category, first);
}

/** The column index of each mapped field's column; a column the file does not have is an error keyed by the field. */
export function resolveColumns(mapping: ImportMapping, headers: readonly string[]): { indexes: Map<string, number>; missing: Record<string, string> } {
  const indexes = new Map<string, number>();
  const missing: Record<string, string> = {};
  for (const [field, source] of Object.entries(mapping)) {
    if (!('column' in source)) continue;
    let index = headers.indexOf(source.column);
    if (index < 0) index = headers.map(headerKey).indexOf(headerKey(source.column));
    if (index < 0) missing[field] = `The file has no column "${source.column}"`;
    else indexes.set(field, index);
  }
  return { indexes, missing };
}
