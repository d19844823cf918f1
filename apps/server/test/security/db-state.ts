import type { Database } from '../../src/db';

export interface DbState {
  counts: Record<string, number>;
  auditHead: string | null;
}

let countQuery: string | null = null;

/**
 * Row counts of every table and the audit chain's head, in one statement: what "the database is unchanged" means
 * for a refused request (every accepted write adds an audit entry, so an edit moves the head even when no count
 * changes).
 */
export async function dbState(database: Database): Promise<DbState> {
  if (!countQuery) {
    const tables = await database.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like '\\_\\_%' order by table_name",
    );
    const parts = tables.map((t) => `'${t.name}', (select count(*) from "${t.name}")`);
    countQuery = `select json_build_object(${parts.join(', ')}) as counts, (select hash from audit_log order by seq desc limit 1) as head`;
  }
  const rows = await database.query<{ counts: Record<string, number | string>; head: string | null }>(countQuery);
  const counts = Object.fromEntries(Object.entries(rows[0]!.counts).map(([k, v]) => [k, Number(v)]));
  return { counts, auditHead: rows[0]!.head };
}
