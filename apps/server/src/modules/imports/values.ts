import { REGIONS, type FieldDef, type ImportFieldSource } from '@app/shared';
import { ethiopicMonthNumber, ethiopicToGregorian } from './ethiopic';

/**
 * Reads a cell's text as a field's form value: what a person would have typed into the add form for it. What cannot
 * be read is passed on as written, so the category's own schema refuses it with the form's message.
 */

const GREGORIAN_MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** Marks of an Ethiopian-calendar date: "E.C.", "EC", "ዓ.ም." (ዓመተ ምሕረት). */
const ETHIOPIC_MARK = /\s*(\(?\s*e\.?\s?c\.?\s*\)?|ዓ\s*[./]?\s*ም\s*\.?)\s*$/iu;

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

function gregorianMonth(name: string): number | null {
  const index = GREGORIAN_MONTHS.indexOf(name.trim().toLowerCase().slice(0, 3));
  return index < 0 ? null : index + 1;
}

/** Day, month and year of a date written with numbers or a month's name, with no calendar assumed. */
function dayParts(text: string, monthOf: (name: string) => number | null): { y: number; m: number; d: number; time: string } | null {
  const [datePart = '', ...rest] = text.trim().split(/[ T](?=\d{1,2}:\d{2})/);
  const time = rest.join(' ').trim();
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(datePart))) return { y: +m[1]!, m: +m[2]!, d: +m[3]!, time };
  if ((m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(datePart))) {
    // Day first, as Ethiopia and most of the world write it; a first number over 12 cannot be a month, a second can.
    const [a, b] = [+m[1]!, +m[2]!];
    return b > 12 && a <= 12 ? { y: +m[3]!, m: a, d: b, time } : { y: +m[3]!, m: b, d: a, time };
  }
  if ((m = /^(\d{1,2})[\s-]+([^\s\d,-]+)[\s,-]+(\d{4})$/u.exec(datePart))) {
    const month = monthOf(m[2]!);
    return month ? { y: +m[3]!, m: month, d: +m[1]!, time } : null;
  }
  if ((m = /^([^\s\d,-]+)[\s-]+(\d{1,2}),?[\s-]+(\d{4})$/u.exec(datePart))) {
    const month = monthOf(m[1]!);
    return month ? { y: +m[3]!, m: month, d: +m[2]!, time } : null;
  }
  return null;
}

/** Excel's day number (a date column saved as a number): day 25569 is 1970-01-01. */
function excelSerial(text: string): string | null {
  if (!/^\d{5}(\.\d+)?$/.test(text)) return null;
  const serial = Number(text);
  if (serial < 20_000 || serial > 80_000) return null;
  return new Date(Math.round((serial - 25_569) * 86_400_000)).toISOString().slice(0, 19);
}

/** A date as the form writes it (YYYY-MM-DD[THH:mm:ss]); Ethiopian dates (marked, or in a column said to be) converted. */
export function readDate(raw: string, calendar?: 'gregorian' | 'ethiopic'): string {
  let text = raw.trim();
  if (!text) return '';
  const marked = ETHIOPIC_MARK.test(text);
  if (marked) text = text.replace(ETHIOPIC_MARK, '');
  const ethiopicName = /[^\s\d,./:-]/u.test(text) && dayParts(text, ethiopicMonthNumber) !== null;
  if (marked || calendar === 'ethiopic' || (ethiopicName && !dayParts(text, gregorianMonth))) {
    const parts = dayParts(text, ethiopicMonthNumber);
    if (!parts) return raw;
    const day = ethiopicToGregorian(parts.y, parts.m, parts.d);
    if (!day) return raw;
    return `${day.toISOString().slice(0, 10)}${parts.time ? `T${normaliseTime(parts.time)}` : ''}`;
  }
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) return text;
  const serial = excelSerial(text);
  if (serial) return serial;
  const parts = dayParts(text, gregorianMonth);
  if (!parts) return raw;
  return `${isoDay(parts.y, parts.m, parts.d)}${parts.time ? `T${normaliseTime(parts.time)}` : ''}`;
}

