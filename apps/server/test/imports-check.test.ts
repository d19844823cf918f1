import { describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { call } from './helpers';
import { useTestApp } from './fixtures/app';
import { checkFile, semicolonCsv, utf16Excel, xlsxWithMergedHeader } from './imports-helpers';
import { ethiopicToGregorian } from '../src/modules/imports/ethiopic';
import { readDate, readRegion, readWholeNumber } from '../src/modules/imports/values';
import { sniffDelimiter } from '../src/modules/imports/read-file';

/** The check of an import (issue 57 items 1 and 2): files as the tools save them, nothing written. Sample data only. */
describe('import check', () => {
  const { t, author, other } = useTestApp({ author: 'contributor', other: 'contributor' });
  const count = async (slug: string) => Number((await call(t.app, { method: 'GET', url: `${API_BASE}/${slug}?limit=1`, headers: author.auth })).headers['x-total-count']);

  it('reads an Excel-saved UTF-16 file (tab-separated) by its English headers, numbering rows from the header', async () => {
    const file = utf16Excel([
      ['Title', 'Full name', 'Region', 'Woreda', 'Killing date and time', 'Description'],
      ['Sample victim one', 'Sample Person Alemu', 'Amhara', 'Sample woreda', '04/03/2021', 'Sample description (test data)'],
      ['', 'Sample Person Missing Title', 'Oromia', '', '2021-03-05', 'Sample description'],
      ['Sample victim three', 'Sample Person Bekele', 'Nowhere land', '', '31/02/2021', 'Sample description'],
    ]);
    const before = await count('victims');
    const res = await checkFile(t.app, author.auth, file, 'victims', { filename: 'sample-unicode.txt' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.mapping).toMatchObject({ title: { column: 'Title' }, fullName: { column: 'Full name' }, region: { column: 'Region' }, happenedOn: { column: 'Killing date and time' }, description: { column: 'Description' } });
    expect(res.body).toMatchObject({ rows: 3, valid: 1, errorCount: 3 });
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { row: 3, field: 'title', message: 'This field is required' },
        { row: 4, field: 'region', message: 'Must be one of the listed regions' },
        expect.objectContaining({ row: 4, field: 'happenedOn' }),
      ]),
    );
    expect(await count('victims')).toBe(before);
  });

  it('reads a semicolon CSV with decimal commas, spaced thousands and a p-code', async () => {
    const file = semicolonCsv([
      ['caseNum', 'title', 'killed', 'admin1_pcode', 'latitude', 'longitude', 'happenedOn', 'description'],
      ['SAMPLE-001', 'Sample massacre; test data', '1 200', 'ET03', '11,59', '37,39', '4 March 2021', 'Sample description'],
      ['SAMPLE-002', 'Sample massacre two', 'many', 'ET03', '11,5', '37,4', '2021-03-04', 'Sample description'],
    ]);
    const res = await checkFile(t.app, author.auth, file, 'massacres');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.mapping).toMatchObject({ caseNum: { column: 'caseNum' }, quantity: { column: 'killed' }, region: { column: 'admin1_pcode' } });
    expect(res.body.valid).toBe(1);
    expect(res.body.errors).toEqual([{ row: 3, field: 'quantity', message: 'Must be a whole number' }]);
  });

  it('reads an XLSX whose header groups columns under merged cells', async () => {
    const file = await xlsxWithMergedHeader(
      [{ title: 'Victim', span: 3 }, { title: 'Where', span: 2 }],
      ['Title', 'Full name', 'Description', 'Region', 'Zone'],
      [
        ['Sample xlsx victim', 'Sample Person Xlsx', 'Sample description', 'Amhara', 'Sample zone'],
        ['Sample xlsx victim two', 'Sample Person Xlsx Two', 'Sample description', 'ET-AM', 'Sample zone'],
      ],
    );
    const res = await checkFile(t.app, author.auth, file, 'victims', { filename: 'sample.xlsx' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.columns.slice(0, 2)).toEqual(['Victim/Title', 'Victim/Full name']);
    expect(res.body.mapping).toMatchObject({ title: { column: 'Victim/Title' }, region: { column: 'Where/Region' }, zone: { column: 'Where/Zone' } });
    expect(res.body).toMatchObject({ rows: 2, valid: 2, errorCount: 0 });
  });

  it('reads a KoboToolbox export by its group paths, with Amharic values and an Ethiopian date', async () => {
    const file = semicolonCsv([
      ['start', 'group_victim/title', 'group_victim/full_name', 'group_place/region', 'group_place/woreda', 'group_victim/happenedOn', 'group_victim/description', '_id', '_uuid'],
      ['2021-03-10', 'የሙከራ ተጎጂ (Sample)', 'የሙከራ ስም ሰው', 'አማራ ክልል', 'የሙከራ ወረዳ', '25/06/2013 ዓ.ም.', 'የሙከራ መግለጫ', '1', 'sample-uuid-1'],
    ]);
    const res = await checkFile(t.app, author.auth, file, 'victims', { filename: 'kobo-sample.csv' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.mapping).toMatchObject({ title: { column: 'group_victim/title' }, fullName: { column: 'group_victim/full_name' }, region: { column: 'group_place/region' }, happenedOn: { column: 'group_victim/happenedOn' } });
    expect(res.body).toMatchObject({ rows: 1, valid: 1, errorCount: 0 });
  });

  it('matches Amharic headers', async () => {
    const file = semicolonCsv([
      ['ርዕስ', 'ሙሉ ስም', 'ክልል', 'መግለጫ'],
      ['የሙከራ ርዕስ', 'የሙከራ ሰው', 'አማራ', 'የሙከራ መግለጫ'],
    ]);
    const res = await checkFile(t.app, author.auth, file, 'victims');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.mapping).toMatchObject({ title: { column: 'ርዕስ' }, fullName: { column: 'ሙሉ ስም' }, region: { column: 'ክልል' } });
    expect(res.body.valid).toBe(1);
  });

  it('finds likely duplicates against the site and within the file', async () => {
    const made = await call(t.app, { method: 'POST', url: `${API_BASE}/victims`, headers: author.auth, payload: { title: 'Sample Person Gebreyes Zzimport', fullName: 'Sample Person Gebreyes Zzimport', description: 'Sample', happenedOn: '2021-03-04', woreda: 'Sample Woreda' } });
    expect(made.status).toBe(201);
    const row = ['Sample Person Gebreyes Zzimport', 'Sample Person Gebreyes Zzimport', '2021-03-04', 'Sample Woreda', 'Sample description'];
    const file = semicolonCsv([['title', 'fullName', 'happenedOn', 'woreda', 'description'], row, ['Sample other person Qqunique', 'Sample other person Qqunique', '2020-01-01', '', 'x'], ['Sample other person Qqunique', 'Sample other person Qqunique', '2020-01-01', '', 'x']]);
    const res = await checkFile(t.app, author.auth, file, 'victims');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.duplicates).toEqual([
      { row: 2, matches: [expect.objectContaining({ _id: made.body._id })] },
      { row: 4, matches: [{ row: 3 }] },
    ]);
    const problems = await call(t.app, { method: 'GET', url: `${API_BASE}/imports/${res.body.id}/problems?limit=1`, headers: author.auth });
    expect(problems.headers['x-total-count']).toBe('2');
    expect(problems.body).toEqual([expect.objectContaining({ row: 2, kind: 'duplicate' })]);
    const csv = await t.app.inject({ method: 'GET', url: `${API_BASE}/imports/${res.body.id}/problems.csv`, headers: author.auth });
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.body.split('\r\n')[0]).toBe('\uFEFFrow,kind,field,message');
    expect(csv.body).toContain('4,duplicate,fullName,Likely the same as row 3');
    // Another contributor's import is not theirs to read.
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/imports/${res.body.id}/problems`, headers: other.auth })).status).toBe(404);
  });

  it('refuses what it cannot take with field errors, never a 500', async () => {
    const noCategory = await checkFile(t.app, author.auth, semicolonCsv([['title'], ['x']]), 'nonsense');
    expect(noCategory.status).toBe(400);
    expect(noCategory.body.category).toBeTruthy();
    const badMapping = await checkFile(t.app, author.auth, semicolonCsv([['title'], ['x']]), 'victims', { mapping: { nofield: { column: 'title' } } });
    expect(badMapping.status).toBe(400);
    expect(badMapping.body.mapping).toMatch(/no field "nofield"/);
    const missingColumn = await checkFile(t.app, author.auth, semicolonCsv([['title'], ['x']]), 'victims', { mapping: { title: { column: 'Nope' } } });
    expect(missingColumn.body.errors[0]).toEqual({ row: 2, field: 'title', message: 'The file has no column "Nope"' });
    const brokenXlsx = await checkFile(t.app, author.auth, Buffer.from('PK\u0003\u0004 not really a zip'), 'victims');
    expect(brokenXlsx.status).toBe(400);
    expect(brokenXlsx.body.file).toMatch(/Excel/);
    expect((await checkFile(t.app, {}, semicolonCsv([['title']]), 'victims')).status).toBe(401);
  });
});

describe('import value readers', () => {
  it('converts Ethiopian dates through Intl (leap years, Pagume)', () => {
    expect(ethiopicToGregorian(2013, 6, 25)?.toISOString().slice(0, 10)).toBe('2021-03-04');
    expect(ethiopicToGregorian(2016, 1, 1)?.toISOString().slice(0, 10)).toBe('2023-09-12');
    expect(ethiopicToGregorian(2015, 13, 6)?.toISOString().slice(0, 10)).toBe('2023-09-11');
    expect(ethiopicToGregorian(2014, 13, 6)).toBeNull();
    expect(readDate('25 የካቲት 2013')).toBe('2021-03-04');
    expect(readDate('2013-06-25', 'ethiopic')).toBe('2021-03-04');
    expect(readDate('25/06/2013 E.C.')).toBe('2021-03-04');
  });
  it('reads dates, numbers, regions and delimiters as written', () => {
    expect(readDate('March 4, 2021')).toBe('2021-03-04');
    expect(readDate('03/25/2021')).toBe('2021-03-25');
    expect(readDate('4.3.2021 14:30')).toBe('2021-03-04T14:30:00');
    expect(readDate('44259')).toBe('2021-03-04T00:00:00');
    expect(readWholeNumber('1,200')).toBe('1200');
    expect(readWholeNumber("1'200")).toBe('1200');
    expect(readWholeNumber('12.5')).toBe('12.5');
    expect(readRegion('Amhara National Regional State')).toBe('amhara');
    expect(readRegion('ኦሮሚያ ክልል')).toBe('oromia');
    expect(readRegion('ET-TI')).toBe('tigray');
    expect(sniffDelimiter('a;b;"c,d"\n1;2;3\n')).toBe(';');
    expect(sniffDelimiter('a\tb\tc\n1\t2\t3')).toBe('\t');
    expect(sniffDelimiter('a,b\n1,2')).toBe(',');
  });
});
