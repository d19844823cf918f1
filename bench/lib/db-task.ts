/**
 * Database side of the benchmark, run as a child process with `node --import tsx` (it imports the server's TypeScript
 * database layer). Without a databaseUrl it joins (or starts) the embedded PostgreSQL server of `dataDir`, as the
 * site does.
 *
 *   node --import tsx bench/lib/db-task.ts '{"action":"seed","size":100000,"dataDir":"...","databaseUrl":null}'
 *   node --import tsx bench/lib/db-task.ts '{"action":"time","runs":30,...}'
 *
 * Prints one JSON line on stdout (the result); progress goes to stderr.
 */
import { performance } from 'node:perf_hooks';
import { CATEGORY_SLUGS, REGION_CODES } from '@app/shared';
import { openDatabase, type Database } from '../../apps/server/src/db/index';
import { listGallery } from '../../apps/server/src/modules/records/gallery-query';
import * as listQuery from '../../apps/server/src/modules/records/list-query';
import { cursorOf, listRecords } from '../../apps/server/src/modules/records/list-query';
import { findRecordView } from '../../apps/server/src/modules/records/repository';
import { encodeCursor, type Page } from '../../apps/server/src/modules/records/paging';
import { upsertSuper } from '../../apps/server/src/services/accounts';
import { computeStatistics, type StatisticsSource } from '../../apps/server/src/modules/statistics/queries';
import { searchFiltersSchema } from '@app/shared';
import { samplePeople, scanPeople, seedPeople } from './people-data';

interface TaskInput {
  action: 'seed' | 'time' | 'account' | 'stats' | 'seed-people' | 'scan-people' | 'sample-people';
  /** With `scan-people`: seconds of scanning, and whether what is left is taken off the queue. With `sample-people`: how many. */
  budgetS?: number;
  clear?: boolean;
  count?: number;
  /** With `account`: the bench reader's e-mail and password (an active super account is created or promoted). */
  email?: string;
  password?: string;
  size: number;
  /** The site's data folder (its embedded PostgreSQL server), used when databaseUrl is not set. */
  dataDir?: string;
  databaseUrl?: string | null;
  runs?: number;
  /** Offset of the deep page (chosen by the caller from the category size). */
  deepOffset?: number;
  /** A gallery image row for record n when n % mediaEvery == 0 (a multiple of 10 keeps them on victims; 0: none). */
  mediaEvery?: number;
}

/** The category that holds most records, as victims do on the real site; lists and deep pages are measured on it. */
export const MAIN_CATEGORY = 'victims';
const OTHER_CATEGORIES = CATEGORY_SLUGS.filter((slug) => slug !== MAIN_CATEGORY);
const LABEL = 'Benchmark data - not real';

/**
 * Grows the records table to `size` rows with one INSERT ... SELECT generate_series. Record n (1-based) is the n-th
 * newest (created one second before record n-1), so growing the table only adds older records and page 1 stays the
 * same at every size. 60 % of the records are victims, the rest spread over the other categories. Each record
 * serialises to about 1 KB of JSON.
 */
