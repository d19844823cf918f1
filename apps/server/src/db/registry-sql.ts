import { getTableColumns } from 'drizzle-orm';
import { CATEGORY_LIST, dataFieldKind, searchFields, statisticsFields, UNKNOWN_REGION, type SearchWeight } from '@app/shared';
import { stemmerSql } from './amharic';
import { PERSON_REASON_INDEXES, personNameIndexes, personNameKeySql } from './person-names';
import { records } from './schema';

/**
 * The SQL that the category registry decides (FieldDef.search and FieldDef.statistics): the generated search columns
 * of records, the stemmer they use, and the trigger that keeps record_stats. `npm run db:generate` writes what differs
 * from the latest migrations into a new migration (registry-migration.ts, from what registry-diff.ts finds);
 * registry-sql.test.ts fails, naming the field, when a migration is missing.
 */

/** What the generated SQL is made from: the registry's declarations by default, another set in tests. */
export interface RegistryFields {
  /** Searchable fields with their weight. */
  search: readonly { name: string; weight: SearchWeight }[];
  /** Fields counted per value (region or text). */
  dimensions: readonly string[];
  /** The field summed (people killed, displaced...). */
  quantity: readonly string[];
  /** Fields that date a record's events, the first one set wins. */
  incidentDate: readonly string[];
}

export function registryFields(): RegistryFields {
  return {
    search: searchFields(),
    dimensions: statisticsFields('dimension'),
    quantity: statisticsFields('quantity'),
    incidentDate: statisticsFields('incidentDate'),
  };
}

/**
 * One statement (or a few) of the generated SQL. `find` locates its latest version in the migrations' text (the
 * last match wins), `text` is what it is now; they are compared with spacing ignored. `apply` brings a database from
 * any earlier version to this one; `after` names the parts it rebuilds on (a new stemmer re-indexes the records).
 */
export interface RegistryPart {
  name: string;
  find: RegExp;
  text: string;
  apply: string;
  after?: string[];
  /** The fields this part reads, and as what: a difference from the latest migration names them. */
  uses: FieldUse[];
}

export interface FieldUse {
  field: string;
  as: string;
  /** For the search's text: the weight it is indexed with. */
  weight?: SearchWeight;
}

export const BREAK = '\n--> statement-breakpoint\n';

/** Ge'ez punctuation read as spaces: the text parser would otherwise read it as part of a word. */
export const GEEZ_PUNCTUATION = '፠፡።፣፤፥፦፧፨';

/** Statistics keep free-text values up to this many characters (longer ones cannot be told apart in record_stats). */
export const STATS_VALUE_MAX = 300;

export function columnOf(field: string): string {
  const column = (getTableColumns(records) as Record<string, { name: string } | undefined>)[field];
  if (!column) throw new Error(`registry: field "${field}" has no column in the records table (db/schema/records.ts)`);
  return column.name;
}

const quoted = (field: string) => `"${columnOf(field)}"`;

/** Whether a field is stored as a region code (the other dimensions are free text). */
const isRegion = (field: string) => dataFieldKind(field) === 'region';

/** The text of several fields, joined by spaces, nulls as empty (concat_ws is not immutable, so generated columns cannot use it). */
const joined = (fields: readonly string[]) => fields.map((f) => `coalesce(${quoted(f)}, '')`).join(` || ' ' || `);

function searchVectorPart(fields: RegistryFields): RegistryPart {
  const weights = (['A', 'B', 'C'] as const).map((weight) => ({ weight, names: fields.search.filter((f) => f.weight === weight).map((f) => f.name) }));
  const texts = weights.filter((w) => w.names.length).map((w) => `  search_words(${joined(w.names)}, '${w.weight}')`);
  const terms = [
    `'category=' || "category"`,
    ...fields.dimensions.map((f) =>
      isRegion(f) ? `'${f.toLowerCase()}=' || coalesce(${quoted(f)}, '${UNKNOWN_REGION}')` : `'${f.toLowerCase()}=' || md5(${quoted(f)})`,
    ),
    `'confirmed=' || "approved"::text`,
  ];
  const expression = `${texts.join(' ||\n')} ||\n  array_to_tsvector(array_remove(ARRAY[\n    ${terms.join(',\n    ')}\n  ], NULL))`;
  const uses: FieldUse[] = [
    ...fields.search.map((f) => ({ field: f.name, as: `searchable, weight ${f.weight}`, weight: f.weight })),
    ...fields.dimensions.map((f) => ({ field: f, as: 'a filter term (statistics dimension)' })),
  ];
  return {
    name: 'search_vector',
    ...generatedColumn('search_vector', 'tsvector', expression, ['CREATE INDEX "records_search_vector_idx" ON "records" USING gin ("search_vector") WHERE "deleted_at" is null;']),
    after: ['search_stem'],
    uses,
  };
}

