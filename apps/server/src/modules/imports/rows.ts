import { createHash } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import anyAscii from 'any-ascii';
import { dataFields, fieldErrors, getCategory, isUuid, recordInputSchema, type CategoryDef, type CategorySlug, type FieldDef, type ImportMapping, type RecordInput } from '@app/shared';
import type { Db } from '../../db';
import { importRows, records } from '../../db/schema';
import { SOURCE_KEY_COLUMNS, combineHeaderRows, isSecondHeaderRow, matchHeaders, resolveColumns } from './headers';
import { readValue } from './values';

/**
 * One data row of a file, read as the add form would have been filled in and checked by the category's own schema.
 * The check and the commit job both read rows through this, so what was checked is what is written.
 */
export interface PreparedRow {
  /** As a spreadsheet numbers it: the header is row 1. */
  row: number;
  /** Form values by field name, as the create route takes them. */
  fields: Record<string, string>;
  input: RecordInput | null;
  errors: Record<string, string>;
  fingerprint: string;
  /** The row's id in the site it was exported from (person_id, event_id). */
  sourceKey: string | null;
}

export interface FileHeader {
  headers: string[];
  /** Rows the header takes (2 under merged group cells); the HXL hashtag row under it is skipped too. */
  headerRows: number;
}

/** The header of the file from its first rows: a second header row under merged cells joined, an HXL row skipped. */
export function readHeader(category: CategoryDef, first: string[], second: string[] | undefined, third: string[] | undefined): FileHeader {
  const isHxl = (row: string[] | undefined) => Boolean(row?.length) && row!.filter((c) => c.trim()).every((c) => c.trim().startsWith('#'));
  if (second && isSecondHeaderRow(category, first, second)) {
    return { headers: combineHeaderRows(first, second), headerRows: isHxl(third) ? 3 : 2 };
  }
  return { headers: first.map((h) => h.replace(/^\uFEFF/, '').trim()), headerRows: isHxl(second) ? 2 : 1 };
}

const personKey = (name: string) => anyAscii(name).toLowerCase().replace(/[^a-z]/g, '').replace(/q/g, 'k').replace(/(.)\1+/g, '$1');

/** Incident references resolved once per distinct value: a record id, an exported event_id, or a case number. */
export class IncidentResolver {
  private readonly known = new Map<string, string | null>();
  constructor(private readonly db: Db) {}

  async resolve(field: FieldDef, value: string): Promise<string | null> {
    const key = value.trim().toLowerCase();
    if (this.known.has(key)) return this.known.get(key)!;
    const categories = [...(field.linksTo ?? [])];
    let found: string | null = null;
    if (isUuid(key)) {
      const [own] = await this.db.select({ id: records.id }).from(records).where(and(eq(records.id, key), inArray(records.category, categories), isNull(records.deletedAt))).limit(1);
      const [imported] = own ? [] : await this.db.select({ id: importRows.recordId }).from(importRows).where(and(eq(importRows.sourceKey, key), inArray(importRows.category, categories))).limit(1);
      found = own?.id ?? imported?.id ?? null;
    }
    if (!found) {
      const [byCase] = await this.db
        .select({ id: records.id })
        .from(records)
        .where(and(sql`lower(${records.caseNum}) = ${key}`, inArray(records.category, categories), isNull(records.deletedAt)))
        .limit(1);
      found = byCase?.id ?? null;
    }
    this.known.set(key, found);
    return found;
  }
}

export class RowReader {
  private readonly columns: Map<string, number>;
  readonly missing: Record<string, string>;
  private readonly sourceKeyIndex: number;
  /** A `category` column (the site's exports hold several): rows of another category are not this import's. */
  private readonly categoryIndex: number;
  private readonly schema: ReturnType<typeof recordInputSchema>;

  readonly categorySlug: CategorySlug;

  constructor(
    private readonly category: CategoryDef,
    private readonly mapping: ImportMapping,
    header: FileHeader,
    private readonly incidents: IncidentResolver,
  ) {
    const { indexes, missing } = resolveColumns(mapping, header.headers);
    this.columns = indexes;
    this.missing = missing;
    this.categoryIndex = header.headers.findIndex((h) => h.trim().toLowerCase() === 'category');
    this.sourceKeyIndex = header.headers.findIndex((h) => (SOURCE_KEY_COLUMNS as readonly string[]).includes(h.trim().toLowerCase()));
    this.schema = recordInputSchema(category);
    this.categorySlug = category.slug;
  }

  /** The row read and checked; null for a row with nothing in it. */
  async prepare(cells: string[], row: number): Promise<PreparedRow | null> {
    if (!cells.some((c) => c.trim())) return null;
    const rowCategory = this.categoryIndex >= 0 ? (cells[this.categoryIndex] ?? '').trim().toLowerCase() : '';
    if (rowCategory && getCategory(rowCategory) && rowCategory !== this.category.slug) return null;
    const fields: Record<string, string> = {};
    const errors: Record<string, string> = { ...this.missing };
    for (const field of dataFields(this.category)) {
      const source = this.mapping[field.name];
      if (!source) continue;
      const index = this.columns.get(field.name);
      if ('column' in source && index === undefined) continue;
      const value = readValue(field, source, index === undefined ? '' : (cells[index] ?? ''));
      if (!value) continue;
      if (field.kind === 'incident') {
        const id = await this.incidents.resolve(field, value);
        if (!id) errors[field.name] = `No ${field.linksTo?.join(' or ')} record has the id or case number "${value.slice(0, 100)}"`;
        else fields[field.name] = id;
        continue;
      }
      fields[field.name] = value;
    }
    const parsed = this.schema.safeParse(fields);
    if (!parsed.success) for (const [field, message] of Object.entries(fieldErrors(parsed.error))) errors[field] ??= message;
    const sorted = Object.keys(fields).sort().map((k) => [k, fields[k]]);
    const fingerprint = createHash('sha256').update(`${this.category.slug}\n${JSON.stringify(sorted)}`).digest('hex');
    const sourceKey = this.sourceKeyIndex >= 0 ? (cells[this.sourceKeyIndex] ?? '').trim().toLowerCase() || null : null;
    const ok = Object.keys(errors).length === 0 && parsed.success;
    return { row, fields, input: ok ? (parsed.data as RecordInput) : null, errors, fingerprint, sourceKey };
  }

  /** The name, day and woreda a duplicate check compares, for people categories. */
  personOf(prepared: PreparedRow): { name: string; key: string; happenedOn?: string; woreda?: string; incidentId?: string } | null {
    if (!this.category.checksDuplicates) return null;
    const name = (prepared.fields.fullName || prepared.fields.title || '').trim();
    if (name.length < 2) return null;
    const happenedOn = prepared.fields.happenedOn?.slice(0, 10);
    const woreda = prepared.fields.woreda;
    const key = `${personKey(name)}|${happenedOn ?? ''}|${woreda ? personKey(woreda) : ''}`;
    return { name, key, happenedOn, woreda, incidentId: prepared.fields.incidentId };
  }
}

/** The mapping to use: the one sent, else the one the headers give. */
export function mappingFor(category: CategoryDef, header: FileHeader, sent: ImportMapping | undefined): ImportMapping {
  return sent ?? matchHeaders(category, header.headers);
}
