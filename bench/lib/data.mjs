// The bench's data: a throw-away PostgreSQL database per run, and the database task (seed, SQL timings) run with tsx.
import path from 'node:path';
import pg from 'pg';
import { run } from './proc.mjs';
import { ROOT } from './site.mjs';

export async function dbTask(input) {
  // A million people (the duplicates part) take longer to make than a million records with the embedded server.
  const timeoutMs = input.action === 'seed-people' ? 1_800_000 : input.action === 'seed' ? 900_000 : 600_000;
  const { code, stdout, stderr } = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/lib/db-task.ts'), JSON.stringify(input)], {
    cwd: ROOT,
    timeoutMs,
    echo: input.action === 'seed' || input.action === 'seed-people',
  });
  if (code !== 0) throw new Error(`database task ${input.action} failed:\n${stderr}`);
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function createPgDatabase(adminUrl, name) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  console.log(`PostgreSQL database ${name} created`);
  return withDatabase(adminUrl, name);
}

/** The database `name` on the server of `adminUrl`, made when missing and otherwise used as it is (--pg-database). */
export async function ensurePgDatabase(adminUrl, name) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name}"`);
    console.log(`PostgreSQL database ${name} ${rowCount ? 'used as it is (kept after the run)' : 'created (kept after the run)'}`);
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, name);
}

export async function dropPgDatabase(adminUrl, databaseUrl) {
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
  console.log(`PostgreSQL database ${name} dropped`);
}
