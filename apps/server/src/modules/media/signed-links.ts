import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { SIGNED_LINK_WINDOW_SECONDS, type Actor, type Role } from '@app/shared';
import { rowsOf, type Db } from '../../db';

/** The signed-in account a link is signed for. */
export interface LinkReader {
  id: string;
}

const LINK_RE = /^(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{32})$/;

/**
 * Links to files that are not public (a private record's image copies, a capture's files), for the signed-in reader
 * shown them: a browser fetches an `<img>` or a download without the reader's token, so the URL carries a `v` that
 * names its reader and its expiry under a MAC. A link is honoured for minutes (the API signs anew on every read, so a
 * page that reads its record again has fresh links) and only while its reader's account is active; the caller
 * checks on each request, against the database, that the file and its record are still there and that the reader
 * may read them, so a deletion, a trash, a deactivation or a role change stops every link at once in every process.
 *
 * The reader is named by its account id sealed with a key of the site (one AES block), so a link passed on does not
 * show which account it came from; the MAC binds the file, the expiry and the account.
 */
export class SignedLinks {
  private readonly macKey: Buffer;
  private readonly sealKey: Buffer;

  constructor(
    private readonly db: Db,
    secret: string,
  ) {
    // Keys of their own, derived from the site's secret, so a link can never pass as a token or vice versa.
    this.macKey = createHmac('sha256', secret).update('media-link-mac').digest();
    this.sealKey = createHmac('sha256', secret).update('media-link-reader').digest();
  }

  /**
   * The `v` query value of `resource` (a storage key) for `reader`. Expiries are aligned on windows, so the links of
   * one window are the same for a reader and the browser's cache keeps serving them; a link lives one to two windows.
   */
  sign(resource: string, reader: LinkReader, now = Date.now()): string {
    const expires = (Math.floor(now / 1000 / SIGNED_LINK_WINDOW_SECONDS) + 2) * SIGNED_LINK_WINDOW_SECONDS;
    return `${expires}.${this.seal(reader.id)}.${this.mac(resource, expires, reader.id)}`;
  }

  /**
   * The reader a link of `resource` was signed for, with the account's current role, when the link is intact and
   * unexpired and the account is active; null otherwise (a missing, forged, expired or foreign link).
   */
  async readerOf(resource: string, value: unknown, now = Date.now()): Promise<Actor | null> {
    if (typeof value !== 'string') return null;
    const match = LINK_RE.exec(value);
    if (!match) return null;
    const expires = Number(match[1]);
    const nowSeconds = now / 1000;
    // Never longer than a link is signed for, whatever the MAC says.
    if (expires < nowSeconds || expires > nowSeconds + 2 * SIGNED_LINK_WINDOW_SECONDS) return null;
    const readerId = this.unseal(match[2]!);
    if (!readerId) return null;
    const expected = Buffer.from(this.mac(resource, expires, readerId));
    const given = Buffer.from(match[3]!);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const [account] = await rowsOf<{ role: string; active: boolean }>(this.db, sql`select role, active from users where id = ${readerId}::uuid`);
    return account?.active ? { id: readerId, role: account.role as Role } : null;
  }

  /**
   * Who is asking for `resource`: the account of the request's token when it sends one (a link is then no use: a
   * reader's link does not lend its rights to another account), else the reader of the link in its `v` parameter.
   */
  async readerOfRequest(request: FastifyRequest, resource: string): Promise<Actor | null> {
    if (request.hasAuthHeader) return request.getActor();
    return this.readerOf(resource, (request.query as { v?: unknown } | undefined)?.v);
  }

  private mac(resource: string, expires: number, readerId: string): string {
    return createHmac('sha256', this.macKey).update(`${resource}\n${expires}\n${readerId}`).digest('base64url').slice(0, 32);
  }

  /** An account id (a UUID, exactly one AES block) encrypted with the site's key: the same id always seals alike. */
  private seal(readerId: string): string {
    const cipher = createCipheriv('aes-256-ecb', this.sealKey, null).setAutoPadding(false);
    const block = Buffer.from(readerId.replaceAll('-', ''), 'hex');
    return Buffer.concat([cipher.update(block), cipher.final()]).toString('base64url');
  }

  private unseal(sealed: string): string | null {
    const block = Buffer.from(sealed, 'base64url');
    if (block.length !== 16) return null;
    const decipher = createDecipheriv('aes-256-ecb', this.sealKey, null).setAutoPadding(false);
    // Any block opens to some id; a forged one fails the MAC.
    const hex = Buffer.concat([decipher.update(block), decipher.final()]).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
