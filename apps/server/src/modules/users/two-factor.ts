import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { isStaffRole, isUuid, type Role } from '@app/shared';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { recoveryCodes, sessions, signinChallenges, users, type UserRow } from '../../db/schema';
import { AppError, httpError } from '../../errors';
import type { SignedInAccount } from '../../plugins/auth';
import type { AuditService } from '../../services/audit';
import type { SessionOrigin, SessionService } from '../../services/sessions';
import { acceptedStep, newRecoveryCodes, newTotp, qrSvg, recoveryCodeHash, TotpSealer } from '../../services/two-factor';

/** Second factors of an account: TOTP enrolment, recovery codes, the sign-in challenge, and turning them off. */

const CHALLENGE_LIFETIME_MS = 5 * 60_000;
const CHALLENGE_TRIES = 5;
export const WRONG_CODE = 'This code is not right (or was used already)';
const CHALLENGE_GONE = 'This sign-in has expired or was locked after too many wrong codes: sign in again';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface TwoFactorServices {
  db: Db;
  config: Pick<Config, 'REQUIRE_TWO_FACTOR' | 'SITE_NAME' | 'jwtSecret'>;
  sessions: Pick<SessionService, 'start' | 'revokeOthers' | 'markVerified'>;
  audit: Pick<AuditService, 'append'>;
}

export type SigninAnswer = { token: string; enrolRequired?: true } | { twoFactorRequired: true; challenge: string; methods: string[] };

export class TwoFactor {
  private readonly sealer: TotpSealer;

  constructor(private readonly services: TwoFactorServices) {
    this.sealer = new TotpSealer(services.config.jwtSecret);
  }

  /** Whether REQUIRE_TWO_FACTOR asks this role to sign in with a second factor. */
  required(role: Role): boolean {
    const rule = this.services.config.REQUIRE_TWO_FACTOR;
    return rule === 'all' ? role !== 'pending' : rule === 'staff' && isStaffRole(role);
  }

  /**
   * After a right password: an enrolled account is asked for its second factor (a challenge, no token); one that must
   * enrol and has not gets a session that allows enrolment only; any other account its session.
   */
  async afterPassword(user: UserRow, origin: SessionOrigin): Promise<SigninAnswer> {
    if (user.totpConfirmedAt) {
      const [challenge] = await this.services.db
        .insert(signinChallenges)
        .values({ userId: user.id, expiresAt: new Date(Date.now() + CHALLENGE_LIFETIME_MS) })
        .returning({ id: signinChallenges.id });
      return { twoFactorRequired: true, challenge: challenge!.id, methods: ['totp', 'recovery'] };
    }
    const started = await this.services.sessions.start(user, origin);
    if (this.required(user.role as Role)) {
      await this.services.db.update(sessions).set({ enrolOnly: true }).where(eq(sessions.id, started.sid));
      return { token: started.token, enrolRequired: true };
    }
    return { token: started.token };
  }

