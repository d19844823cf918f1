import { randomUUID } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The staging folder (`DATA_DIR/tmp/uploads`): uploads are written there while they are checked, and video jobs work
 * there. Its files are named after the process writing them, so a process starting can tell the leftovers of one
 * that died (a crash, a kill, a power cut) from the uploads another process on the same data folder is receiving.
 */

/** Host names as they may appear in a file name. */
const host = () => os.hostname().replace(/[^A-Za-z0-9.-]/g, '_');

/** A new staging file's name: `<host>~<pid>~<uuid>.upload`. */
export function stagingFileName(): string {
  return `${host()}~${process.pid}~${randomUUID()}.upload`;
}

const OWNED = /^(.+)~(\d+)~[0-9a-f-]{36}\.upload$/;
/** The names of earlier versions, which said nothing of their writer. */
const UNOWNED = /^[0-9a-f-]{36}\.upload$/;
/** An upload being received is written to all the time: one unwritten for this long has no writer left. */
const UNOWNED_IDLE_MS = 10 * 60_000;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a staging entry is left over: its process on this host is gone, or it was untouched for too long. */
function isLeftOver(name: string, modifiedMs: number, now: number, maxAgeMs: number): boolean {
  if (now - modifiedMs > maxAgeMs) return true;
  const owned = OWNED.exec(name);
  if (owned) return owned[1] === host() && Number(owned[2]) !== process.pid && !isRunning(Number(owned[2]));
  return UNOWNED.test(name) && now - modifiedMs > UNOWNED_IDLE_MS;
}

/**
 * Removes what crashed processes left in the staging folder: their partial uploads (which would keep a full disk
 * full), and anything (video work folders too) older than `maxAgeMs`. Returns how many entries it removed.
 */
export async function cleanStagingFolder(dir: string, maxAgeMs = 24 * 60 * 60_000): Promise<number> {
  let removed = 0;
  const now = Date.now();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const full = path.join(dir, name);
    const info = await stat(full).catch(() => null);
    if (info && isLeftOver(name, info.mtimeMs, now, maxAgeMs)) {
      await rm(full, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}
