import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { isStaffRole, type Role } from '@app/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { users, type UserRow } from '../../db/schema';
import { httpError } from '../../errors';
import { hashPassword, verifyPassword } from '../../services/passwords';
import { staffPasswordProblem } from './password-policy';
import type { MailMessage } from '../../services/mail';
import type { MailQueue } from '../../services/mail-queue';
import { accountExistsEmail, activationEmail, passwordResetEmail, type EmailContext } from './emails';
import { findLiveToken, issueToken, markUsed, retireTokens } from './one-time-tokens';
import { assertNotBlocked, counterStore, RateLimit, type LimitRule } from './rate-limiter';

const WRONG_CREDENTIALS = 'Wrong e-mail or password';
export const ACTIVATE_FIRST = 'Activate your account first: we sent you a link';
export const DECLINED = 'An administrator declined this account request; the account is closed';
export const SIGNUP_DONE = 'Your account has been created. We sent you an e-mail with a link to activate it.';
export const ACTIVATION_SENT = 'If this e-mail belongs to an account that is not yet activated, we sent it a new activation link.';
export const RESET_SENT = 'If an account exists for this e-mail, we sent it a link to reset the password.';
export const ACTIVATED = 'Your account has been activated, sign in to your account';
export const PASSWORD_CHANGED = 'Your password has been changed. Sign in with the new password.';

export interface SignupInput {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  organisation?: string | undefined;
  reason?: string | undefined;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export type LimitName =
  | 'signinFailuresPerIp'
  | 'signinFailuresPerAccountAndIp'
  | 'signinFailuresPerEmail'
  | 'signupPerIp'
  | 'mailRequestsPerIp'
  | 'mailsPerAddress';

const DEFAULT_LIMITS: Record<LimitName, LimitRule> = {
  /** Guessing many accounts' passwords from one address. */
  signinFailuresPerIp: { max: 5, windowMs: 15 * MINUTE },
  /** Guessing one account's password from one address: blocks that address only, so the owner signing in from
   * anywhere else is not locked out by someone guessing their password. */
  signinFailuresPerAccountAndIp: { max: 5, windowMs: 15 * MINUTE },
  /** Guessing one account's password from many addresses: a ceiling well above what the owner's own mistakes reach. */
  signinFailuresPerEmail: { max: 50, windowMs: 15 * MINUTE },
  signupPerIp: { max: 10, windowMs: HOUR },
  /** Forgot-password and resend-activation requests from one address. */
  mailRequestsPerIp: { max: 10, windowMs: HOUR },
  /** Account e-mails to one recipient; over it, requests are answered as usual but nothing is sent (no mail bombing). */
  mailsPerAddress: { max: 5, windowMs: HOUR },
};

/**
 * What the accounts use: the database, the site's name and address for e-mails, Redis for limits shared between
 * processes (null: per process), mail and the log.
 */
interface AccountServices {
  db: Db;
  config: Pick<Config, 'RATE_LIMIT_PREFIX' | 'SITE_NAME' | 'publicUrl'>;
  redis: Redis | null;
  mail: Pick<MailQueue, 'send'>;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

/** Account logic of /api/users: sign-up, activation, sign-in and password reset (roles: roles.ts). */
export class AccountService {
  private readonly limits: Record<LimitName, RateLimit>;
  /** A hash of a random password, verified against when the e-mail is unknown so timing does not reveal accounts. */
  private dummyHash: Promise<string> | null = null;
  /** E-mails being sent and account work done after the answer (sign-up, forgot-password, resend). */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly services: AccountServices,
    limitRules: Partial<Record<LimitName, LimitRule>> = {},
  ) {
    const { redis, config, log } = services;
    const store = counterStore(redis, `${config.RATE_LIMIT_PREFIX}users:`, (message, err) => log.warn({ err }, message));
    const rules = { ...DEFAULT_LIMITS, ...limitRules };
    this.limits = Object.fromEntries(
      (Object.keys(rules) as LimitName[]).map((name) => [name, new RateLimit(store, name, rules[name])]),
    ) as Record<LimitName, RateLimit>;
  }

