/**
 * The duplicates part's data (bench/lib/phase-duplicates.mjs), run by db-task.ts: person records (victims, missing
 * people, orphans) made in the database with generate_series, with made-up names of syllables in Latin and Ge'ez
 * letters, and the queries the part asks. Every record is labelled test data (title and description); the names are
 * syllables put together at random, no one's name.
 */
import { performance } from 'node:perf_hooks';
import { REGION_CODES } from '@app/shared';
import type { Database } from '../../apps/server/src/db/index';
import { queuedCount, scanQueue } from '../../apps/server/src/modules/duplicates/scan';

const LABEL = 'Benchmark data - a made-up name, not a real person';
export const PERSON_TITLE = 'Dupbench person';
const INCIDENTS = 500;

/** Syllables in Latin letters and the same syllables in Ge'ez (index by index), so a name can be written in either. */
const LATIN = ['a', 'be', 'ke', 'te', 'sfa', 'ye', 'ge', 'ta', 'chew', 'mu', 'lu', 'le', 'mi', 'ra', 'we', 'rku', 'de', 'sa', 'ha', 'yi', 'yo', 'n', 'bi', 'tu', 'ka', 'se', 'la', 'm', 'ze', 'di', 'tsi', 'fa', 'si', 'ne', 'hi', 'ru', 'me', 'ko', 'da', 'wi', 't', 'ma', 'ba', 'no', 'ti'];
const GEEZ = ['አ', 'በ', 'ከ', 'ተ', 'ስፋ', 'የ', 'ገ', 'ታ', 'ቸው', 'ሙ', 'ሉ', 'ለ', 'ሚ', 'ራ', 'ወ', 'ርቁ', 'ደ', 'ሳ', 'ሀ', 'ዪ', 'ዮ', 'ን', 'ቢ', 'ቱ', 'ካ', 'ሰ', 'ላ', 'ም', 'ዘ', 'ዲ', 'ጺ', 'ፋ', 'ሲ', 'ነ', 'ሂ', 'ሩ', 'መ', 'ኮ', 'ዳ', 'ዊ', 'ት', 'ማ', 'ባ', 'ኖ', 'ቲ'];
const N = LATIN.length;

/** Hash number i (0-19) of the person: every made-up fact of a person follows from its number. */
const h = (i: number) => `p.h[${i + 1}]`;
const syllable = (list: string, i: number) => `${list}[1 + ${h(i)} % ${N}]`;
/** Word k of a name (0 given name, 1 father's, 2 grandfather's): two or three syllables. */
const word = (list: string, k: number) =>
  `${syllable(list, 3 * k)} || ${syllable(list, 3 * k + 1)} || case when ${h(3 * k + 2)} % 3 = 0 then ${list}[1 + (${h(3 * k + 2)} / 3) % ${N}] else '' end`;
const fullName = (list: string) =>
  `${word(list, 0)} || ' ' || ${word(list, 1)} || case when ${h(10)} % 2 = 0 and not (p.dup and (p.n / 20) % 2 = 0) then ' ' || ${word(list, 2)} else '' end`;

/**
 * Grows the people to `size`. Person n is made from the number s: its own (s = n), except every twentieth, which is
 * an earlier person recorded again (s: a person up to 100,000 numbers before): the same name in the other script (and
 * sometimes without the grandfather's name), a date up to two days apart, the same woreda and incident. 60 % victims,
 * 25 % missing, 15 % orphans; one in eight linked to one of 500 incidents; 2,025 woredas over 1,500 days.
 */