async function seed(database: Database, size: number, mediaEvery: number) {
  const [{ n: existing }] = await database.query<{ n: number }>(`select count(*)::int as n from records where title like 'Bench record %'`);
  const from = Number(existing) + 1;
  const started = performance.now();
  // Bounded statements keep PGlite's memory flat, and short ones keep per-row triggers (record counters updated by every
  // insert) from walking long chains of row versions within one transaction.
  const batch = 10_000;
  for (let start = from; start <= size; start += batch) {
    const end = Math.min(size, start + batch - 1);
    await database.query(
      `insert into records (category, title, subtitle, description, created_at, updated_at, approved, approved_at, public,
         graphic, sample, full_name, location, victimizer, killing_type, happened_on, quantity, short_description, remark,
         region, zone, woreda)
       select
         case when n % 10 < 6 then $3 else ($4::text[])[1 + (n % ${OTHER_CATEGORIES.length})] end,
         'Bench record ' || n,
         $5,
         repeat('${LABEL}. Generated text that gives the record the size of a real entry, about one kilobyte. ', 8) || n ||
           ' benchword' || (n % 10000) || case when n % 7 = 0 then ' ሙከራ መዝገብ' else '' end,
         timestamptz '2025-01-01 00:00:00+00' - n * interval '1 second',
         timestamptz '2025-01-01 00:00:00+00' - n * interval '1 second',
         true, timestamptz '2025-01-02 00:00:00+00', true, false, true,
         'Bench person ' || n, 'Bench place (fictional)', 'Bench perpetrator ' || chr(65 + n % 6) || ' (fictional)',
         'Bench type ' || chr(65 + n % 4),
         timestamptz '2020-01-01 00:00:00+00' + (n % 1500) * interval '1 day', 1 + n % 50,
         '${LABEL}: short description ' || n, 'bench remark',
         -- Every region, and one record in sixteen with none (the "unknown region" bucket), as records made before regions.
         case when n % 16 = 15 then null else ($6::text[])[1 + (n % 16) % ${REGION_CODES.length}] end,
         'Bench zone ' || (n % 200), 'Bench woreda ' || (n % 1000)
       from generate_series($1::int, $2::int) as n`,
      [start, end, MAIN_CATEGORY, OTHER_CATEGORIES, LABEL, REGION_CODES],
    );
    if (mediaEvery > 0) {
      // Gallery rows (files do not exist: only the JSON of /images is measured, never the image bytes).
      await database.query(
        `insert into media (record_id, kind, role, position, storage_key, sha256, size, mime, width, height, variants,
           public_key, caption, created_at)
         select r.id, 'image', 'cover', 0, 'bench/' || r.id, md5(r.id::text) || md5(r.title), 123456, 'image/jpeg', 1200, 800,
           '[]'::jsonb, 'bench/' || r.id || '.jpg', $3, r.created_at
         from records r
         where r.category = $5
           and r.created_at between timestamptz '2025-01-01 00:00:00+00' - $2::int * interval '1 second'
                                and timestamptz '2025-01-01 00:00:00+00' - $1::int * interval '1 second'
           and extract(epoch from timestamptz '2025-01-01 00:00:00+00' - r.created_at)::int % $4 = 0`,
        [start, end, LABEL, mediaEvery, MAIN_CATEGORY],
      );
    }
    if (end % 100_000 === 0 || end === size) process.stderr.write(`  seeded ${end.toLocaleString('en')} records\n`);
  }
  // Every record here has the same name in Latin letters ("bench person"): its duplicate scan (queued by the triggers
  // of migration 0019) would compare each with every other, in the background of the parts measured. The
  // duplicates part has records of its own (people-data.ts).
  await database.query(`delete from duplicate_scan_queue q using records r where r.id = q.record_id and r.title like 'Bench record %'`);
  // As autovacuum leaves a table on a running site (inserts trigger it too): statistics, and the visibility map that
  // lets index-only scans (list pages, offsets) skip the table's pages.
  await database.query('vacuum analyze records');
  await database.query('vacuum analyze media');
  const counts = await database.query<{ category: string; n: number }>(
    `select category, count(*)::int as n from records where deleted_at is null group by category order by category`,
  );
  const [{ n: mediaRows }] = await database.query<{ n: number }>(`select count(*)::int as n from media`);
  return {
    inserted: Math.max(0, size - from + 1),
    seconds: (performance.now() - started) / 1000,
    total: counts.reduce((sum, c) => sum + Number(c.n), 0),
    perCategory: Object.fromEntries(counts.map((c) => [c.category, Number(c.n)])),
    mediaRows: Number(mediaRows),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Stops a query's series after this long (at least MIN_RUNS runs), so slow queries at 1M rows stay bounded. */
const BUDGET_MS = Number(process.env.BENCH_QUERY_BUDGET_MS ?? 4000);
const MIN_RUNS = 5;

async function timeIt(runs: number, fn: () => Promise<unknown>) {
  await fn(); // warm-up: plans and pages in cache, as on a running site
  const ms: number[] = [];
  const started = performance.now();
  for (let i = 0; i < runs && (i < MIN_RUNS || performance.now() - started < BUDGET_MS); i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return { medianMs: median(ms), p90Ms: percentile(ms, 90), runs: ms.length };
}

/** Times the exact queries the API runs (the repository's own builders), anonymous variant. */
async function time(database: Database, runs: number, deepOffset: number) {
  const db = database.db;
  const filter = { category: MAIN_CATEGORY, includePrivate: false } as const;
  const page = (offset: number): Page => ({ limit: 50, offset, cursor: null });
  // The keyset position of the deep page: the last record before it.
  const {
    rows: [beforeDeep],
  } = await listRecords(db, filter, { limit: 1, offset: Math.max(0, deepOffset - 1), cursor: null });
  const cursorPage: Page = { limit: 50, offset: 0, cursor: beforeDeep ? cursorOf(beforeDeep.record) : null };
  const {
    rows: [middle],
  } = await listRecords(db, filter, page(Math.floor(deepOffset / 2)));
  const results: Record<string, { medianMs: number; p90Ms: number; runs: number }> = {};
  // A list read is one prepared statement that brings the page and its total.
  results.listPage1 = await timeIt(runs, () => listRecords(db, filter, page(0)));
  results.listDeepOffset = await timeIt(runs, () => listRecords(db, filter, page(deepOffset)));
  if (cursorPage.cursor) results.listDeepCursor = await timeIt(runs, () => listRecords(db, filter, cursorPage));
  // The API's own count, whichever form the records module has now (count(*) builder or counter table).
  const api = listQuery as unknown as Record<string, ((...args: unknown[]) => unknown) | undefined>;
  const apiCount = api.countRecords ?? api.countQuery;
  if (apiCount) {
    results.countCategory = await timeIt(runs, async () => apiCount(db, filter));
    results.countAll = await timeIt(runs, async () => apiCount(db, { includePrivate: false }));
  }
  // A plain count(*) over the live public rows, for comparison at every size.
  results.countScan = await timeIt(runs, () =>
    database.query(`select count(*)::int as n from records where deleted_at is null and public and category = $1`, [MAIN_CATEGORY]),
  );
  results.newsPage1 = await timeIt(runs, () => listRecords(db, { includePrivate: false }, page(0)));
  if (middle) results.detail = await timeIt(runs, () => findRecordView(db, middle.record.id));
  results.galleryPage1 = await timeIt(runs, () => listGallery(db, false, page(0)));
  return {
    results,
    deepOffset,
    detailId: middle?.record.id ?? null,
    deepCursor: cursorPage.cursor ? encodeCursor(cursorPage.cursor) : null,
  };
}

/**
 * Times the statistics the API computes (GET /statistics), anonymous: from record_stats without filters, with two
 * facets, and with a date range that cuts months (counted live over their days); live with a rare word; and a plain
 * count of every live record (the GROUP BY the table replaces), for comparison.
 */
async function timeStatistics(database: Database, runs: number) {
  const db = database.db;
  const cases: Record<string, { filters: Record<string, unknown>; force?: StatisticsSource }> = {
    all: { filters: {} },
    // Amhara and perpetrator B share records in the seeded data (both fall on odd record numbers).
    twoFacets: { filters: { region: ['amhara'], victimizer: ['Bench perpetrator B (fictional)'] } },
    partialMonths: { filters: { from: '2021-03-15', to: '2023-08-20' } },
    rareWord: { filters: { q: 'benchword42' } },
    liveGroupByAll: { filters: {}, force: 'live' },
  };
  const results: Record<string, { medianMs: number; p90Ms: number; runs: number; source: string; total: number }> = {};
  for (const [name, { filters, force }] of Object.entries(cases)) {
    const parsed = searchFiltersSchema.parse(filters);
    const { source, statistics } = await computeStatistics(db, parsed, { includePrivate: false }, force);
    results[name] = { ...(await timeIt(runs, () => computeStatistics(db, parsed, { includePrivate: false }, force))), source, total: statistics.total };
  }
  const [{ n: statsRows }] = await database.query<{ n: number }>(`select count(*)::int as n from record_stats where n <> 0`);
  return { results, statsRows };
}

async function main() {
  const input = JSON.parse(process.argv[2] ?? '{}') as TaskInput;
  const database = await openDatabase({ databaseUrl: input.databaseUrl ?? undefined, embeddedDataDir: input.dataDir, poolSize: 2 });
  try {
    const people: Partial<Record<TaskInput['action'], () => Promise<unknown>>> = {
      'seed-people': () => seedPeople(database, input.size),
      'scan-people': () => scanPeople(database, input.budgetS ?? 60, input.clear ?? true),
      'sample-people': async () => ({ people: await samplePeople(database, input.count ?? 300) }),
    };
    const result = people[input.action]
      ? await people[input.action]!()
      : input.action === 'seed'
        ? await seed(database, input.size, input.mediaEvery ?? 0)
        : input.action === 'account'
          ? await upsertSuper(database.db, input.email!, input.password!)
          : input.action === 'stats'
            ? await timeStatistics(database, input.runs ?? 30)
            : await time(database, input.runs ?? 30, input.deepOffset ?? 0);
    process.stdout.write(`${JSON.stringify({ driver: database.driver, ...(result as object) })}\n`);
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