  private get emailContext(): EmailContext {
    return { siteName: this.services.config.SITE_NAME, publicUrl: this.services.config.publicUrl };
  }

  private findByEmail(email: string): Promise<UserRow | undefined> {
    return this.services.db
      .select()
      .from(users)
      .where(eq(users.email, email))
      .limit(1)
      .then((rows) => rows[0]);
  }

  /**
   * Sends in the background: the answer must not wait for (or reveal through its timing) whether a message was sent.
   * A failed delivery is queued and retried (MailQueue); one that could not even be queued is logged, never its
   * recipient, and the user can ask again.
   */
  private deliver(message: MailMessage): void {
    // The message only: a database error's detail may quote the row, the mail's link in it.
    const notQueued = (err: unknown) => this.services.log.error({ reason: err instanceof Error ? err.message : String(err) }, 'account e-mail neither sent nor queued');
    this.track(this.services.mail.send(message).catch(notQueued));
  }

  private track(work: Promise<unknown>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /**
   * Runs `work` once `answered` resolves (the answer has been sent). Sign-up, forgot-password and resend-activation
   * answer alike whether or not the account exists; doing the lookup and the writes after answering keeps their
   * timing from telling either.
   */
  private later(what: string, answered: Promise<void>, work: () => Promise<void>): void {
    this.track(
      answered
        .then(work)
        .catch((err) => this.services.log.error({ err }, `${what} failed`)),
    );
  }

  /** Waits for account work and e-mails still in progress (on shutdown, and in tests). */
  async settle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** Whether another account e-mail may go to `email` now (counted whether or not the account exists). */
  private async mayMail(email: string): Promise<boolean> {
    const window = await this.limits.mailsPerAddress.record(email);
    return window.count <= this.limits.mailsPerAddress.rule.max;
  }

  /** Counts a sign-up request from `ip` (before validation, so malformed floods count too); 429 over the limit. */
  consumeSignup(ip: string): Promise<void> {
    return this.limits.signupPerIp.consume(ip);
  }

  /** Counts a forgot-password or resend-activation request from `ip`; 429 over the limit. */
  consumeMailRequest(ip: string): Promise<void> {
    return this.limits.mailRequestsPerIp.consume(ip);
  }

  /**
   * Creates the account after the answer (see `later`). An e-mail that already has an account gets a note saying so
   * instead of a new account: the answer is the same, so sign-up does not tell who has an account here.
   */
  async signup(input: SignupInput, answered: Promise<void>): Promise<void> {
    // The password is hashed before answering, for a new e-mail and a taken one alike: the answer takes the hash's
    // time either way, and the account exists a moment after the answer rather than a hash later (a sign-in straight
    // after sign-up found no account).
    const passwordHash = await hashPassword(input.password);
    this.later('sign-up', answered, () => this.createAccount(input, passwordHash));
  }

  private async createAccount(input: Omit<SignupInput, 'password'>, passwordHash: string): Promise<void> {
    const existing = await this.findByEmail(input.email);
    if (existing) {
      if (await this.mayMail(existing.email)) this.deliver(accountExistsEmail(this.emailContext, existing));
      return;
    }
    let token: string;
    let user: UserRow;
    try {
      [user, token] = await this.services.db.transaction(async (tx) => {
        const [created] = await tx
          .insert(users)
          .values({
            email: input.email,
            firstName: input.firstName,
            lastName: input.lastName,
            organisation: input.organisation || null,
            reason: input.reason || null,
            passwordHash,
            // Waits for an administrator after activation (decisions.md §4).
            role: 'pending',
            active: false,
          })
          .returning();
        return [created!, await issueToken(tx, created!.id, 'activation')] as const;
      });
    } catch (err) {
      // Two sign-ups with one e-mail at the same moment: the unique index decides, the loser creates nothing.
      if (await this.findByEmail(input.email)) return;
      throw err;
    }
    if (await this.mayMail(user.email)) this.deliver(activationEmail(this.emailContext, user, token));
  }

  async activate(token: string): Promise<void> {
    await this.services.db.transaction(async (tx) => {
      const row = await findLiveToken(tx, token, 'activation');
      await markUsed(tx, row.id, 'activation');
      await tx.update(users).set({ active: true, updatedAt: new Date() }).where(eq(users.id, row.userId));
    });
  }

  resendActivation(email: string, answered: Promise<void>): void {
    this.later('resend-activation', answered, () => this.sendActivationAgain(email));
  }

  private async sendActivationAgain(email: string): Promise<void> {
    const user = await this.findByEmail(email);
    const allowed = await this.mayMail(email);
    if (!user || user.active || !allowed) return;
    const token = await issueToken(this.services.db, user.id, 'activation');
    this.deliver(activationEmail(this.emailContext, user, token));
  }

  /**
   * The account of a right e-mail and password (the caller starts its session or asks for its second factor), or
   * `inactive` for one not yet activated. Throws 401, 403 (declined) or 429.
   */
  async signin(ip: string, email: string, password: string): Promise<{ user: UserRow } | { inactive: true }> {
    const accountAtIp = `${email}|${ip}`;
    await assertNotBlocked([
      [this.limits.signinFailuresPerIp, ip],
      [this.limits.signinFailuresPerAccountAndIp, accountAtIp],
      [this.limits.signinFailuresPerEmail, email],
    ]);
    const user = await this.findByEmail(email);
    let valid: boolean;
    if (user) {
      valid = await verifyPassword(password, user.passwordHash);
    } else {
      this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
      await verifyPassword(password, await this.dummyHash);
      valid = false;
    }
    if (!user || !valid) {
      await Promise.all([
        this.limits.signinFailuresPerIp.record(ip),
        this.limits.signinFailuresPerAccountAndIp.record(accountAtIp),
        this.limits.signinFailuresPerEmail.record(email),
      ]);
      throw httpError.unauthorized(WRONG_CREDENTIALS);
    }
    await this.limits.signinFailuresPerAccountAndIp.reset(accountAtIp);
    // Only a caller who knows the password learns that the account is not activated, or was declined.
    if (!user.active && user.decidedAt) throw httpError.forbidden(DECLINED);
    if (!user.active) return { inactive: true };
    return { user };
  }

  forgotPassword(email: string, answered: Promise<void>): void {
    this.later('forgot-password', answered, () => this.sendReset(email));
  }

  private async sendReset(email: string): Promise<void> {
    const user = await this.findByEmail(email);
    const allowed = await this.mayMail(email);
    if (!user || !allowed) return;
    const token = await issueToken(this.services.db, user.id, 'reset');
    this.deliver(passwordResetEmail(this.emailContext, user, token));
  }

  /** Sets the new password, retires every reset link of the account and raises its token version. */
  async resetPassword(token: string, input: { email: string; password: string }): Promise<void> {
    const passwordHash = await hashPassword(input.password);
    const email = await this.services.db.transaction(async (tx) => {
      const row = await findLiveToken(tx, token, 'reset');
      const [user] = await tx.select().from(users).where(eq(users.id, row.userId)).limit(1);
      if (!user || user.email !== input.email) {
        throw httpError.badRequest({ email: 'This e-mail does not match the account of this reset link' });
      }
      const weak = isStaffRole(user.role as Role) ? staffPasswordProblem(input.password, [user.email, user.firstName, user.lastName]) : null;
      if (weak) throw httpError.badRequest({ password: weak });
      await markUsed(tx, row.id, 'reset');
      await retireTokens(tx, user.id, 'reset');
      await tx
        .update(users)
        .set({
          passwordHash,
          // A reset link proves the e-mail is the account's: it activates an invited account (or one never activated).
          active: true,
          tokenVersion: sql`${users.tokenVersion} + 1`,
          updatedAt: new Date(),
        })
        .where(eq(users.id, user.id));
      return user.email;
    });
    await this.limits.signinFailuresPerEmail.reset(email);
  }
}
