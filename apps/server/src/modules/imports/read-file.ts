import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';

/**
 * Reads an uploaded spreadsheet as a stream of rows of text, never holding the file whole: CSV in any common
 * delimiter and in UTF-8 (with or without BOM) or UTF-16 (Excel's "Unicode text"), and XLSX (its first sheet).
 */

export type ImportFormat = 'csv' | 'xlsx';

/** The XLSX container is a zip: "PK\x03\x04". */
export function formatOf(head: Buffer): ImportFormat {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04 ? 'xlsx' : 'csv';
}

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** By the byte order mark; without one, UTF-16 shows as a zero byte beside nearly every ASCII letter. */
export function encodingOf(head: Buffer): { encoding: Encoding; bomLength: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  const sample = head.subarray(0, Math.min(head.length, 512));
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2 === 0) evenZeros++;
    else oddZeros++;
  }
  const half = sample.length / 2;
  if (half > 0 && oddZeros > half * 0.3) return { encoding: 'utf-16le', bomLength: 0 };
  if (half > 0 && evenZeros > half * 0.3) return { encoding: 'utf-16be', bomLength: 0 };
  return { encoding: 'utf-8', bomLength: 0 };
}

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** The delimiter found most often, outside quotes, on the first lines (and equally often on each, where they agree). */
export function sniffDelimiter(text: string): string {
  const lines: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && (ch === '\n' || ch === '\r')) {
      if (current) lines.push(current);
      current = '';
      if (lines.length >= 10) break;
      continue;
    }
    if (!quoted) current += ch;
  }
  if (current && lines.length < 10) lines.push(current);
  let best: string = ',';
  let bestScore = 0;
  for (const delimiter of DELIMITERS) {
    const counts = lines.map((line) => line.split(delimiter).length - 1);
    const first = counts[0] ?? 0;
    // A delimiter that splits every line alike is worth more than one that appears often in some text.
    const steady = counts.filter((c) => c === first).length;
    const score = first * 10 + steady;
    if (first > 0 && score > bestScore) {
      best = delimiter;
      bestScore = score;
    }
  }
  return best;
}

async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function decoder(encoding: Encoding): Transform {
  const text = new TextDecoder(encoding);
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      done(null, text.decode(chunk, { stream: true }));
    },
    flush(done) {
      done(null, text.decode());
    },
  });
}

async function* csvRows(file: string): AsyncGenerator<string[]> {
  const head = await readHead(file, 16 * 1024);
  const { encoding, bomLength } = encodingOf(head);
  const delimiter = sniffDelimiter(new TextDecoder(encoding).decode(head.subarray(bomLength)));
  const parser = createReadStream(file, { start: bomLength, highWaterMark: 64 * 1024 })
    .pipe(decoder(encoding))
    .pipe(parse({ delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, bom: true, trim: false }));
  // Empty lines are kept: a spreadsheet shows them as rows, and the rows are numbered as it numbers them.
  for await (const record of parser as AsyncIterable<string[]>) yield record;
}

/** A cell as text: dates as ISO (their day alone at midnight), numbers as written, rich text and formulas by their text. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
  }
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: string };
    if (Array.isArray(v.richText)) return v.richText.map((part) => part.text).join('');
    if (v.result !== undefined) return cellText(v.result);
    if (v.text !== undefined) return cellText(v.text);
    return '';
  }
  return String(value);
}

async function* xlsxRows(file: string): AsyncGenerator<string[]> {
  // Styles are read so that cells formatted as dates come as dates, not as Excel's day numbers.
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
  for await (const sheet of workbook) {
    let expected = 1;
    for await (const row of sheet) {
      // Rows left empty are not in the file: keep the spreadsheet's numbering.
      for (; expected < row.number; expected++) yield [];
      const values = row.values as unknown[];
      yield values.slice(1).map(cellText);
      expected = row.number + 1;
    }
    // The first sheet only; the rest of the file is not read.
    return;
  }
}

/** Rows of the file, the header first; each row as its cells' text. Rows that are wholly empty come as []. */
export async function* readRows(file: string): AsyncGenerator<string[]> {
  const format = formatOf(await readHead(file, 4));
  yield* format === 'xlsx' ? xlsxRows(file) : csvRows(file);
}
