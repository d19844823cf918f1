/**
 * `npm run db:generate`: drizzle-kit writes the migration of a schema change, then the SQL the category registry
 * decides (registry-sql.ts: search columns, stemmer, statistics trigger) is added where it differs from the latest
 * migrations: to the migration drizzle-kit just wrote (a new column and the search that reads it land together), or
 * to a new one.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { changedParts, migrationOf } from './registry-diff';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MIGRATIONS_DIR = path.join(SERVER_DIR, 'drizzle');

interface Journal {
  entries: { tag: string }[];
}

const JOURNAL_FILE = path.join(MIGRATIONS_DIR, 'meta/_journal.json');
const journal = (): Journal => JSON.parse(readFileSync(JOURNAL_FILE, 'utf8')) as Journal;

/**
 * drizzle's migrator applies, on a database that has migrations, only those dated after the last one it applied: a
 * new migration dated before an earlier one (drizzle-kit dates it by the clock; some entries carry a later date) would
 * never run there. Each entry is dated after the one before it.
 */
function keepJournalInOrder(): void {
  const text = readFileSync(JOURNAL_FILE, 'utf8');
  const data = JSON.parse(text) as { entries: { when: number }[] };
  let changed = false;
  data.entries.forEach((entry, i) => {
    const before = data.entries[i - 1];
    if (before && entry.when <= before.when) {
      entry.when = before.when + 1000;
      changed = true;
    }
  });
  if (changed) writeFileSync(JOURNAL_FILE, JSON.stringify(data, null, 2));
}
const migrationFile = (tag: string) => path.join(MIGRATIONS_DIR, `${tag}.sql`);

function drizzleKit(args: string[]): void {
  // Its command line, beside its main module (the package exports no path to it).
  const bin = path.join(path.dirname(createRequire(import.meta.url).resolve('drizzle-kit')), 'bin.cjs');
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: SERVER_DIR, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`drizzle-kit ${args.join(' ')} failed (exit ${result.status})`);
}

function main(): void {
  const before = journal().entries.length;
  drizzleKit(['generate']);
  keepJournalInOrder();
  const changes = changedParts(journal().entries.map((entry) => readFileSync(migrationFile(entry.tag), 'utf8')));
  if (!changes.length) {
    console.log('Registry SQL (search columns, statistics trigger): the latest migrations are up to date.');
    return;
  }
  if (journal().entries.length === before) {
    drizzleKit(['generate', '--custom', '--name=registry']);
    keepJournalInOrder();
  }
  const latest = journal().entries.at(-1)!.tag;
  const file = migrationFile(latest);
  const existing = readFileSync(file, 'utf8').trim();
  // A custom migration starts as a comment without a final newline.
  appendFileSync(file, `${existing && !existing.startsWith('-- Custom SQL migration file') ? '\n--> statement-breakpoint\n' : '\n'}${migrationOf(changes)}`);
  console.log(`Registry SQL written to drizzle/${latest}.sql:\n${changes.flatMap((c) => c.reasons.map((r) => `  ${r}`)).join('\n')}`);
}

main();