function normaliseTime(time: string): string {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?$/i.exec(time.trim());
  if (!m) return time;
  let hours = Number(m[1]);
  if (m[4]?.toLowerCase() === 'pm' && hours < 12) hours += 12;
  if (m[4]?.toLowerCase() === 'am' && hours === 12) hours = 0;
  return `${pad(hours)}:${m[2]}:${m[3] ?? '00'}`;
}

/** A whole number with thousands separators (1,200; 1 200; 1.200; 1'200) or as Excel wrote it (1200.0). */
export function readWholeNumber(raw: string): string {
  const text = raw.trim().replace(/[\s\u00a0\u202f']/g, '');
  if (/^-?\d{1,3}([,.]\d{3})+$/.test(text)) return text.replace(/[,.]/g, '');
  if (/^-?\d+\.0+$/.test(text)) return text.replace(/\.0+$/, '');
  return text;
}

/** Decimal degrees, with a decimal comma where the file uses one (a semicolon CSV from a European Excel). */
export function readDecimal(raw: string): string {
  const text = raw.trim();
  return /^-?\d+,\d+$/.test(text) ? text.replace(',', '.') : text;
}

const regionKey = (text: string) =>
  text
    .normalize('NFC')
    .toLowerCase()
    .replace(/\b(national\s+)?(regional\s+)?(state|region|city administration)\b|ክልል|ብሔራዊ|መስተዳድር/gu, '')
    .replace(/[\s'’-]+/g, '');

const REGION_NAMES = new Map<string, string>(
  REGIONS.flatMap((r) => [r.code, r.en, r.am, 'iso' in r ? r.iso : '', 'pcode' in r ? r.pcode : ''].filter(Boolean).map((name) => [regionKey(name), r.code] as const)),
);

/** A region by its code, English or Amharic name, ISO 3166-2 code or OCHA p-code. */
export function readRegion(raw: string): string {
  const text = raw.trim();
  return text ? (REGION_NAMES.get(regionKey(text)) ?? text) : '';
}

/** The export's rule against formulas (docs/export.md): a text that starts with = + - @ tab or CR was written after a '. */
export function readText(raw: string): string {
  return /^'[=+\-@\t\r]/.test(raw) ? raw.slice(1) : raw;
}

/** Links separated by ";", "," or new lines (the exports join sources with "; "). */
export function splitLinks(raw: string): string[] {
  return raw
    .split(/[;\n]+|,\s*(?=https?:)/i)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Sources: JSON as the API takes it, else links, each cited as a source of kind "other" titled by its address. */
export function readSources(raw: string): string {
  const text = raw.trim();
  if (!text) return '';
  if (text.startsWith('[')) return text;
  return JSON.stringify(splitLinks(text).map((url) => ({ kind: 'other', title: url.slice(0, 300), url })));
}

/** The form value of `field` from its source in the row (`cells` the row, `index` the column). */
export function readValue(field: FieldDef, source: ImportFieldSource, cell: string): string {
  const raw = 'value' in source ? source.value : cell;
  const calendar = 'column' in source ? source.calendar : undefined;
  switch (field.kind) {
    case 'date':
    case 'datetime':
      return readDate(raw, calendar);
    case 'quantity':
      return readWholeNumber(raw);
    case 'coordinate':
      return readDecimal(raw);
    case 'region':
      return readRegion(raw);
    case 'urlList':
      return splitLinks(raw).join(', ');
    case 'sources':
      return readSources(raw);
    case 'choice': {
      const lower = raw.trim().toLowerCase();
      return (field.options ?? []).find((o) => o.toLowerCase() === lower) ?? raw.trim();
    }
    default:
      return readText(raw).trim();
  }
}
