import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { mkdir, open, rm, stat, statfs } from 'node:fs/promises';
import path from 'node:path';

/**
 * Why a folder of the data directory cannot take files: what /ready names (`storage: "full"`, `"not writable"`),
 * with the cause kept for its log line.
 */
export class FolderFaultError extends Error {
  constructor(
    readonly readyState: 'full' | 'not writable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const MB = 1024 * 1024;

/**
 * `mkdir -p` that tells why it failed: Node's recursive mkdir reports a read-only file system as ENOENT, which would
 * send an operator looking for a missing folder; the first missing folder made alone gives the real cause (EROFS, EACCES).
 */
export async function makeFolder(dir: string, mode?: number): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    let first = dir;
    while (path.dirname(first) !== first && !(await stat(path.dirname(first)).catch(() => null))) first = path.dirname(first);
    await mkdir(first, { mode });
    await mkdir(dir, { recursive: true, mode });
  }
}

/**
 * Whether `dir` takes files: one byte written and removed (root writes into a folder whose mode forbids it,
 * so only a real write tells a read-only or full file system, or a file where the folder should be), and at least
 * `minFreeBytes` left for unprivileged users on its file system (the database and the logs need room too). A missing
 * folder is made, with `mode`.
 */
export async function checkFolder(dir: string, minFreeBytes: number, mode?: number): Promise<void> {
  const probe = path.join(dir, `.ready-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await makeFolder(dir, mode);
    const handle = await open(probe, fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_WRONLY, 0o600);
    try {
      // Not flushed: a flush waits on the whole disk's writes, longer than /ready may take on a busy one.
      await handle.write(Buffer.from([0]));
    } finally {
      await handle.close();
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    const state = code === 'ENOSPC' || code === 'EDQUOT' ? 'full' : 'not writable';
    throw new FolderFaultError(state, `${dir} cannot take files (${code})`, { cause: err });
  } finally {
    await rm(probe, { force: true }).catch(() => {});
  }
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  if (free < minFreeBytes) {
    throw new FolderFaultError(
      'full',
      `${dir} has ${(free / MB).toFixed(1)} MB free, below the floor of ${(minFreeBytes / MB).toFixed(0)} MB (STORAGE_MIN_FREE_MB)`,
    );
  }
}
