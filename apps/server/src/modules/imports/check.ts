import { and, eq, inArray, isNull } from 'drizzle-orm';
import { can, type Actor, type CategoryDef, type ImportCheck, type ImportMapping } from '@app/shared';
import type { Db } from '../../db';
import { importProblems, importRows, records } from '../../db/schema';
import { findDuplicates } from '../duplicates/check';
import { readRows } from './read-file';
import { IncidentResolver, RowReader, mappingFor, readHeader, type FileHeader, type PreparedRow } from './rows';

/**
 * The check of an uploaded file before anything is written: every row read and validated, likely duplicates found
 * against the site's records and within the file, rows a live record already came from counted. Problems are kept in
 * import_problems (paged on the screen, downloaded as CSV); the answer carries the first of them.
 */

const SHOWN = 1000;
const BATCH = 200;

interface ProblemRow {
  importId: string;
  seq: number;
  row: number;
  kind: 'error' | 'duplicate';
  field: string;
  message: string;
  matches: unknown[] | null;
}

/** The rows of a file after its header, each with its spreadsheet number. */
export async function* dataRows(file: string, category: CategoryDef): AsyncGenerator<{ header: FileHeader } | { cells: string[]; row: number }> {
  const firstRows: string[][] = [];
  let header: FileHeader | null = null;
  let row = 0;
  for await (const cells of readRows(file)) {
    row++;
    if (!header) {
      firstRows.push(cells);
      if (firstRows.length < 3) continue;
      header = readHeader(category, firstRows[0]!, firstRows[1], firstRows[2]);
      yield { header };
      for (let i = header.headerRows; i < firstRows.length; i++) yield { cells: firstRows[i]!, row: i + 1 };
      continue;
    }
    yield { cells, row };
  }
  if (!header && firstRows.length) {
    header = readHeader(category, firstRows[0]!, firstRows[1], firstRows[2]);
    yield { header };
    for (let i = header.headerRows; i < firstRows.length; i++) yield { cells: firstRows[i]!, row: i + 1 };
  }
}

/** Fingerprints of these rows that live records imported before already have. */
export async function alreadyImported(db: Db, category: string, fingerprints: string[]): Promise<Set<string>> {
  if (!fingerprints.length) return new Set();
  const found = await db
    .select({ fingerprint: importRows.fingerprint })
    .from(importRows)
    .innerJoin(records, eq(records.id, importRows.recordId))
    .where(and(eq(importRows.category, category), inArray(importRows.fingerprint, fingerprints), isNull(records.deletedAt)));
  return new Set(found.map((f) => f.fingerprint));
}

export async function checkFile(db: Db, options: { importId: string; file: string; category: CategoryDef; mapping?: ImportMapping; actor: Actor }): Promise<Omit<ImportCheck, 'id' | 'category'>> {
  const { importId, file, category, actor } = options;
  const resolver = new IncidentResolver(db);
  const result = { rows: 0, valid: 0, alreadyImported: 0, columns: [] as string[], mapping: {} as ImportMapping, errors: [] as ImportCheck['errors'], duplicates: [] as ImportCheck['duplicates'], errorCount: 0, duplicateCount: 0 };
  let reader: RowReader | null = null;
  let batch: PreparedRow[] = [];
  let seq = 0;
  const seenPeople = new Map<string, number>();
  const seenFingerprints = new Map<string, number>();
  const flush = async () => {
    const problems: ProblemRow[] = [];
    const before = await alreadyImported(db, category.slug, batch.filter((p) => p.input).map((p) => p.fingerprint));
    for (const prepared of batch) {
      for (const [field, message] of Object.entries(prepared.errors)) {
        problems.push({ importId, seq: seq++, row: prepared.row, kind: 'error', field, message, matches: null });
        result.errorCount++;
        if (result.errors.length < SHOWN) result.errors.push({ row: prepared.row, field, message });
      }
      if (!prepared.input) continue;
      result.valid++;
      if (before.has(prepared.fingerprint)) result.alreadyImported++;
    }
    const duplicates = await findBatchDuplicates(db, reader!, batch, seenPeople, seenFingerprints, can.readPrivate(actor));
    for (const { row, matches } of duplicates) {
      const message = matches.map((m) => ('row' in m && m.row ? `row ${m.row}` : `${m.title} (${Math.round((m.score ?? 0) * 100)}%)`)).join('; ');
      problems.push({ importId, seq: seq++, row, kind: 'duplicate', field: category.fields.some((f) => f.name === 'fullName') ? 'fullName' : 'title', message: `Likely the same as ${message}`, matches });
      result.duplicateCount++;
      if (result.duplicates.length < SHOWN) result.duplicates.push({ row, matches });
    }
    for (let i = 0; i < problems.length; i += 500) await db.insert(importProblems).values(problems.slice(i, i + 500));
    batch = [];
  };
  for await (const item of dataRows(file, category)) {
    if ('header' in item) {
      result.columns = item.header.headers;
      result.mapping = mappingFor(category, item.header, options.mapping);
      reader = new RowReader(category, result.mapping, item.header, resolver);
      continue;
    }
    const prepared = await reader!.prepare(item.cells, item.row);
    if (!prepared) continue;
    result.rows++;
    batch.push(prepared);
    if (batch.length >= BATCH) await flush();
  }
  if (reader) await flush();
  return result;
}

type Match = ImportCheck['duplicates'][number]['matches'][number];

/** Likely duplicates of the batch's valid person rows: earlier rows of the file, then the site's records (the add form's check). */
async function findBatchDuplicates(db: Db, reader: RowReader, batch: PreparedRow[], seenPeople: Map<string, number>, seenFingerprints: Map<string, number>, includePrivate: boolean) {
  const out: { row: number; matches: Match[] }[] = [];
  const checks: Promise<void>[] = [];
  for (const prepared of batch) {
    if (!prepared.input) continue;
    const sameRow = seenFingerprints.get(prepared.fingerprint);
    if (sameRow === undefined) seenFingerprints.set(prepared.fingerprint, prepared.row);
    const person = reader.personOf(prepared);
    const earlier = sameRow ?? (person ? seenPeople.get(person.key) : undefined);
    if (person && !seenPeople.has(person.key)) seenPeople.set(person.key, prepared.row);
    if (earlier !== undefined) {
      out.push({ row: prepared.row, matches: [{ row: earlier }] });
      continue;
    }
    if (!person) continue;
    const entry = { row: prepared.row, matches: [] as Match[] };
    out.push(entry);
    checks.push(
      findDuplicates(db, reader.categorySlug, { name: person.name, happenedOn: person.happenedOn, woreda: person.woreda, incidentId: person.incidentId }, includePrivate).then((found) => {
        entry.matches = found.map((c) => ({ _id: c._id, title: c.fullName ?? c.title, score: c.score }));
      }),
    );
    // A few at a time: each check reads on its own connections.
    if (checks.length >= 4) await Promise.all(checks.splice(0));
  }
  await Promise.all(checks);
  return out.filter((entry) => entry.matches.length > 0).sort((a, b) => a.row - b.row);
}
