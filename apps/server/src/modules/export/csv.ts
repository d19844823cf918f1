/**
 * CSV as RFC 4180 writes it: fields separated by commas, records by CRLF, and a field quoted (its quotes doubled) when
 * it holds a comma, a quote or a line break. Written here rather than with csv-stringify: its per-field option
 * handling took a third of an export's time, and the rule is these few lines (the tests read the output back with
 * csv-parse).
 */
const NEEDS_QUOTES = /[",\r\n]/;

function field(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text, each ending with CRLF. */
export function csvRows(rows: readonly (readonly (string | number | boolean | null)[])[]): string {
  let out = '';
  for (const row of rows) out += `${row.map(field).join(',')}\r\n`;
  return out;
}
