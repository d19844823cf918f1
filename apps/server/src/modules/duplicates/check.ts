import { sql, type SQL } from 'drizzle-orm';
import { DUPLICATE_DATE_DAYS, type CategorySlug, type DuplicateCandidate, type DuplicatePerson, type DuplicateQuery, type DuplicateReason } from '@app/shared';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { rowsOf, type Db, type Tx } from '../../db';

/**
 * The duplicate check: person records of one category whose name is like the one asked about (pg_trgm similarity of
 * the names in Latin letters, records.person_name: db/person-names.ts), scored with what else they share with the
 * record being written. Found through indexes only (the trigram index of its category, records_person_name_<slug>_idx,
 * and one per other reason), so it costs about the same at a thousand records and at a million (bench: duplicates).
 */

/** Names less alike than this (pg_trgm similarity, 0 to 1) are never candidates: pg_trgm's own default for `%`. */
export const NAME_THRESHOLD = 0.3;

/** A candidate is shown when its score reaches this: a name alike enough alone, or a looser one with other reasons. */
export const SCORE_THRESHOLD = 0.35;

/** What each reason adds to the name's similarity (the name weighs 0.6; a perfect match on every reason scores 1). */
const WEIGHTS: Record<DuplicateReason, number> = { name: 0.6, incident: 0.2, date: 0.1, woreda: 0.1 };

/** Candidates read per check before scoring: the most alike names. */
const CANDIDATES_READ = 50;
/** Candidates answered. */
export const CANDIDATES_SHOWN = 10;

export interface PersonRow {
  id: string;
  category: CategorySlug;
  title: string;
  full_name: string | null;
  happened_on: string | null;
  region: string | null;
  woreda: string | null;
  incident_id: string | null;
  created_at: string;
}

/** The columns of a person as the check and the pairs read them (`r`: the records table's alias). */
export const PERSON_COLUMNS_SQL = `r.id, r.category, r.title, r.full_name,
  to_char(r.happened_on at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as happened_on, r.region, r.woreda,
  r.incident_id, to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at`;
const PERSON_COLUMNS = sql.raw(PERSON_COLUMNS_SQL);

export function personOf(row: PersonRow): DuplicatePerson {
  return {
    _id: row.id,
    category: row.category,
    title: row.title,
    fullName: row.full_name,
    happenedOn: row.happened_on,
    region: row.region,
    woreda: row.woreda,
    incidentId: row.incident_id,
    createdAt: row.created_at,
  };
}

/** The reasons two persons share besides the name, and the score of the pair. */
export function scoreOf(similarity: number, shared: { incident: boolean; date: boolean; woreda: boolean }): { score: number; reasons: DuplicateReason[] } {
  const reasons: DuplicateReason[] = ['name'];
  let score = WEIGHTS.name * similarity;
  for (const reason of ['incident', 'date', 'woreda'] as const) {
    if (!shared[reason]) continue;
    reasons.push(reason);
    score += WEIGHTS[reason];
  }
  return { score: Math.round(score * 1000) / 1000, reasons };
}

/** Within DUPLICATE_DATE_DAYS of each other (two instants as ISO text). */
export function sameDate(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  return Math.abs(Date.parse(a) - Date.parse(b)) <= DUPLICATE_DATE_DAYS * 86_400_000 + 86_399_999;
}

/** Two woredas as written, compared by their Latin key (ደብረ ብርሃን and Debre Birhan alike). */
export const sameWoredaSql = (column: SQL, value: SQL) => sql`person_name_key(${column}) = person_name_key(${value})`;

type CandidateRow = PersonRow & { similarity: number; same_woreda: boolean | null };

/**
 * Names at least this alike (pg_trgm similarity) score SCORE_THRESHOLD alone (0.6 x 0.5834 rounds to 0.35): the trigram
 * index is asked with this threshold, not pg_trgm's 0.3, because at a million people a common syllable finds tens of
 * thousands of names 0.3 alike, which all had to be read and compared (bench: duplicates). A looser name counts only
 * with another reason, and those candidates are found through the reason (below).
 */
export const NAME_ALONE_THRESHOLD = 0.58;
/** Names at least this alike score SCORE_THRESHOLD with one other reason worth 0.1 (0.6 x 0.4167 + 0.1 rounds to 0.35). */
export const NAME_ONE_REASON_THRESHOLD = 0.41;

/** The conditions every candidate meets: a live person of the category, readable by the asker, not dismissed. */
function baseConditions(category: CategorySlug, query: DuplicateQuery, includePrivate: boolean): SQL[] {
  const conditions: SQL[] = [sql`r.category = ${category}`, sql`r.deleted_at is null`, sql`r.person_name is not null`];
  if (!includePrivate) conditions.push(sql`r.public`);
  if (query.id) {
    conditions.push(sql`r.id <> ${query.id}`);
    conditions.push(sql`not exists (select 1 from duplicate_dismissals d
      where (d.first, d.second) = (least(r.id, ${query.id}::uuid), greatest(r.id, ${query.id}::uuid)))`);
  }
  return conditions;
}

/** A date within DUPLICATE_DATE_DAYS of the question's, and the same woreda: each through its own index. */
function reasonConditions(query: DuplicateQuery): { date: SQL | null; woreda: SQL | null } {
  // A day wider on each side than sameDate (which decides): a date without a time is read in the session's zone.
  const around = sql`${`${DUPLICATE_DATE_DAYS + 2} days`}::interval`;
  return {
    date: query.happenedOn ? sql`r.happened_on between ${query.happenedOn}::timestamptz - ${around} and ${query.happenedOn}::timestamptz + ${around}` : null,
    woreda: query.woreda ? sameWoredaSql(sql`r.woreda`, sql`${query.woreda}`) : null,
  };
}

