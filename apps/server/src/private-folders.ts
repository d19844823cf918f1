import { chmod, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The data folder's parts the public never reads directly - uploaded originals and captures (with their GPS data),
 * the staging folder, the outbox of e-mails, the keys - are for the site's user alone: files 0600 (written so by the
 * code that writes them) in folders 0700. Folders made by earlier versions (0755) are closed at every start, which
 * also closes their older 0644 files to everyone else at once; only permissions are taken away, never given.
 *
 * The data folder itself holds the keys: no one else may list it or open its files. When the embedded PostgreSQL
 * server runs as another user (the site run as root: it runs as `postgres`, db/embedded/binaries.ts), that user must
 * still pass through it to its own folder (`postgres/`, whose modes are PostgreSQL's and left alone): then it keeps
 * its execute bit for others (0711).
 */

const CLOSED_FOLDERS = ['media/originals', 'tmp', 'tmp/uploads', 'outbox'];
const KEY_FILES = ['jwt-secret', 'audit-signing-key.pem', 'capture-signing-key.pem', 'postgres-password'];

async function takeAway(file: string, bits: number): Promise<void> {
  const info = await stat(file).catch(() => null);
  if (info && (info.mode & bits) !== 0) await chmod(file, info.mode & 0o7777 & ~bits);
}

/**
 * Closes what is there (and makes the outbox folder closed, when e-mails go there, before its first letter). A folder
 * that refuses (a read-only data folder) is told to `warn`: the site still starts, and /ready names the fault.
 */
export async function closePrivateFolders(
  dataDir: string,
  options: { embeddedServerAsOtherUser: boolean; outbox: boolean; warn: (message: string) => void },
): Promise<void> {
  try {
    await mkdir(dataDir, { recursive: true });
    if (options.outbox) await mkdir(path.join(dataDir, 'outbox'), { recursive: true, mode: 0o700 });
    await takeAway(dataDir, options.embeddedServerAsOtherUser ? 0o066 : 0o077);
    for (const folder of CLOSED_FOLDERS) await takeAway(path.join(dataDir, folder), 0o077);
    for (const file of KEY_FILES) await takeAway(path.join(dataDir, file), 0o077);
  } catch (err) {
    options.warn(`The data folder's private parts could not be closed to other users: ${(err as Error).message}`);
  }
}
