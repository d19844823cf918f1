import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db';
import { tableNames } from '../src/db/migrate-from-pglite';
import { seedSampleContent } from '../src/seed/sample';

const serverDir = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pglite-move-'));
chmodSync(dataDir, 0o755); // as root the embedded server runs as the user postgres

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Every row of every table as JSON text, sorted, so two databases compare whole. */
async function everyRow(database: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await tableNames(database)) {
    const rows = await database.query<{ row: string }>(`select row_to_json(t)::text as row from "${table}" t order by 1`);
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

function migrate() {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'migrate-from-pglite'], {
    cwd: serverDir,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
}

describe('npm run admin -- migrate-from-pglite', () => {
  it('copies every row of every table of an earlier PGlite folder into the embedded server, and refuses a second copy', async () => {
    const pgliteDir = path.join(dataDir, 'pglite');
    const old = await openDatabase({ pgliteDir });
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: 'm'.repeat(40) });
    const app = await buildApp({ config, database: old, runJobs: false, logger: false });
    await app.ready();
    await seedSampleContent({ db: app.db, media: app.media, audit: app.audit, log: app.log }); // labelled sample records of every category, accounts, audit entries
    await app.close();
    const before = await everyRow(old);
    await old.close();
    expect(before.records!.length).toBeGreaterThan(5);
    expect(before.audit_log!.length).toBeGreaterThan(0);

    const moved = migrate();
    expect(moved.stderr).not.toMatch(/nothing was changed|Error/);
    expect(moved.status).toBe(0);
    expect(moved.stdout).toContain('the audit chain of');
    expect(existsSync(pgliteDir)).toBe(false);
    const kept = readdirSync(dataDir).find((name) => name.startsWith('pglite.migrated-'));
    expect(kept).toBeDefined();

    const migrated = await openDatabase({ embeddedDataDir: dataDir });
    try {
      expect(await everyRow(migrated)).toEqual(before);
      // Sequences continue after the copied rows: a new audit entry gets the next number.
      const [next] = await migrated.query<{ seq: string }>("select nextval(pg_get_serial_sequence('audit_log', 'seq'))::text as seq");
      expect(Number(next!.seq)).toBe(before.audit_log!.length + 1);
    } finally {
      await migrated.close();
    }

    // Put the old folder back: the server now holds records, so a second copy is refused and changes nothing.
    renameSync(path.join(dataDir, kept!), pgliteDir);
    const again = migrate();
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already holds data');
    expect(existsSync(pgliteDir)).toBe(true);
  });
});
