import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db';

/**
 * Who may fetch a public copy (`/media/public/<name>`). A copy is served to anyone only while its file is on a record
 * that is live (not in the trash) and public; otherwise only through a signed URL, which the API gives the signed-in
 * editors who are shown the record (a browser fetches images without the editor's token). The check reads the
 * database on every request, so hiding a record or deleting an image stops its copies at once in every process.
 */

/**
 * A new public copy's storage key: random, so a name says nothing about the bytes behind it (an identical image on a
 * public record and on a private one never share a URL, and knowing an image does not reveal that the site holds it).
 */
export function newPublicKey(ext: string, suffix = ''): string {
  return `public/${randomBytes(32).toString('hex')}${suffix}.${ext}`;
}

type CopyVisibility = 'public' | 'hidden';

/** A signed URL stays valid until the end of the next UTC day, so the same URL is handed out all day (cacheable). */
const DAY_SECONDS = 86_400;

export class PublicCopyAccess {
  private readonly signingKey: Buffer;

  constructor(
    private readonly db: Db,
    secret: string,
  ) {
    // A key of its own, derived from the site's secret, so a media signature can never pass as a token or vice versa.
    this.signingKey = createHmac('sha256', secret).update('media-url-signing').digest();
  }

  /** 'public' when any live, public record's file has this copy; 'hidden' when only others do; null: no such copy. */
  async visibility(key: string): Promise<CopyVisibility | null> {
    const [found] = await rowsOf<{ visible: boolean | null }>(
      this.db,
      sql`select bool_or(m.removed_at is null and m.record_live and m.record_public) as visible
          from media_public_files f join media m on m.id = f.media_id
          where f.key = ${key}`,
    );
    const visible = found?.visible;
    return visible === null || visible === undefined ? null : visible ? 'public' : 'hidden';
  }

  /** The query string that lets a browser fetch a hidden copy until the end of the next UTC day. */
  signature(key: string, now = Date.now()): string {
    const expires = (Math.floor(now / 1000 / DAY_SECONDS) + 2) * DAY_SECONDS;
    return `${expires}.${this.mac(key, expires)}`;
  }

  verify(key: string, signature: unknown, now = Date.now()): boolean {
    if (typeof signature !== 'string') return false;
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{32})$/.exec(signature);
    if (!match) return false;
    const expires = Number(match[1]);
    if (expires * 1000 < now) return false;
    const expected = Buffer.from(this.mac(key, expires));
    const given = Buffer.from(match[2]!);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private mac(key: string, expires: number): string {
    return createHmac('sha256', this.signingKey).update(`${key}\n${expires}`).digest('base64url').slice(0, 32);
  }
}
