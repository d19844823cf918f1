/**
 * CSV as RFC 4180 writes it: fields separated by commas, records by CRLF, and a field quoted (its quotes doubled) when
 * it holds a comma, a quote or a line break. Written here rather than with csv-stringify: its per-field option
 * handling took a third of an export's time, and the rule is these few lines (the tests read the output back with
 * csv-parse).
 *
 * Every CSV the site writes goes through here, and anyone's record is in the public export at once: a text cell that a
 * spreadsheet would run as a formula (`=HYPERLINK(...)`, `+`, `-`, `@`, or a leading tab or carriage return) is written
 * with a leading `'`, OWASP's rule for CSV injection, so Excel and LibreOffice show it as text. Numbers are written as
 * numbers (a negative longitude stays -12.5): only text is neutralised. A `;` makes a field quoted too, so that a
 * spreadsheet set to read `;` as the separator cannot split a cell into a new one that starts with `=`.
 */
const NEEDS_QUOTES = /[",;\r\n]/;
/** The first characters that make a spreadsheet read a cell as a formula (OWASP, CSV Injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

function field(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text, each ending with CRLF. */
export function csvRows(rows: readonly (readonly (string | number | boolean | null)[])[]): string {
  let out = '';
  for (const row of rows) out += `${row.map(field).join(',')}\r\n`;
  return out;
}
