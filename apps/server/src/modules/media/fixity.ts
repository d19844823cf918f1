import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { asc } from 'drizzle-orm';
import type { MediaVerifyReport } from '@app/shared';
import type { Db } from '../../db';
import { media } from '../../db/schema';
import { captureFiles } from '../../db/capture-files';
import type { Storage } from './storage';

/**
 * The fixity check: re-reads every stored original (removed ones too: they are evidence) and compares its SHA-256
 * with the one recorded at upload. Originals shared by several rows are read once. A link capture's files are
 * reported with the id `capture:<id>`.
 */
export async function verifyOriginals(db: Db, storage: Storage, onProgress?: (done: number) => void): Promise<MediaVerifyReport> {
  const uploads = await db.select({ id: media.id, key: media.storageKey, sha256: media.sha256 }).from(media).orderBy(asc(media.createdAt));
  const captures = (await captureFiles(db)).map((f) => ({ id: `capture:${f.captureId}`, key: f.key, sha256: f.sha256 }));
  const report: MediaVerifyReport = { checked: 0, ok: 0, mismatched: [], missing: [] };
  const actualByKey = new Map<string, string | null>();
  for (const row of [...uploads, ...captures]) {
    if (!actualByKey.has(row.key)) actualByKey.set(row.key, await hashStored(storage, row.key));
    const actual = actualByKey.get(row.key)!;
    report.checked++;
    if (actual === null) report.missing.push({ id: row.id, key: row.key });
    else if (actual !== row.sha256) report.mismatched.push({ id: row.id, key: row.key, expected: row.sha256, actual });
    else report.ok++;
    onProgress?.(report.checked);
  }
  return report;
}

async function hashStored(storage: Storage, key: string): Promise<string | null> {
  if ((await storage.size(key)) === null) return null;
  const hash = createHash('sha256');
  await pipeline(await storage.get(key), hash);
  return hash.digest('hex');
}
