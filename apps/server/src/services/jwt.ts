import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { ROLES, type JwtClaims, type Role } from '@app/shared';

/**
 * Tokens that verified, by their exact text: a signed-in reader sends the same token with every request, and checking
 * its signature again (through WebCrypto, an asynchronous job) took a tenth of a signed-in read's time. Only a token
 * whose signature verified is kept, and its expiry is checked on every use; revocation is not this cache's concern
 * (the account is read on every request, plugins/auth.ts).
 */
const VERIFIED_TOKENS = 10_000;

/** An account id as the database casts it: accounts are read many at a time, and one bad id would fail them all. */
const ACCOUNT_ID = z.guid();

/** Signs and verifies the bearer tokens (HS256, claims id, role, name, exp, token version and session id). */
export class JwtService {
  private readonly key: Uint8Array;
  private readonly verified = new LRUCache<string, JwtClaims>({ max: VERIFIED_TOKENS });

  constructor(secret: string, private readonly ttlSeconds: number) {
    this.key = new TextEncoder().encode(secret);
  }

  /** `sid`: the session the token belongs to (services/sessions.ts); the server refuses a token without one. */
  sign(user: { id: string; role: string; firstName: string; lastName: string; tokenVersion: number }, sid?: string): Promise<string> {
    const claims = { id: user.id, role: user.role, name: `${user.firstName} ${user.lastName}`.trim(), tv: user.tokenVersion };
    return new SignJWT(sid ? { ...claims, sid } : claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.ttlSeconds)
      .sign(this.key);
  }

  /** The token's claims, or null when it is malformed, forged or expired. */
  async verify(token: string): Promise<JwtClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp > Date.now() / 1000) return known;
      this.verified.delete(token);
      return null;
    }
    const claims = await this.verifySignature(token);
    if (claims) this.verified.set(token, Object.freeze(claims));
    return claims;
  }

  private async verifySignature(token: string): Promise<JwtClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (!ACCOUNT_ID.safeParse(payload.id).success || !ROLES.includes(payload.role as Role) || typeof payload.exp !== 'number') {
        return null;
      }
      return {
        id: payload.id as string,
        role: payload.role as Role,
        name: String(payload.name ?? ''),
        exp: payload.exp,
        tv: Number(payload.tv ?? 0),
        ...(ACCOUNT_ID.safeParse(payload.sid).success ? { sid: payload.sid as string } : {}),
      };
    } catch {
      return null;
    }
  }
}
