import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from './index';

/**
 * Every stored file of the link captures (snapshot, screenshot, headers, WACZ, TLS certificates) with the SHA-256 recorded when it was stored:
 * originals like uploads, which the fixity check and backups read beside the media rows.
 */
export async function captureFiles(db: Executor): Promise<{ captureId: string; key: string; sha256: string }[]> {
  return rowsOf<{ captureId: string; key: string; sha256: string }>(
    db,
    sql`select c.id as "captureId", f.key, f.sha256 from link_captures c
        cross join lateral (values (c.snapshot_key, c.snapshot_sha256), (c.screenshot_key, c.screenshot_sha256),
          (c.headers_key, c.headers_sha256), (c.wacz_key, c.wacz_sha256), (c.certificates_key, c.certificates_sha256)) as f(key, sha256)
        where f.key is not null and f.sha256 is not null
        order by c.requested_at, c.id`,
  );
}
