import { ALL_DATA_FIELD_NAMES, CATEGORY_LIST, REGIONS, paths, type FieldDef, type RecordDto } from '@app/shared';

/**
 * The columns of the CSV export and of its Frictionless Data description (datapackage.json), declared once from the
 * category registry: a category's fields are columns, empty where the category does not have them.
 */

/** Frictionless Table Schema field types used here. */
type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'datetime';

interface ExportColumn {
  name: string;
  type: ColumnType;
  description: string;
  /** The allowed values, where there is a closed list (Table Schema `constraints.enum`). */
  values?: readonly string[];
  value(record: RecordDto, context: { publicUrl: string }): string | number | boolean | null;
}

/** Every field declaration of a name across categories (the first one is its label and kind). */
const fieldByName = new Map<string, FieldDef>();
for (const category of CATEGORY_LIST) for (const field of category.fields) if (!fieldByName.has(field.name)) fieldByName.set(field.name, field);

function fieldType(field: FieldDef | undefined): ColumnType {
  switch (field?.kind) {
    case 'quantity':
      return 'integer';
    case 'coordinate':
      return 'number';
    case 'date':
    case 'datetime':
      return 'datetime';
    default:
      return 'string';
  }
}

const FIELD_DESCRIPTIONS: Record<string, string> = {
  region: `Region of Ethiopia, a code of the site's list (${REGIONS.map((r) => `${r.code}: ${r.en}`).join('; ')}); empty when not recorded`,
  evidence: 'Links to the evidence, separated by a comma and one space',
  happenedOn: 'When it happened (the incident date)',
  createdAt: 'Publication date of the record',
  quantity: 'Number of people (killed, displaced or kidnapped, by category)',
  incidentId: 'The massacre or event (its _id) the person belongs to; empty when none, or when it is not public',
  sources: 'The sources cited, as a JSON array of {kind, title, publisher, date, url, language, note}; a withheld witness testimony shows only that it exists',
  latitude: 'Latitude (WGS 84), rounded to geoPrecision',
  longitude: 'Longitude (WGS 84), rounded to geoPrecision',
  geoPrecision: 'How exactly the place is given: exact, town, woreda, zone or region',
};

const plain = (value: unknown): string | number | null => (value === null || value === undefined ? null : typeof value === 'number' ? value : String(value));

/** Public copies of a record's files: the URL a reader downloads, and the SHA-256 of the original it was made from. */
const files = (record: RecordDto) => record.images.filter((file) => file.imageUrl);

export const EXPORT_COLUMNS: readonly ExportColumn[] = [
  { name: '_id', type: 'string', description: 'Record id (uuid)', value: (r) => r._id },
  {
    name: 'category',
    type: 'string',
    description: 'Category of the record',
    values: CATEGORY_LIST.map((c) => c.slug),
    value: (r) => r.category,
  },
  ...ALL_DATA_FIELD_NAMES.map((name): ExportColumn => {
    const field = fieldByName.get(name);
    return {
      name,
      type: fieldType(field),
      description: FIELD_DESCRIPTIONS[name] ?? `${name} (${field?.kind ?? 'text'})`,
      values: field?.kind === 'region' ? REGIONS.map((r) => r.code) : undefined,
      value: (r) => plain(field?.kind === 'sources' ? JSON.stringify(r[name] ?? []) : r[name]),
    };
  }),
  { name: 'updatedAt', type: 'datetime', description: 'Last change of the record', value: (r) => r.updatedAt },
  { name: 'confirmed', type: 'boolean', description: 'Approved by the site\'s reviewers ("Confirmed")', value: (r) => r.approved },
  { name: 'approvedAt', type: 'datetime', description: 'When it was approved', value: (r) => r.approvedAt },
  { name: 'public', type: 'boolean', description: 'Shown to anonymous readers (false only in signed-in exports)', value: (r) => r.public },
  { name: 'graphic', type: 'boolean', description: 'Marked as graphic (shown behind a warning)', value: (r) => r.graphic },
  { name: 'pageUrl', type: 'string', description: "The record's page on the site", value: (r, { publicUrl }) => `${publicUrl}${paths.detail(r.category, r._id)}` },
  {
    name: 'fileUrls',
    type: 'string',
    description: 'Public copies of the record\'s images and videos (metadata removed), separated by one space',
    value: (r, { publicUrl }) => files(r).map((file) => absolute(file.imageUrl, publicUrl)).join(' '),
  },
  {
    name: 'fileSha256',
    type: 'string',
    description: 'SHA-256 of each file\'s original as uploaded, in the order of fileUrls, separated by one space',
    value: (r) => files(r).map((file) => file.sha256).join(' '),
  },
];

function absolute(url: string, publicUrl: string): string {
  return /^https?:\/\//.test(url) ? url : `${publicUrl}${url}`;
}

/** A record as one CSV row, in column order. */
export function exportRow(record: RecordDto, context: { publicUrl: string }): (string | number | boolean | null)[] {
  return EXPORT_COLUMNS.map((column) => column.value(record, context));
}