/**
 * The records a looser name can reach SCORE_THRESHOLD with, one read per reason, each through that reason's index alone
 * (records_incident_idx, records_person_date_idx, records_person_woreda_idx: small sets), never through the trigram index
 * at a low threshold, which at a million people reads tens of thousands of names sharing a common syllable (bench:
 * duplicates). Separate reads, not one OR: the planner then has one obvious index for each, whatever its statistics say.
 * The same incident (0.2), or a near date with the same woreda (0.1 each), with a name NAME_THRESHOLD alike; a near date
 * or the same woreda alone with a name NAME_ONE_REASON_THRESHOLD alike. Each read's whole conditions: `base` is tested
 * once (the date read's inside its subquery of ids).
 */
function reasonReads(query: DuplicateQuery, base: SQL[], name: SQL, date: SQL | null, woreda: SQL | null): SQL[][] {
  const alike = (threshold: number) => sql`similarity(r.person_name, ${name}) >= ${threshold}`;
  const reads: SQL[][] = [];
  if (query.incidentId) reads.push([...base, sql`r.incident_id = ${query.incidentId}::uuid`, alike(NAME_THRESHOLD)]);
  // The ids first, from records_person_date_idx alone (it carries the name, public flag and id), then the few rows.
  if (date) reads.push([sql`r.id in (select r.id from records r where ${sql.join([...base, date, alike(NAME_ONE_REASON_THRESHOLD)], sql` and `)})`]);
  // A near date with the same woreda is tested among the woreda's few records: person_name_key costs ~0.1 ms a call, too
  // much for every record of a date's week (4,400 at a million).
  if (woreda) reads.push([...base, woreda, date ? sql`(${alike(NAME_ONE_REASON_THRESHOLD)} or (${date} and ${alike(NAME_THRESHOLD)}))` : alike(NAME_ONE_REASON_THRESHOLD)]);
  return reads;
}

/** Runs `reads` one after another, in order. */
async function inTurn<T>(reads: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  for (const read of reads) results.push(await read());
  return results;
}

async function candidateRows(db: Db | Tx, conditions: SQL[], name: string, woreda: string | undefined): Promise<CandidateRow[]> {
  const same = woreda ? sameWoredaSql(sql`r.woreda`, sql`${woreda}`) : sql`null`;
  return rowsOf<CandidateRow>(
    db,
    sql`select ${PERSON_COLUMNS}, similarity(r.person_name, person_name_key(${name})) as similarity, ${same} as same_woreda
      from records r where ${sql.join(conditions, sql` and `)}
      order by similarity desc, r.id limit ${CANDIDATES_READ}`,
  );
}

/**
 * The likely duplicates of a person about to be saved in `category`, best first. `includePrivate`: whether the asker
 * may read records that are not public. Records in the trash (merged ones too) and pairs an admin said are different
 * people are never answered. Two reads: names alike enough alone (through the trigram index at NAME_ALONE_THRESHOLD),
 * and records sharing a reason with a looser name; every candidate that can reach SCORE_THRESHOLD is in one of them.
 */
export async function findDuplicates(db: Db | Tx, category: CategorySlug, query: DuplicateQuery, includePrivate: boolean): Promise<DuplicateCandidate[]> {
  const base = baseConditions(category, query, includePrivate);
  const name = sql`person_name_key(${query.name})`;
  const { date, woreda } = reasonConditions(query);
  const byName = () =>
    db.transaction(async (tx) => {
      // pg_trgm's `%` reads its threshold from this setting; `true`: for this transaction only.
      await tx.execute(sql`select set_config('pg_trgm.similarity_threshold', ${String(NAME_ALONE_THRESHOLD)}, true)`);
      return candidateRows(tx, [...base, sql`r.person_name % ${name}`], query.name, query.woreda);
    });
  const reads = [byName, ...reasonReads(query, base, name, date, woreda).map((conditions) => () => candidateRows(db, conditions, query.name, query.woreda))];
  // On the pool the reads go together, each on a connection of its own, so the check waits for the slowest rather than
  // for their sum. A transaction (the background scan's) has one connection, which takes one statement at a time:
  // there they take turns, since statements sent to a busy connection are queued by node-postgres only with a
  // deprecation warning, and pg 9 refuses them.
  const rows = (db instanceof PgTransaction ? await inTurn(reads) : await Promise.all(reads.map((read) => read()))).flat();
  const seen = new Set<string>();
  const candidates = rows.flatMap((row) => {
    if (seen.has(row.id)) return [];
    seen.add(row.id);
    const similarity = Number(row.similarity);
    const { score, reasons } = scoreOf(similarity, {
      incident: Boolean(query.incidentId && row.incident_id === query.incidentId),
      date: sameDate(query.happenedOn, row.happened_on),
      woreda: row.same_woreda === true,
    });
    return [{ ...personOf(row), score, nameSimilarity: Math.round(similarity * 1000) / 1000, reasons }];
  });
  return candidates
    .filter((c) => c.score >= SCORE_THRESHOLD)
    .sort((a, b) => b.score - a.score || a._id.localeCompare(b._id))
    .slice(0, CANDIDATES_SHOWN);
}
