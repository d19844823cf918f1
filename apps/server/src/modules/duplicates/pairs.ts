import { sql } from 'drizzle-orm';
import { DUPLICATE_REASONS, type DuplicatePair, type DuplicateReason } from '@app/shared';
import { rowsOf, type Db } from '../../db';
import { PERSON_COLUMNS_SQL, personOf, type PersonRow } from './check';

/**
 * The admins' "Possible duplicates": pairs of live person records from the whole table, best first, a page at a time.
 * The pairs are found ahead of time (scan.ts: every person record checked when written), so a page is read through the
 * index duplicate_pairs_best_idx and costs the same at a thousand records and at a million (bench: duplicates). Pairs
 * with a record in the trash, or that an admin said are different people, are left out as they are read.
 */

/** Where the next page starts: the last pair of this one (score, first, second), as `X-Next-Cursor` gives it. */
export interface PairsCursor {
  score: number;
  first: string;
  second: string;
}

const CURSOR_PATTERN = /^(\d{1,4})\.([0-9a-f-]{36})\.([0-9a-f-]{36})$/;

export function encodePairsCursor(c: PairsCursor): string {
  return `${c.score}.${c.first}.${c.second}`;
}

/** The cursor of `X-Next-Cursor`, or null when it is not one. */
export function decodePairsCursor(text: string): PairsCursor | null {
  const m = CURSOR_PATTERN.exec(text.toLowerCase());
  return m ? { score: Number(m[1]), first: m[2]!, second: m[3]! } : null;
}

/** What moves with a record merged into another, read with it (the screen says what a merge moves). */
const HOLDINGS_SQL = `(select count(*)::int from media m where m.record_id = r.id and m.removed_at is null) as files,
  jsonb_array_length(r.sources) as sources,
  (select count(*)::int from jsonb_array_elements(r.sources) s where s->>'withheld' = 'true') as withheld_sources, r.approved`;

type HeldRow = PersonRow & { files: number; sources: number; withheld_sources: number; approved: boolean };
type PairRow = { a: HeldRow; b: HeldRow; score: number; name_similarity: number; reasons: string[] };

const heldPerson = (row: HeldRow) => ({
  ...personOf(row),
  holds: { files: row.files, sources: row.sources, withheldSources: row.withheld_sources, confirmed: row.approved },
});

export async function possibleDuplicates(db: Db, limit: number, cursor: PairsCursor | null): Promise<{ pairs: DuplicatePair[]; next: string | null }> {
  const person = (column: string) => sql.raw(`(select row_to_json(x) from (select ${PERSON_COLUMNS_SQL}, ${HOLDINGS_SQL} from records r where r.id = p.${column}) x)`);
  const after = cursor ? sql`and (p.score, p.first, p.second) < (${cursor.score}, ${cursor.first}::uuid, ${cursor.second}::uuid)` : sql``;
  const rows = await rowsOf<PairRow & { first: string; second: string }>(
    db,
    sql`select p.first, p.second, p.score, p.name_similarity, p.reasons, ${person('first')} as a, ${person('second')} as b
      from duplicate_pairs p
      where exists (select 1 from records r where r.id = p.first and r.deleted_at is null)
        and exists (select 1 from records r where r.id = p.second and r.deleted_at is null)
        and not exists (select 1 from duplicate_dismissals d where (d.first, d.second) = (p.first, p.second))
        ${after}
      order by p.score desc, p.first desc, p.second desc limit ${limit}`,
  );
  const pairs = rows.map((row) => ({
    first: heldPerson(row.a),
    second: heldPerson(row.b),
    score: Number(row.score) / 1000,
    nameSimilarity: Number(row.name_similarity) / 1000,
    reasons: DUPLICATE_REASONS.filter((r: DuplicateReason) => row.reasons.includes(r)),
  }));
  const last = rows.at(-1);
  return { pairs, next: last && rows.length === limit ? encodePairsCursor({ score: Number(last.score), first: last.first, second: last.second }) : null };
}
