import { API_BASE, filtersToSearchParams, type SearchFilters } from '@app/shared';

/** The open-data downloads, in the order the pages offer them: spreadsheets first, the reason most people download. */
export const EXPORT_FORMATS = [
  // A byte order mark first, so spreadsheets read the file as UTF-8 (Amharic garbled otherwise).
  { key: 'spreadsheet', file: 'export.csv', extra: { bom: 'true' } },
  { key: 'csv', file: 'export.csv', extra: {} },
  { key: 'ndjson', file: 'export.ndjson', extra: {} },
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The address of a download of the records matching `filters` (the search's query string). */
export function exportHref(format: ExportFormat, filters: Partial<SearchFilters>): string {
  const params = filtersToSearchParams(filters);
  for (const [name, value] of Object.entries(format.extra)) params.set(name, value);
  const qs = params.toString();
  return `${API_BASE}/${format.file}${qs ? `?${qs}` : ''}`;
}

/**
 * The files in the field's formats (ACLED's columns, HXL: docs/export.md). They take no search filters, so they always
 * hold every record the reader may read, and the pages say so.
 */
export const FIELD_FORMATS = [
  { key: 'incidents', href: `${API_BASE}/export/incidents.csv` },
  { key: 'people', href: `${API_BASE}/export/people.csv` },
  { key: 'hdx', href: `${API_BASE}/export/incidents.csv?hxl=1` },
] as const;

/** The column descriptions (a Frictionless Data package). */
export const DATA_PACKAGE_HREF = `${API_BASE}/datapackage.json`;
