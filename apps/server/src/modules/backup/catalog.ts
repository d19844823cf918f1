import { sql } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '../../db';

/** Every read of a backup and every write of a restore goes through a transaction. */
export type { Tx };

export { rowsOf };

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const qualified = (table: string) => `public.${quoteIdent(table)}`;

export interface Column {
  name: string;
  type: string;
  /** Generated (computed) columns are written by the database, never by an insert. */
  generated: boolean;
}

export interface TableInfo {
  name: string;
  columns: Column[];
  primaryKey: string[];
}

/**
 * The tables of the application schema in an order where every table comes after the tables its foreign keys point
 * to, so a restore can insert them one after the other with the foreign keys checked.
 */
export async function listTables(tx: Tx | Db): Promise<TableInfo[]> {
  const tables = await rowsOf<{ name: string }>(
    tx,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
  );
  const columns = await rowsOf<{ table: string; name: string; type: string; generated: boolean }>(
    tx,
    sql`select c.relname as "table", a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
          a.attgenerated <> '' as generated
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
        order by c.relname, a.attnum`,
  );
  const keys = await rowsOf<{ table: string; name: string }>(
    tx,
    sql`select c.relname as "table", a.attname as name
        from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where n.nspname = 'public' and i.indisprimary
        order by c.relname, array_position(i.indkey::int2[], a.attnum)`,
  );
  const references = await rowsOf<{ child: string; parent: string }>(
    tx,
    sql`select child.relname as child, parent.relname as parent
        from pg_constraint k join pg_class child on child.oid = k.conrelid join pg_class parent on parent.oid = k.confrelid
        join pg_namespace n on n.oid = k.connamespace
        where k.contype = 'f' and n.nspname = 'public' and child.oid <> parent.oid`,
  );
  const byName = new Map<string, TableInfo>(tables.map((t) => [t.name, { name: t.name, columns: [], primaryKey: [] }]));
  for (const c of columns) byName.get(c.table)?.columns.push({ name: c.name, type: c.type, generated: Boolean(c.generated) });
  for (const k of keys) byName.get(k.table)?.primaryKey.push(k.name);

  const ordered: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`foreign keys form a cycle: ${[...path, name].join(' -> ')}`);
    state.set(name, 'visiting');
    for (const r of references) if (r.child === name) visit(r.parent, [...path, name]);
    state.set(name, 'done');
    ordered.push(byName.get(name)!);
  };
  for (const t of tables) visit(t.name, []);
  return ordered;
}

export interface SequenceState {
  name: string;
  lastValue: string;
  isCalled: boolean;
}

/** Every sequence's position, so values handed out after a restore continue where the source stopped. */
export async function readSequences(tx: Tx | Db): Promise<SequenceState[]> {
  const names = await rowsOf<{ name: string }>(
    tx,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  const out: SequenceState[] = [];
  for (const { name } of names) {
    const [state] = await rowsOf<{ last_value: string; is_called: boolean }>(
      tx,
      sql.raw(`select last_value::text as last_value, is_called from ${qualified(name)}`),
    );
    out.push({ name, lastValue: state!.last_value, isCalled: Boolean(state!.is_called) });
  }
  return out;
}

export interface MigrationState {
  /** Number of migrations applied. */
  count: number;
  /** Hash of the newest one, as drizzle records it. */
  hash: string;
}

/** The schema's version: a restore needs the same migrations as the backup, or columns would not line up. */
export async function readMigration(tx: Tx | Db): Promise<MigrationState> {
  const rows = await rowsOf<{ hash: string }>(tx, sql`select hash from drizzle.__drizzle_migrations order by created_at, id`);
  return { count: rows.length, hash: rows.at(-1)?.hash ?? '' };
}

interface TriggerRef {
  table: string;
  name: string;
}

/** Triggers a restore switches off while it loads rows (their results, e.g. counters, are restored as rows). */
export async function enabledUserTriggers(tx: Tx | Db): Promise<TriggerRef[]> {
  return rowsOf<TriggerRef>(
    tx,
    sql`select c.relname as "table", t.tgname as name
        from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and not t.tgisinternal and t.tgenabled <> 'D'
        order by c.relname, t.tgname`,
  );
}
