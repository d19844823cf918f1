import { sql } from 'drizzle-orm';
import type { CategorySlug } from '@app/shared';
import { rowsOf, type Db, type Tx } from '../../db';
import { findDuplicates } from './check';

/**
 * The scan behind the admins' "Possible duplicates": each person record queued by the triggers of migration 0019 (a
 * new one, or one whose name, category, woreda, date or incident changed, or one taken out of the trash) is checked as
 * the form's check would check it, and its pairs replace those it had in duplicate_pairs. Whatever process scans a
 * batch holds its queue rows locked (SKIP LOCKED), so several processes share the work and a crash leaves it queued.
 */

interface QueuedPerson {
  id: string;
  category: CategorySlug;
  name: string;
  woreda: string | null;
  happened_on: string | null;
  incident_id: string | null;
}

/** Checks one person and stores its pairs. */
async function pairsOf(tx: Tx, person: QueuedPerson): Promise<void> {
  const candidates = await findDuplicates(
    tx,
    person.category,
    { name: person.name, woreda: person.woreda ?? undefined, happenedOn: person.happened_on ?? undefined, incidentId: person.incident_id ?? undefined, id: person.id },
    true,
  );
  if (!candidates.length) return;
  const values = candidates.map((c) => {
    const [first, second] = person.id < c._id ? [person.id, c._id] : [c._id, person.id];
    return sql`(${first}::uuid, ${second}::uuid, ${Math.round(c.score * 1000)}, ${Math.round(c.nameSimilarity * 1000)}, ${`{${c.reasons.join(',')}}`}::text[])`;
  });
  await tx.execute(sql`insert into duplicate_pairs (first, second, score, name_similarity, reasons) values ${sql.join(values, sql`, `)}
    on conflict (first, second) do update set score = excluded.score, name_similarity = excluded.name_similarity,
      reasons = excluded.reasons, found_at = now()`);
}

/** Scans up to `limit` queued records in one transaction; returns how many it took off the queue (0: none left). */
export async function scanBatch(db: Db, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const taken = await rowsOf<{ record_id: string }>(
      tx,
      sql`delete from duplicate_scan_queue where record_id in (
        select record_id from duplicate_scan_queue order by record_id limit ${limit} for update skip locked) returning record_id`,
    );
    if (!taken.length) return 0;
    const ids = taken.map((t) => t.record_id);
    const idList = sql`array[${sql.join(ids.map((id) => sql`${id}`), sql`, `)}]::uuid[]`;
    await tx.execute(sql`delete from duplicate_pairs where first = any(${idList}) or second = any(${idList})`);
    const people = await rowsOf<QueuedPerson>(
      tx,
      sql`select r.id, r.category, coalesce(nullif(r.full_name, ''), r.title) as name, r.woreda, r.incident_id,
          to_char(r.happened_on at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as happened_on
        from records r where r.id = any(${idList}) and r.deleted_at is null and r.person_name is not null`,
    );
    for (const person of people) await pairsOf(tx, person);
    return taken.length;
  });
}

/**
 * Scans the queue until it is empty, `max` records or `budgetMs` have passed, or `stop()` says so (checked between
 * batches); returns how many records were taken off the queue.
 */
export async function scanQueue(
  db: Db,
  { max = Infinity, budgetMs = Infinity, batch = 50, stop = () => false }: { max?: number; budgetMs?: number; batch?: number; stop?: () => boolean } = {},
): Promise<number> {
  const started = Date.now();
  let total = 0;
  for (;;) {
    const n = await scanBatch(db, Math.min(batch, max - total));
    total += n;
    if (n < batch || total >= max || Date.now() - started >= budgetMs || stop()) return total;
  }
}

/** Records waiting to be checked. */
export async function queuedCount(db: Db): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from duplicate_scan_queue`);
  return Number(row?.n ?? 0);
}
