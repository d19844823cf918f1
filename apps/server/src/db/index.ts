import { mkdirSync } from 'node:fs';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../locations';
import * as schema from './schema';
import { openEmbeddedServer, type EmbeddedServer } from './embedded-server';
import { sqlText, type SqlDialect } from './sql-text';

export { schema };

/** One type for both drivers (a union of the two breaks `.returning()` typing). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction of the application database (the callback argument of `db.transaction`). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** What a statement runs on: the database, or a transaction of it. */
export type Executor = Db | Tx;

/** The rows of a raw statement: both drivers answer `execute` with `{ rows }`, which the shared type leaves untyped. */
export async function rowsOf<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * The rows of a statement sent as written, with no drizzle in between: prepared once per connection under `name` on
 * node-postgres (PGlite has no named statements and parses it each time). For the hottest read, a list page's ids,
 * drizzle's mapping of every field of every row cost the site about as much as the driver did (docs/performance.md).
 */
export async function preparedRows<T>(db: Db, name: string, text: string, values: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client: pg.Pool | { query: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }> } }).$client;
  const result = client instanceof pg.Pool ? await client.query({ name, text, values }) : await client.query(text, values);
  return result.rows as T[];
}

/** Statement texts given a name by preparedSqlRows, at most PREPARED_SHAPES of them (each connection keeps every one). */
const namedTexts = new Map<string, string>();
const PREPARED_SHAPES = 48;

/**
 * The rows of a drizzle statement, prepared under a name of its text (the first PREPARED_SHAPES texts a process
 * builds; later ones run unnamed). A search builds its statements from the filters given, so their texts are few (one
 * per set of filters and number of values) while their values differ every time: prepared, PostgreSQL parses each once
 * per connection, and after five executions plans it once when a generic plan is as good, which halved the database
 * time of a search for a rare word (0.9 ms of planning for 0.8 ms of execution). Only for statements whose best plan
 * does not turn on the values (an index chosen by how common a word is would be chosen once for all words).
 * `generic`: planned once per connection whatever PostgreSQL's estimates say (see genericPools), for statements whose
 * plan was seen to be the same for every value (EXPLAIN of both); on PGlite, as `chosen`.
 */
export async function preparedSqlRows<T>(db: Db, query: SQL, plan: 'chosen' | 'generic' = 'chosen'): Promise<T[]> {
  const { sql: text, params } = sqlText((db as unknown as { dialect: SqlDialect }).dialect, query);
  let name = namedTexts.get(text);
  if (name === undefined && namedTexts.size < PREPARED_SHAPES) namedTexts.set(text, (name = `shaped_${namedTexts.size}`));
  if (name === undefined) return rowsOf<T>(db, query);
  const generic = plan === 'generic' ? genericPools.get(db) : undefined;
  return generic ? ((await generic.query({ name, text, values: params })).rows as T[]) : preparedRows<T>(db, name, text, params);
}

/**
 * Per PostgreSQL database: a pool whose connections plan every prepared statement once, generically
 * (plan_cache_mode = force_generic_plan), for `preparedSqlRows(..., 'generic')`. PostgreSQL keeps planning a statement
 * anew for each execution while its generic plan's estimate (a LIMIT or a tsquery of unknown value guessed at) looks
 * costlier than the custom plans, though the plan it picks is the same: a common word's search spent about half of
 * its database time planning its two statements. A pool of its own, since the setting is per connection, and the
 * other statements keep the plans chosen for their values. As many connections as the other pool (a search runs two
 * statements at once, and a few searches run at once), closed after 10 s idle.
 */
const genericPools = new WeakMap<Db, pg.Pool>();
/**
 * Without JIT: a generic plan's estimates are made for any value (a LIMIT of unknown size is taken as a tenth of the
 * table), so its cost passes jit_above_cost where the custom plan's did not, and compiling took a walk step of 1 ms to 16.
 */
const GENERIC_OPTIONS = '-c plan_cache_mode=force_generic_plan -c jit=off';

const preparedStatements = new WeakMap<Db, Map<string, unknown>>();

/**
 * A prepared statement made once per database handle and name: its SQL is built once per process, and PostgreSQL
 * parses and plans it once per connection.
 */
