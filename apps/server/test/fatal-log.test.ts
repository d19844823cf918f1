import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { freePort } from './fixtures/free-port';

/**
 * Issue 51, item 4: what ends a process (its start failing, an error nothing caught, a promise nothing awaited) is
 * logged as one JSON line with its causes, in the form of the rest of the log, not a plain Node.js stack on stderr
 * that an operator's log collector does not read as an entry.
 */

const serverDir = path.resolve(import.meta.dirname, '..');

async function runNode(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr };
}

/** The one fatal entry of a process's output, parsed; fails unless there is exactly one. */
function fatalEntry(output: string): { level: number; msg: string; err: { message: string; stack: string; cause?: { message: string } } } {
  const entries = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; err: { message: string; stack: string; cause?: { message: string } } });
  const fatal = entries.filter((entry) => entry.level === 60);
  expect(fatal, output).toHaveLength(1);
  return fatal[0]!;
}

it('a site whose database refuses it at start logs why as one JSON line and exits 1', async () => {
  const port = await freePort(); // nothing listens there
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fatal-log-test-'));
  const { code, stdout, stderr } = await runNode(['src/main.ts'], {
    DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/none`,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
  }).finally(() => rmSync(dataDir, { recursive: true, force: true }));
  expect(code).toBe(1);
  const fatal = fatalEntry(stdout);
  expect(fatal.msg).toBe('the process failed to start');
  expect(fatal.err.message).toMatch(/ECONNREFUSED/);
  expect(stderr).not.toMatch(/^\s+at /m);
});

it.each([
  ['an error thrown where nothing catches it', 'setTimeout(() => { throw new Error("Sample fatal failure (test)", { cause: new Error("Sample cause (test)") }); }, 10);', /an error nothing handled/],
  ['a promise that fails with nothing awaiting it', 'setTimeout(() => void Promise.reject(new Error("Sample fatal failure (test)", { cause: new Error("Sample cause (test)") })), 10);', /a promise failed/],
])('%s, once the process runs: one JSON line with its cause, then exit 1', async (_what, failure, message) => {
  const script = `import { run } from './src/bootstrap'; run(async () => { ${failure} setInterval(() => {}, 1000); });`;
  const { code, stdout, stderr } = await runNode(['--input-type=module', '-e', script]);
  expect(code).toBe(1);
  const fatal = fatalEntry(stdout);
  expect(fatal.msg).toMatch(message);
  expect(fatal.err.message).toBe('Sample fatal failure (test)');
  expect(fatal.err.cause?.message).toBe('Sample cause (test)');
  expect(stderr).toBe('');
});