export async function seedPeople(database: Database, size: number) {
  const started = performance.now();
  const [{ n: incidents }] = await database.query<{ n: number }>(`select count(*)::int as n from records where title like 'Dupbench incident %'`);
  if (!Number(incidents)) {
    await database.query(
      `insert into records (category, title, description, approved, public, sample)
       select 'massacres', 'Dupbench incident ' || i || ' (test data)', $1, true, true, true from generate_series(1, ${INCIDENTS}) i`,
      [LABEL],
    );
  }
  const [{ ids }] = await database.query<{ ids: string[] }>(`select array_agg(id order by title) as ids from records where title like 'Dupbench incident %'`);
  const [{ n: existing }] = await database.query<{ n: number }>(`select count(*)::int as n from records where title like '${PERSON_TITLE} %'`);
  const batch = 20_000;
  for (let start = Number(existing) + 1; start <= size; start += batch) {
    const end = Math.min(size, start + batch - 1);
    await database.query(
      `insert into records (category, title, description, created_at, updated_at, approved, approved_at, public, sample,
         full_name, happened_on, region, woreda, incident_id)
       select
         case when ${h(11)} % 20 < 12 then 'victims' when ${h(11)} % 20 < 17 then 'missings' else 'orphans' end,
         '${PERSON_TITLE} ' || p.n || ' (test data)', $3,
         timestamptz '2025-06-01 00:00:00+00' - p.n * interval '1 second', timestamptz '2025-06-01 00:00:00+00' - p.n * interval '1 second',
         true, timestamptz '2025-06-02 00:00:00+00', true, true,
         case when p.geez then ${fullName('($4::text[])')} else initcap(${fullName('($5::text[])')}) end,
         timestamptz '2019-01-01 00:00:00+00' + (${h(12)} % 1500) * interval '1 day' + case when p.dup then ((p.n / 20) % 5 - 2) * interval '1 day' else interval '0 days' end,
         ($6::text[])[1 + ${h(15)} % cardinality($6::text[])],
         case when p.geez then ($4::text[])[1 + ${h(13)} % ${N}] || ($4::text[])[1 + ${h(14)} % ${N}] || ' ወረዳ'
              else initcap(($5::text[])[1 + ${h(13)} % ${N}] || ($5::text[])[1 + ${h(14)} % ${N}]) || ' Wereda' end,
         case when ${h(16)} % 8 = 0 then ($7::uuid[])[1 + ${h(17)} % cardinality($7::uuid[])] end
       from (
         select g.n, g.n % 20 = 0 as dup, (x.h[10] % 3 = 0) <> (g.n % 20 = 0) as geez, x.h
         from generate_series($1::int, $2::int) g(n)
         cross join lateral (select case when g.n % 20 <> 0 then g.n
                                         when g.n - 1 - 20 * ((hashint8(g.n::bigint) & 2147483647) % 5000) >= 1 then g.n - 1 - 20 * ((hashint8(g.n::bigint) & 2147483647) % 5000)
                                         else g.n - 1 end as s) s
         cross join lateral (select array(select hashint8(s.s::bigint * 32 + k) & 2147483647 from generate_series(0, 19) k) as h) x
       ) p`,
      [start, end, LABEL, GEEZ, LATIN, REGION_CODES, ids],
    );
    if (end % 100_000 === 0 || end === size) process.stderr.write(`  ${end.toLocaleString('en')} people\n`);
  }
  await database.query('vacuum analyze records');
  const [{ n: people }] = await database.query<{ n: number }>(`select count(*)::int as n from records where title like '${PERSON_TITLE} %'`);
  return { inserted: Math.max(0, size - Number(existing)), seconds: (performance.now() - started) / 1000, people: Number(people), queued: await queuedCount(database.db) };
}

/**
 * The duplicate scan of the admins' screen (modules/duplicates/scan.ts) for up to `budgetS` seconds: records checked
 * per second, and how long the whole queue would take at that rate. What is left is taken off the queue (`clear`), so
 * that the site measured next does not scan in the background; the pairs found so far are those the screen shows.
 */
export async function scanPeople(database: Database, budgetS: number, clear: boolean) {
  const before = await queuedCount(database.db);
  const started = performance.now();
  const scanned = await scanQueue(database.db, { budgetMs: budgetS * 1000 });
  const seconds = (performance.now() - started) / 1000;
  const left = await queuedCount(database.db);
  if (clear && left) await database.query('delete from duplicate_scan_queue');
  const [{ n: pairs }] = await database.query<{ n: number }>('select count(*)::int as n from duplicate_pairs');
  await database.query('vacuum analyze duplicate_pairs');
  return { queued: before, scanned, seconds, perSecond: scanned / seconds, left, cleared: clear ? left : 0, pairs: Number(pairs) };
}

/** `count` people spread over the table (by a hash of their id), with what the form would send about them. */
export async function samplePeople(database: Database, count: number) {
  return database.query<{ category: string; full_name: string; person_name: string; woreda: string; happened_on: string; incident_id: string | null }>(
    `select category, full_name, person_name, woreda, to_char(happened_on at time zone 'UTC', 'YYYY-MM-DD') as happened_on, incident_id
     from records where title like '${PERSON_TITLE} %' and deleted_at is null order by hashtext(id::text) limit $1`,
    [count],
  );
}