function searchNamesPart(fields: RegistryFields): RegistryPart {
  const names = fields.search.filter((f) => f.weight === 'A').map((f) => f.name);
  return {
    name: 'search_names',
    ...generatedColumn('search_names', 'text', `  ${joined(names)}`, [
      'CREATE INDEX "records_search_names_idx" ON "records" USING gin ("search_names" gin_trgm_ops) WHERE "deleted_at" is null;',
    ]),
    uses: names.map((field) => ({ field, as: 'a name matched by similarity (weight A)' })),
  };
}

function searchDatePart(fields: RegistryFields): RegistryPart {
  const dates = fields.incidentDate.map(quoted);
  return {
    name: 'search_date',
    ...generatedColumn('search_date', 'timestamp with time zone', `  ${dates.length > 1 ? `coalesce(${dates.join(', ')})` : (dates[0] ?? 'null::timestamptz')}`, [
      'CREATE INDEX "records_search_date_idx" ON "records" USING btree ("search_date") WHERE "deleted_at" is null;',
    ]),
    uses: fields.incidentDate.map((field) => ({ field, as: 'the incident date' })),
  };
}

/** A generated column: found by its ADD COLUMN, applied by making it again (PostgreSQL 15 cannot alter the expression). */
function generatedColumn(column: string, type: string, expression: string, indexes: string[]): Pick<RegistryPart, 'find' | 'text' | 'apply'> {
  const add = `ALTER TABLE "records" ADD COLUMN "${column}" ${type} GENERATED ALWAYS AS (\n${expression}\n) STORED;`;
  return {
    find: new RegExp(`ALTER TABLE "records" ADD COLUMN "${column}" [^(]*GENERATED ALWAYS AS \\([\\s\\S]*?\\) STORED;`, 'g'),
    text: add,
    apply: [`ALTER TABLE "records" DROP COLUMN IF EXISTS "${column}";`, add, ...indexes].join(BREAK),
  };
}

