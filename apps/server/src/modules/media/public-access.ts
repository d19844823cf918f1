import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db';

/**
 * Who may fetch a public copy (`/media/public/<name>`). A copy is served to anyone while its file is live and on a
 * live, public record; while its file is live and on a live record that is not public, to the signed-in readers
 * (through a link signed for them, signed-links.ts, or their token); never once its file is deleted or its record
 * trashed. The state is read from the database on every request, so hiding a record, trashing it or deleting an
 * image stops its copies at once in every process.
 */

/**
 * A new public copy's storage key: random, so a name says nothing about the bytes behind it (an identical image on a
 * public record and on a private one never share a URL, and knowing an image does not reveal that the site holds it).
 */
export function newPublicKey(ext: string, suffix = ''): string {
  return `public/${randomBytes(32).toString('hex')}${suffix}.${ext}`;
}

/** 'public': anyone may fetch it; 'private': signed-in readers only; null: nobody (no such copy, or not live). */
export type CopyAccess = 'public' | 'private' | null;

export async function copyAccess(db: Db, key: string): Promise<CopyAccess> {
  const [found] = await rowsOf<{ public: boolean | null; live: boolean | null }>(
    db,
    sql`select bool_or(m.removed_at is null and m.record_live and m.record_public) as public,
               bool_or(m.removed_at is null and m.record_live) as live
          from media_public_files f join media m on m.id = f.media_id
         where f.key = ${key}`,
  );
  return found?.public ? 'public' : found?.live ? 'private' : null;
}
