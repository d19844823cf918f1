import { SignJWT, jwtVerify } from 'jose';
import { ROLES, type JwtClaims, type Role } from '@app/shared';

/** Signs and verifies the bearer tokens (HS256, claims id, role, name, exp and token version). */
export class JwtService {
  private readonly key: Uint8Array;

  constructor(secret: string, private readonly ttlSeconds: number) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(user: { id: string; role: string; firstName: string; lastName: string; tokenVersion: number }): Promise<string> {
    return new SignJWT({ id: user.id, role: user.role, name: `${user.firstName} ${user.lastName}`.trim(), tv: user.tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.ttlSeconds)
      .sign(this.key);
  }

  /** The token's claims, or null when it is malformed, forged or expired. */
  async verify(token: string): Promise<JwtClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.id !== 'string' || !ROLES.includes(payload.role as Role) || typeof payload.exp !== 'number') {
        return null;
      }
      return {
        id: payload.id,
        role: payload.role as Role,
        name: String(payload.name ?? ''),
        exp: payload.exp,
        tv: Number(payload.tv ?? 0),
      };
    } catch {
      return null;
    }
  }
}