function stemmerPart(): RegistryPart {
  const text = `${stemmerSql()}${BREAK}CREATE OR REPLACE FUNCTION search_words(content text, weight "char") RETURNS tsvector LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple'::regconfig, translate(content, '${GEEZ_PUNCTUATION}', '${' '.repeat(GEEZ_PUNCTUATION.length)}')), weight)
    || setweight(to_tsvector('simple'::regconfig, search_stems(content)), weight)
$$;`;
  return {
    name: 'search_stem',
    find: /CREATE OR REPLACE FUNCTION search_stem\(word text\)[\s\S]*?CREATE OR REPLACE FUNCTION search_words\([\s\S]*?\n\$\$;/g,
    text,
    apply: text,
    uses: [],
  };
}

/** The key columns of record_stats, each with its expression over a row `r` of records (as the trigger reads them). */
function statsKeys(fields: RegistryFields): { column: string; expression: string }[] {
  const dates = fields.incidentDate.map((f) => `r.${columnOf(f)}`);
  return [
    ...fields.dimensions.map((f) => ({
      column: columnOf(f),
      expression: isRegion(f) ? `coalesce(r.${columnOf(f)}, '')` : `left(coalesce(r.${columnOf(f)}, ''), ${STATS_VALUE_MAX})`,
    })),
    { column: 'month', expression: `coalesce(to_char(${dates.length > 1 ? `coalesce(${dates.join(', ')})` : dates[0]} AT TIME ZONE 'UTC', 'YYYY-MM'), '')` },
    { column: 'confirmed', expression: 'r.approved' },
  ];
}

/** Adds `sign` times the rows of `source` (a transition table, or records) to record_stats, one row per key and visibility. */
function statsUpsert(fields: RegistryFields, sources: { table: string; sign: 1 | -1 }[]): string {
  const keys = statsKeys(fields);
  const quantity = fields.quantity.length ? `coalesce(${fields.quantity.map((f) => `r.${columnOf(f)}`).join(', ')}, 0)` : '0';
  const selects = sources.map(
    ({ table, sign }) =>
      `SELECT r.category, ${keys.map((k) => `${k.expression} AS ${k.column}`).join(',\n          ')},\n          r.public, ${sign} AS dn, ${sign === 1 ? '' : '-'}${quantity} AS dq\n        FROM ${table} r WHERE r.deleted_at IS NULL`,
  );
  const columns = ['category', 'visibility', ...keys.map((k) => k.column)];
  const positions = columns.map((_, i) => i + 1).join(', ');
  return `INSERT INTO record_stats AS s (${columns.join(', ')}, n, quantity)
      SELECT k.category, v.visibility, ${keys.map((k) => `k.${k.column}`).join(', ')}, sum(k.dn), sum(k.dq)
      FROM (
        ${selects.join('\n        UNION ALL\n        ')}
      ) k CROSS JOIN (VALUES ('all'), ('public')) AS v(visibility)
      WHERE v.visibility = 'all' OR k.public
      GROUP BY ${positions}
      HAVING sum(k.dn) <> 0 OR sum(k.dq) <> 0
      ORDER BY ${positions}
      ON CONFLICT ON CONSTRAINT record_stats_pk DO UPDATE SET n = s.n + EXCLUDED.n, quantity = s.quantity + EXCLUDED.quantity;`;
}

/**
 * record_stats_statement(): the statement-level trigger function of records (triggers of 0009_stats_triggers) that
 * moves each changed record's contribution from its old key to its new one. Rows are written in key order so that two
 * transactions lock them in the same order rather than deadlock; an update that changes no counted column adds and
 * takes away the same amounts and is left out (HAVING), touching no row.
 */
function statsTriggerPart(fields: RegistryFields): RegistryPart {
  const text = `CREATE OR REPLACE FUNCTION record_stats_statement() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${statsUpsert(fields, [{ table: 'new_rows', sign: 1 }])}
  ELSIF TG_OP = 'DELETE' THEN
    ${statsUpsert(fields, [{ table: 'old_rows', sign: -1 }])}
  ELSE
    ${statsUpsert(fields, [{ table: 'old_rows', sign: -1 }, { table: 'new_rows', sign: 1 }])}
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;`;
  const uses: FieldUse[] = [
    ...fields.dimensions.map((field) => ({ field, as: 'a statistics dimension' })),
    ...fields.quantity.map((field) => ({ field, as: 'the statistics quantity' })),
    ...fields.incidentDate.map((field) => ({ field, as: 'the statistics month' })),
  ];
  return {
    name: 'record_stats_statement',
    find: /CREATE OR REPLACE FUNCTION record_stats_statement\(\)[\s\S]*?\$\$ LANGUAGE plpgsql;/g,
    text,
    // The counts made by an earlier version are made again by this one.
    apply: [text, 'DELETE FROM record_stats;', statsUpsert(fields, [{ table: 'records', sign: 1 }])].join(BREAK),
    uses,
  };
}

/** A btree index over the live records that holds the columns `include` (for index-only scans), made again when they change. */
function coveringIndexPart(name: string, keys: string, include: string[], uses: FieldUse[]): RegistryPart {
  const text = `CREATE INDEX "${name}" ON "records" USING btree (${keys})\n  INCLUDE (${include.map((c) => `"${c}"`).join(', ')})\n  WHERE "deleted_at" IS NULL;`;
  return { name, find: new RegExp(`CREATE INDEX "${name}"[^;]*;`, 'g'), text, apply: `DROP INDEX IF EXISTS "${name}";${BREAK}${text}`, after: ['search_date'], uses };
}

/** The index the live part of a date-filtered count reads: it holds every column the count reads (an index-only scan). */
function statsDateIndexPart(fields: RegistryFields): RegistryPart {
  const include = ['category', ...fields.dimensions.map(columnOf), ...fields.quantity.map(columnOf), 'approved', 'public'];
  const uses = [...fields.dimensions, ...fields.quantity].map((field) => ({ field, as: 'a column of the statistics date index' }));
  return coveringIndexPart('records_stats_date_idx', '"search_date"', include, uses);
}

/** The newest-first walk's index (search/newest.ts): records_news_idx with every filtered column, tested in the index. */
function searchNewestIndexPart(fields: RegistryFields): RegistryPart {
  const uses = ['createdAt', ...fields.dimensions].map((field) => ({ field, as: "a column of the search's newest-first index" }));
  return coveringIndexPart('records_search_newest_idx', '"created_at" DESC NULLS LAST, "id" DESC NULLS LAST', ['category', ...fields.dimensions.map(columnOf), 'approved', 'public', 'search_date'], uses);
}

/**
 * The hashed parts of the records a search with many matches counts in (modules/search/sample.ts): the records whose
 * id hashes to 0 modulo each divisor, each with a GIN index of its own.
 */
export const SEARCH_SAMPLE_DIVISORS = [8, 64, 512] as const;

/** The condition of the part 1/divisor, over the records table's `id` as written (`records.id` in a query). */
export function searchSamplePredicate(divisor: number, id = 'id'): string {
  return `(hashtext(${id}::text) & ${divisor - 1}) = 0`;
}

function searchSamplePart(): RegistryPart {
  const text = SEARCH_SAMPLE_DIVISORS.map(
    (d) => `CREATE INDEX "records_search_sample_${d}_idx" ON "records" USING gin ("search_vector") WHERE "deleted_at" is null and ${searchSamplePredicate(d)};`,
  ).join(BREAK);
  return {
    name: 'records_search_sample_idx',
    find: /CREATE INDEX "records_search_sample_8_idx"[\s\S]*?"records_search_sample_512_idx"[^;]*;/g,
    text,
    // Dropped with search_vector when it is made again; otherwise made here.
    apply: [...SEARCH_SAMPLE_DIVISORS.map((d) => `DROP INDEX IF EXISTS "records_search_sample_${d}_idx";`), text].join(BREAK),
    after: ['search_vector'],
    uses: [],
  };
}

function personNameKeyPart(): RegistryPart {
  const text = personNameKeySql();
  return { name: 'person_name_key', find: /CREATE OR REPLACE FUNCTION person_name_key\(name text\)[\s\S]*?\n\$\$;/g, text, apply: text, uses: [] };
}

/**
 * person_name: the name of a person record (CategoryDef.checksDuplicates), its fullName or else its title, keyed by
 * person_name_key (person-names.ts), with a trigram index: the duplicate check (modules/duplicates) reads it.
 */
function personNamePart(): RegistryPart {
  const categories = CATEGORY_LIST.filter((c) => c.checksDuplicates).map((c) => `'${c.slug}'`);
  const expression = `  CASE WHEN "category" IN (${categories.join(', ')}) THEN person_name_key(coalesce(nullif(${quoted('fullName')}, ''), ${quoted('title')})) END`;
  return {
    name: 'person_name',
    ...generatedColumn('person_name', 'text', expression, [
      ...personNameIndexes(),
      ...PERSON_REASON_INDEXES,
    ]),
    after: ['person_name_key'],
    uses: ['fullName', 'title'].map((field) => ({ field, as: 'the name a duplicate is found by' })),
  };
}

/** Every part, in the order a migration applies them. */
export function registryParts(fields: RegistryFields = registryFields()): RegistryPart[] {
  return [
    stemmerPart(),
    searchVectorPart(fields),
    searchSamplePart(),
    searchNamesPart(fields),
    searchDatePart(fields),
    statsTriggerPart(fields),
    statsDateIndexPart(fields),
    searchNewestIndexPart(fields),
    personNameKeyPart(),
    personNamePart(),
  ];
}