export function preparedOnce<T>(db: Db, name: string, make: () => T): T {
  let byName = preparedStatements.get(db);
  if (!byName) preparedStatements.set(db, (byName = new Map()));
  let statement = byName.get(name) as T | undefined;
  if (!statement) byName.set(name, (statement = make()));
  return statement;
}

export interface Database {
  db: Db;
  /** `postgres`: a PostgreSQL server (the embedded default or DATABASE_URL); `pglite`: in-process, for unit tests. */
  driver: 'pglite' | 'postgres';
  /** The connection string of a PostgreSQL server (for a second connection, e.g. LISTEN); none with PGlite. */
  url?: string;
  /** The server this process started or joined in the data folder, when no DATABASE_URL was given. */
  embedded?: EmbeddedServer;
  /** Runs a raw statement and returns its rows (used for EXPLAIN, health checks and LISTEN-free notifications). */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs `work` while this process holds the migrations' advisory lock, so processes starting together on one database
   * do a first start's work (the initial accounts, the sample content) once, one after the other, each seeing what the
   * one before made. PGlite belongs to one process and needs no lock.
   */
  underMigrationLock<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}


interface OpenOptions {
  /** postgres:// URL of a PostgreSQL server. */
  databaseUrl?: string;
  /** Without databaseUrl: the data folder whose embedded PostgreSQL server to use (started when not running). */
  embeddedDataDir?: string;
  /** Messages of the embedded server's start (initialising, recovering). */
  log?: (message: string) => void;
  /** Without either of the above: PGlite in this folder; `memory://` (or undefined) keeps it in memory, for tests. */
  pgliteDir?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
}

/** Opens the database and applies every pending migration before returning. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize);
  if (options.embeddedDataDir) {
    const embedded = await openEmbeddedServer(options.embeddedDataDir, options.log);
    try {
      const database = await openPostgres(embedded.url, options.poolSize);
      return {
        ...database,
        embedded,
        close: async () => {
          await database.close();
          await embedded.release();
        },
      };
    } catch (err) {
      await embedded.release();
      throw err;
    }
  }
  // Loaded only here: the embedded database's module takes memory that a PostgreSQL deployment never needs.
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const dir = options.pgliteDir && options.pgliteDir !== 'memory://' ? options.pgliteDir : undefined;
  if (dir) mkdirSync(dir, { recursive: true });
  // pg_trgm: name search by similarity (migration 0007_search), as on the PostgreSQL servers.
  const client = new PGlite({ dataDir: dir, extensions: { pg_trgm } });
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
  return {
    db,
    driver: 'pglite',
    query: async (text, params) => (await client.query(text, params as unknown[])).rows as never,
    underMigrationLock: (work) => work(),
    close: () => client.close(),
  };
}

async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const generic = new pg.Pool({ connectionString: url, max: poolSize, options: GENERIC_OPTIONS });
  for (const each of [pool, generic]) {
    // A connection dropping (PostgreSQL restarted, pg_terminate_backend, the embedded server killed) is emitted as
    // `error` on its client: by the pool while the client is idle, and by the client itself while a statement or a
    // transaction holds it, where nothing else listens and an unhandled `error` ends the process. The statement in
    // flight fails with the same error (a 503 with Retry-After: isDatabaseUnavailable), the server rolls back its
    // transaction, and the pool drops the client and connects anew for the next one.
    each.on('error', () => {});
    each.on('connect', (client) => client.on('error', () => {}));
  }
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  genericPools.set(db, generic);
  const close = () => Promise.all([pool.end(), generic.end()]).then(() => {});
  try {
    await migrateOnce(pool);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    db,
    driver: 'postgres',
    url,
    query: async (text, params) => (await pool.query(text, params as unknown[])).rows,
    underMigrationLock: (work) => underLock(url, work),
    close,
  };
}

/**
 * Migrations run under an advisory lock, so processes starting together (site, worker, CLI) apply them once. They run
 * on the connection that holds the lock: a pool of one connection would otherwise wait for itself.
 */
async function migrateOnce(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migratePg(drizzlePg({ client, schema }) as never, { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

export const MIGRATION_LOCK = 7_242_002;

/**
 * The lock is held by a connection of its own, outside the pool: `work` queries through the pool, and a pool of one
 * connection holding the lock would wait for itself.
 */
async function underLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // a lost connection ends the lock; the work's own queries report the outage
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    return await work();
  } finally {
    await client.end().catch(() => {});
  }
}
