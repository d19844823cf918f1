import { sql } from 'drizzle-orm';
import { CATEGORY_LIST, type DuplicatePair } from '@app/shared';
import { rowsOf, type Db } from '../../db';
import { CANDIDATES_SHOWN, NAME_THRESHOLD, PERSON_COLUMNS_SQL, personOf, SCORE_THRESHOLD, sameDate, scoreOf, type PersonRow } from './check';

/**
 * The admins' "Possible duplicates": pairs of live person records, best first. The newest records of the person
 * categories are each looked up through the trigram index (as the form's check does) against every record of their
 * category, so the screen costs the same at any size and shows first what was added lately, where a new duplicate
 * comes from. Pairs an admin said are different people are left out.
 */

/** Newest person records whose likely duplicates are looked for. */
export const PAIRS_SCANNED = 400;

const PERSON_CATEGORIES = CATEGORY_LIST.filter((c) => c.checksDuplicates).map((c) => c.slug);

type PairRow = { a: PersonRow; b: PersonRow; similarity: number; same_woreda: boolean };

export async function possibleDuplicates(db: Db, limit: number): Promise<DuplicatePair[]> {
  const columns = (alias: string) => sql.raw(`(select row_to_json(x) from (select ${PERSON_COLUMNS_SQL} from records r where r.id = ${alias}.id) x)`);
  const rows = await rowsOf<PairRow>(
    db,
    sql`select ${columns('a')} as a, ${columns('b')} as b, b.similarity, b.same_woreda
      from (select id, category, person_name, woreda from records
            where category in (${sql.join(PERSON_CATEGORIES.map((c) => sql`${c}`), sql`, `)}) and deleted_at is null and person_name is not null
            order by created_at desc limit ${PAIRS_SCANNED}) a
      cross join lateral (
        select o.id, similarity(o.person_name, a.person_name) as similarity,
          coalesce(person_name_key(o.woreda) = person_name_key(a.woreda), false) as same_woreda
        from records o
        where o.category = a.category and o.deleted_at is null and o.person_name % a.person_name and o.id <> a.id
          and not exists (select 1 from duplicate_dismissals d where (d.first, d.second) = (least(o.id, a.id), greatest(o.id, a.id)))
        order by similarity desc limit ${CANDIDATES_SHOWN}
      ) b`,
  );
  const pairs = new Map<string, DuplicatePair>();
  for (const row of rows) {
    const [first, second] = row.a.id < row.b.id ? [row.a, row.b] : [row.b, row.a];
    const key = `${first.id}/${second.id}`;
    if (pairs.has(key) || Number(row.similarity) < NAME_THRESHOLD) continue;
    const { score, reasons } = scoreOf(Number(row.similarity), {
      incident: Boolean(first.incident_id && first.incident_id === second.incident_id),
      date: sameDate(first.happened_on, second.happened_on),
      woreda: row.same_woreda,
    });
    if (score < SCORE_THRESHOLD) continue;
    pairs.set(key, { first: personOf(first), second: personOf(second), score, nameSimilarity: Math.round(Number(row.similarity) * 1000) / 1000, reasons });
  }
  return [...pairs.values()].sort((x, y) => y.score - x.score || x.first._id.localeCompare(y.first._id)).slice(0, limit);
}
