import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The contents of a file the site makes once in its data folder (a signing key, a secret): read when it is there,
 * else made by `make` and put in place whole. Servers started together on one data folder all end up with the file
 * placed first: it is written under a name of its own and then hard-linked to its name, which fails for every
 * process but the first (EEXIST), so no process reads a half-written file or overwrites another's.
 */
export function fileMadeOnce(file: string, make: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8');
  mkdirSync(path.dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.draft`;
  writeFileSync(draft, make(), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(draft, { force: true });
  }
  return readFileSync(file, 'utf8');
}
