import ExcelJS from 'exceljs';
import { API_BASE } from '@app/shared';
import type { FastifyInstance } from 'fastify';
import { call } from './helpers';
import { multipart } from './records-helpers';

/** Files as documenters' tools save them, made here (every name in them is made-up sample data). */

/** Excel's "Unicode Text": UTF-16LE with its byte order mark, tab-separated. */
export function utf16Excel(rows: string[][]): Buffer {
  const text = rows.map((r) => r.join('\t')).join('\r\n') + '\r\n';
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

/** A semicolon CSV as a European Excel writes it, UTF-8 with a BOM; cells with ; or " quoted. */
export function semicolonCsv(rows: string[][]): Buffer {
  const cell = (c: string) => (/[;"\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
  return Buffer.from(`\uFEFF${rows.map((r) => r.map(cell).join(';')).join('\r\n')}\r\n`, 'utf8');
}

export function commaCsv(rows: string[][]): Buffer {
  const cell = (c: string) => (/[,"\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
  return Buffer.from(`${rows.map((r) => r.map(cell).join(',')).join('\n')}\n`, 'utf8');
}

/** A workbook whose first row groups the columns under merged cells, the field headers in the second. */
export async function xlsxWithMergedHeader(groups: { title: string; span: number }[], headers: string[], rows: (string | number | Date)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sample list');
  let column = 1;
  for (const group of groups) {
    sheet.getCell(1, column).value = group.title;
    if (group.span > 1) sheet.mergeCells(1, column, 1, column + group.span - 1);
    column += group.span;
  }
  sheet.addRow(headers);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function checkFile(app: FastifyInstance, auth: Record<string, string>, file: Buffer, category: string, options: { filename?: string; mapping?: unknown } = {}) {
  const fields: Record<string, string> = { category };
  if (options.mapping) fields.mapping = JSON.stringify(options.mapping);
  const body = multipart(fields, [{ field: 'file', filename: options.filename ?? 'sample.csv', type: 'text/csv', data: file }]);
  return call(app, { method: 'POST', url: `${API_BASE}/imports`, headers: { ...auth, ...body.headers }, payload: body.payload });
}

/** Runs the queued jobs until the import is no longer queued or running. */
export async function commitAndRun(app: FastifyInstance, auth: Record<string, string>, id: string, body: Record<string, unknown> = {}) {
  const res = await call(app, { method: 'POST', url: `${API_BASE}/imports/${id}/commit`, headers: auth, payload: body });
  if (res.status !== 202) throw new Error(`commit answered ${res.status}: ${JSON.stringify(res.body)}`);
  await app.jobs.drain();
  return (await call(app, { method: 'GET', url: `${API_BASE}/imports/${id}`, headers: auth })).body;
}
