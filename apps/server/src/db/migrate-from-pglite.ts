import { renameSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type Database, type Db } from './index';
import { AuditService } from '../services/audit';

/**
 * `npm run admin -- migrate-from-pglite`: moves a data folder of the earlier default engine (PGlite in
 * DATA_DIR/pglite) into the database the site now uses. Every table is copied whole in one transaction of the target,
 * then checked: the same row count in every table, and an audit chain that verifies. Only then is the old folder
 * renamed (kept, never deleted), so a failed move leaves both as they were.
 */

const BATCH_ROWS = 1000;
/** Tables whose rows the migrations themselves write; they are replaced by the source's, not counted as content. */
const MIGRATION_SEEDED = new Set(['record_counts', 'gallery_counts', 'record_stats']);

export async function tableNames(database: Database): Promise<string[]> {
  const rows = await database.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  return rows.map((r) => r.name);
}

async function rowCounts(database: Database, tables: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const table of tables) {
    const [row] = await database.query<{ n: string }>(`select count(*)::text as n from "${table}"`);
    counts.set(table, Number(row!.n));
  }
  return counts;
}

/**
 * Copies every row of every table of `source` into `target` in one transaction, and checks the copy before it
 * commits: the same row count in every table and an audit chain that verifies. A failed check rolls everything back.
 */
async function copyTables(source: Database, target: Database, tables: string[], log: (line: string) => void): Promise<number> {
  const expected = await rowCounts(source, tables);
  return target.db.transaction(async (tx) => {
    // Triggers off while copying: counters and derived columns come from the source as they are, and rows may arrive
    // before the rows they refer to.
    await tx.execute(sql.raw('set local session_replication_role = replica'));
    for (const table of tables) {
      await tx.execute(sql`delete from ${sql.identifier(table)}`);
      // Generated columns (the search columns of records) are computed by the target, never inserted.
      const columns = await rowsOf<{ name: string }>(
        tx,
        sql`select column_name as name from information_schema.columns
            where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER' order by ordinal_position`,
      );
      const list = sql.join(columns.map((c) => sql.identifier(c.name)), sql`, `);
      for (let offset = 0; ; offset += BATCH_ROWS) {
        // ctid order reads the table as stored; the source is not written to while it is copied.
        const rows = await source.query<{ row: string }>(
          `select row_to_json(t)::text as row from "${table}" t order by ctid limit ${BATCH_ROWS} offset ${offset}`,
        );
        if (!rows.length) break;
        const batch = `[${rows.map((r) => r.row).join(',')}]`;
        await tx.execute(
          sql`insert into ${sql.identifier(table)} (${list}) select ${list} from json_populate_recordset(null::${sql.identifier(table)}, ${batch}::json)`,
        );
      }
      const [counted] = await rowsOf<{ n: string }>(tx, sql`select count(*)::text as n from ${sql.identifier(table)}`);
      const copied = Number(counted!.n);
      if (copied !== expected.get(table)) throw new Error(`${table}: ${expected.get(table)} rows in the source, ${copied} copied`);
      log(`  ${table}: ${copied} rows`);
    }
    await advanceSequences(tx);
    const chain = await new AuditService(tx).verify();
    if (!chain.ok) throw new Error(`the copied audit chain does not verify at entry ${chain.firstBrokenSeq}: ${chain.reason}`);
    return chain.entries;
  });
}

/** Serial and identity columns continue after the copied rows, so the next insert does not reuse a number. */
async function advanceSequences(tx: Db): Promise<void> {
  const rows = await rowsOf<{ table_name: string; column_name: string; seq: string }>(
    tx,
    sql.raw(`select table_name, column_name, pg_get_serial_sequence(format('%I', table_name), column_name) as seq
       from information_schema.columns where table_schema = 'public'
        and pg_get_serial_sequence(format('%I', table_name), column_name) is not null`),
  );
  for (const c of rows) {
    await tx.execute(
      sql`select setval(${c.seq}, coalesce((select max(${sql.identifier(c.column_name)}) from ${sql.identifier(c.table_name)}), 0) + 1, false)`,
    );
  }
}

export async function migrateFromPglite(pgliteDir: string, target: Database, log: (line: string) => void = console.log): Promise<void> {
  const source = await openDatabase({ pgliteDir });
  try {
    const tables = await tableNames(source);
    const targetTables = new Set(await tableNames(target));
    const missing = tables.filter((t) => !targetTables.has(t));
    if (missing.length) throw new Error(`the target database lacks the tables ${missing.join(', ')}`);
    const before = await rowCounts(target, tables);
    const occupied = [...before].filter(([table, n]) => n > 0 && !MIGRATION_SEEDED.has(table));
    if (occupied.length) {
      throw new Error(
        `the target database already holds data (${occupied.map(([t, n]) => `${t}: ${n} rows`).join(', ')}); ` +
          'migrate into a new data folder or an empty database',
      );
    }
    log(`Copying ${tables.length} tables from ${pgliteDir}`);
    const entries = await copyTables(source, target, tables, log);
    log(`Row counts match in all ${tables.length} tables; the audit chain of ${entries} entries verifies.`);
  } finally {
    await source.close();
  }
  const kept = `${pgliteDir}.migrated-${new Date().toISOString().slice(0, 10)}`;
  renameSync(pgliteDir, kept);
  log(`The old folder is kept as ${kept}; delete it once you are satisfied.`);
}