  /** The second step of a sign-in: a TOTP or recovery code for the challenge; 401 keyed by `code` when wrong. */
  async answerChallenge(challengeId: string, code: string, origin: SessionOrigin): Promise<{ token: string }> {
    const { db } = this.services;
    const live = and(eq(signinChallenges.id, challengeId), isNull(signinChallenges.usedAt), gt(signinChallenges.expiresAt, sql`now()`));
    const [challenge] = isUuid(challengeId) ? await db.select().from(signinChallenges).where(live).limit(1) : [];
    if (!challenge || challenge.failures >= CHALLENGE_TRIES) throw new AppError(401, { challenge: CHALLENGE_GONE });
    const user = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(users).where(eq(users.id, challenge.userId)).for('update').limit(1);
      if (!row?.active || !(await this.consumeFactor(tx, row, code))) return null;
      const [used] = await tx.update(signinChallenges).set({ usedAt: new Date() }).where(live).returning({ id: signinChallenges.id });
      return used ? row : null;
    });
    if (!user) {
      await db.update(signinChallenges).set({ failures: sql`${signinChallenges.failures} + 1` }).where(eq(signinChallenges.id, challengeId));
      throw new AppError(401, { code: WRONG_CODE });
    }
    return { token: (await this.services.sessions.start(user, origin)).token };
  }

  /**
   * Checks a TOTP code (one step either side, later than the last accepted) or an unused recovery code of `user`
   * and uses it up; false when neither. Run inside the transaction that holds the account's row.
   */
  async consumeFactor(tx: Tx, user: UserRow, code: string): Promise<boolean> {
    const typed = code.trim();
    if (user.totpSecret && user.totpConfirmedAt) {
      const step = acceptedStep(this.sealer.open(user.totpSecret), typed.replace(/\s/g, ''), user.totpLastStep);
      if (step !== null) {
        await tx.update(users).set({ totpLastStep: step }).where(eq(users.id, user.id));
        return true;
      }
    }
    if (typed.length < 10) return false;
    const used = await tx
      .update(recoveryCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(recoveryCodes.userId, user.id), eq(recoveryCodes.codeHash, recoveryCodeHash(typed)), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return used.length > 0;
  }

  /** Starts TOTP enrolment: a new secret (not yet in use) and its otpauth:// URI and QR code. */
  async beginTotp(account: SignedInAccount): Promise<{ secret: string; otpauthUrl: string; qrSvg: string }> {
    const [user] = await this.services.db.select().from(users).where(eq(users.id, account.id)).limit(1);
    if (!user) throw httpError.unauthorized();
    if (user.totpConfirmedAt) throw httpError.conflict({ message: 'An authenticator app is set up already: turn it off first' });
    const { secret, otpauthUrl } = newTotp(this.services.config.SITE_NAME, user.email);
    await this.services.db.update(users).set({ totpSecret: this.sealer.seal(secret) }).where(eq(users.id, user.id));
    return { secret, otpauthUrl, qrSvg: await qrSvg(otpauthUrl) };
  }

  /**
   * Confirms enrolment with a code from the app: TOTP is in use from now, ten recovery codes replace any earlier
   * ones, and the session asking becomes a full one.
   */
  async confirmTotp(account: SignedInAccount, code: string): Promise<{ recoveryCodes: string[] }> {
    const codes = newRecoveryCodes();
    await this.services.db.transaction(async (tx) => {
      const [user] = await tx.select().from(users).where(eq(users.id, account.id)).for('update').limit(1);
      if (!user?.totpSecret || user.totpConfirmedAt) throw httpError.conflict({ message: 'Start the set-up first' });
      const step = acceptedStep(this.sealer.open(user.totpSecret), code.replace(/\s/g, ''), user.totpLastStep);
      if (step === null) throw httpError.badRequest({ code: WRONG_CODE });
      await tx.update(users).set({ totpConfirmedAt: new Date(), totpLastStep: step }).where(eq(users.id, user.id));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId: user.id, codeHash: recoveryCodeHash(c) })));
      await tx.update(sessions).set({ enrolOnly: false, verifiedAt: new Date() }).where(eq(sessions.id, account.sid));
      await this.services.audit.append({ actor: account, action: 'user.2fa.enrol', subject: `user:${user.id}`, changes: { totp: { before: false, after: true } } }, tx);
    });
    return { recoveryCodes: codes };
  }

  /**
   * Turns the second factors of `targetId` off: the account's own code, or (for another account) the acting super's
   * own code. Ends every other session of the account, and is audited.
   */
  async disable(account: SignedInAccount, targetId: string, code: string): Promise<void> {
    const self = targetId === account.id;
    if (!self && account.role !== 'super') throw httpError.forbidden('Only a super can reset the second factor of another account');
    if (!isUuid(targetId)) throw httpError.notFound('No such user');
    await this.services.db.transaction(async (tx) => {
      const [prover] = await tx.select().from(users).where(eq(users.id, account.id)).for('update').limit(1);
      if (!prover || !(await this.consumeFactor(tx, prover, code))) throw httpError.badRequest({ code: WRONG_CODE });
      const [target] = await tx
        .update(users)
        .set({ totpSecret: null, totpConfirmedAt: null, updatedAt: new Date() })
        .where(eq(users.id, targetId))
        .returning({ id: users.id });
      if (!target) throw httpError.notFound('No such user');
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, targetId));
      await this.services.sessions.revokeOthers(targetId, self ? account.sid : undefined, tx);
      await this.services.audit.append({ actor: account, action: 'user.2fa.reset', subject: `user:${targetId}`, changes: { totp: { before: true, after: false } } }, tx);
    });
  }
}
