import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db';
import type { Storage } from './storage';

/** A stored file that no row names: no upload's original or copy, no capture's file. */
export interface Orphan {
  key: string;
  size: number;
  modified: Date;
}

/**
 * How old an orphan must be before `--prune` removes it: an upload stores its files before its row commits, and a
 * form with many files (a long video among them) may take a while to arrive, so a young one may be one under way.
 */
export const ORPHAN_GRACE_MS = 24 * 60 * 60_000;

const BATCH = 500;

/** Which of `keys` a row names, found by the indexes (a public copy's key, an original's SHA-256, a capture's id). */
async function referencedAmong(db: Db, keys: string[]): Promise<Set<string>> {
  const rows = await rowsOf<{ key: string }>(
    db,
    sql`select k as key from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) as k
        where exists (select 1 from media_public_files p where p.key = k)
          or exists (select 1 from media m where m.sha256 = substring(k from '[0-9a-f]{64}$') and m.storage_key = k)
          or (k !~ '/[0-9a-f]{64}$' and exists (select 1 from media m where m.storage_key = k))
          or exists (select 1 from testimony_files f where f.storage_key = k)
          or exists (
            select 1 from link_captures c
            where c.id = (case when split_part(k, '/', 4) ~ '^[0-9a-f-]{36}$' then split_part(k, '/', 4)::uuid end)
              and k in (c.snapshot_key, c.screenshot_key, c.headers_key, c.wacz_key, c.certificates_key))`,
  );
  return new Set(rows.map((r) => r.key));
}

/** Every stored file no row names (the leftovers of uploads refused before this was cleaned at once, or of a crash). */
export async function* findOrphans(db: Db, storage: Storage): AsyncGenerator<Orphan> {
  let batch: Orphan[] = [];
  const judge = async function* () {
    const referenced = await referencedAmong(db, batch.map((f) => f.key));
    for (const file of batch) if (!referenced.has(file.key)) yield file;
  };
  for await (const file of storage.list()) {
    batch.push(file);
    if (batch.length < BATCH) continue;
    yield* judge();
    batch = [];
  }
  if (batch.length) yield* judge();
}
