import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { verifyPassword } from '../src/services/passwords';
import { createTestDatabase } from './fixtures/shared';

/**
 * `npm run admin -- ...` as an operator types it: the command's own message is the last thing printed and its exit
 * code is npm's; create-super takes the password from standard input; a refused restore into a new data folder leaves
 * no new, empty database there.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const work = mkdtempSync(path.join(os.tmpdir(), 'admin-commands-test-'));
chmodSync(work, 0o755); // as root the database runs as the user postgres, which must be able to enter the folders
const cleanups: (() => Promise<void> | void)[] = [() => rmSync(work, { recursive: true, force: true })];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function admin(args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'admin', '--', ...args], { cwd: ROOT, env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

it('a refused command ends with its own message and keeps its exit code: no report of npm after it', async () => {
  const run = await admin(['create-super', 'not-an-address'], { DATA_DIR: path.join(work, 'unused') });
  expect(run.code).toBe(2);
  expect(lastLine(run.stderr)).toMatch(/^create-super: give a valid e-mail address/);
  expect(run.stderr).not.toContain('npm error');
  // Refused before any database was started: nothing made.
  expect(existsSync(path.join(work, 'unused'))).toBe(false);
});

it('create-super reads the password from standard input, which npm does not print', async () => {
  const database = await createTestDatabase();
  cleanups.push(database.drop);
  const password = 'a password read from stdin (test only)';
  const run = await admin(['create-super', 'Stdin-Super@example.test'], { DATABASE_URL: database.url, DATA_DIR: path.join(work, 'stdin') }, `${password}\n`);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(lastLine(run.stdout)).toBe('Created super account stdin-super@example.test');
  expect(run.stdout + run.stderr).not.toContain(password);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ role: string; password_hash: string }>("select role, password_hash from users where email = 'stdin-super@example.test'");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.role).toBe('super');
    expect(await verifyPassword(password, rows[0]!.password_hash)).toBe(true);
  } finally {
    await client.end();
  }
  const short = await admin(['create-super', 'stdin-super@example.test'], { DATABASE_URL: database.url }, 'short\n');
  expect(short.code).toBe(2);
  expect(lastLine(short.stderr)).toBe('create-super: Use at least 10 characters; nothing was changed');
  // Long enough, but guessed in a few tries: refused as it is for a staff account in the site.
  for (const guessable of ['password123', 'qwertyuiop1']) {
    const weak = await admin(['create-super', 'weak-super@example.test'], { DATABASE_URL: database.url }, `${guessable}\n`);
    expect(weak.code, guessable).toBe(2);
    expect(lastLine(weak.stderr), guessable).toMatch(/^create-super: This password is too (common|easy to guess)/);
  }
  const check = new pg.Client({ connectionString: database.url });
  await check.connect();
  try {
    expect((await check.query("select 1 from users where email = 'weak-super@example.test'")).rows).toEqual([]);
  } finally {
    await check.end();
  }
});

it('a refused restore removes the database it made in the data folder, and leaves what was there before', async () => {
  const archive = path.join(work, 'not-a-backup.tar.gz');
  writeFileSync(archive, 'not a backup of this site');
  const fresh = path.join(work, 'new-folder');
  const kept = path.join(work, 'existing-folder');
  mkdirSync(kept);
  chmodSync(kept, 0o755);
  writeFileSync(path.join(kept, 'operator-notes.txt'), 'kept (test)');
  for (const dataDir of [fresh, kept]) {
    const run = await admin(['restore', archive], { DATA_DIR: dataDir, DATABASE_URL: '' });
    expect(run.code, run.stderr).toBe(1);
    expect(lastLine(run.stderr)).toMatch(/not a gzip|damaged|cut short|not a backup/i);
    expect(run.stderr).not.toContain('npm error');
    expect(run.stderr).toContain('Initialising the embedded PostgreSQL cluster');
  }
  expect(existsSync(fresh)).toBe(false);
  expect(readdirSync(kept)).toEqual(['operator-notes.txt']);
});
