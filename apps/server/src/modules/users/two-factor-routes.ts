import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { AppError, httpError, refusals } from '../../errors';
import { assertNotBlocked, counterStore, RateLimit } from './rate-limiter';
import { verifyPassword } from '../../services/passwords';
import { messageResponse, userIdParams } from './schemas';
import { TwoFactor, WRONG_CODE } from './two-factor';

const tags = ['users'];
const codeBody = z.preprocess((v) => v ?? {}, z.object({ code: z.string({ error: 'Enter the code' }).trim().min(1, { error: 'Enter the code' }).max(40) }));
const stepUpBody = z.preprocess(
  (v) => v ?? {},
  z.object({ code: z.string().trim().max(40).optional(), password: z.string().max(1000).optional() }).refine((v) => v.code || v.password, {
    error: 'Enter a code from your authenticator app, or your password',
    path: ['code'],
  }),
);

/** Second factors under /api/users/2fa (signed in, enrol-only sessions included), and step-up. */
export function registerTwoFactorRoutes(instance: FastifyInstance, twoFactor: TwoFactor) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const account = app.requireAccount;
  // Wrong codes or passwords sent by a signed-in session (step-up, turning a factor off): a stolen token must not be
  // able to guess the second factor behind it. Counted per account, in Redis when the site has it.
  const wrongProofs = new RateLimit(counterStore(app.redis, `${app.config.RATE_LIMIT_PREFIX}users:`), 'wrongProofsPerAccount', { max: 5, windowMs: 15 * 60_000 });
  const guarded = async <T>(accountId: string, attempt: () => Promise<T>): Promise<T> => {
    await assertNotBlocked([[wrongProofs, accountId]]);
    try {
      return await attempt();
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 400 && (err.body.code || err.body.password)) await wrongProofs.record(accountId);
      throw err;
    }
  };

  app.post(
    '/2fa/totp',
    { preHandler: account, schema: { tags, response: { 200: z.object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() }), ...refusals(400, 401, 409, 413, 415) } } },
    async (request) => twoFactor.beginTotp((await request.getAccount())!),
  );

  app.post(
    '/2fa/totp/confirm',
    { preHandler: account, schema: { tags, body: codeBody, response: { 200: z.object({ recoveryCodes: z.array(z.string()) }), ...refusals(400, 401, 409, 413, 415) } } },
    async (request) => twoFactor.confirmTotp((await request.getAccount())!, request.body.code),
  );

  /** Turns off the second factor of an account: its own (with its own code), or another's by a super (the super's code). */
  app.post(
    '/:id/2fa/reset',
    { preHandler: account, schema: { tags, params: userIdParams, body: codeBody, response: { 200: messageResponse, ...refusals(400, 401, 403, 404, 413, 415, 429) } } },
    async (request) => {
      const me = (await request.getAccount())!;
      await guarded(me.id, () => twoFactor.disable(me, request.params.id, request.body.code));
      return { message: 'The second factor has been turned off' };
    },
  );

  /** Step-up: a fresh second factor (or the password, for an account without one) for the next five minutes. */
  app.post(
    '/step-up',
    { preHandler: account, schema: { tags, body: stepUpBody, response: { 200: messageResponse, ...refusals(400, 401, 413, 415, 429) } } },
    async (request) => {
      const me = (await request.getAccount())!;
      await guarded(me.id, async () => {
        const proved = await app.db.transaction(async (tx) => {
          const [user] = await tx.select().from(users).where(eq(users.id, me.id)).for('update').limit(1);
          if (!user) return false;
          if (user.totpConfirmedAt) return Boolean(request.body.code) && twoFactor.consumeFactor(tx, user, request.body.code!);
          return Boolean(request.body.password) && verifyPassword(request.body.password!, user.passwordHash);
        });
        if (!proved) throw httpError.badRequest(request.body.password ? { password: 'Wrong password' } : { code: WRONG_CODE });
      });
      await app.sessions.markVerified(me.sid);
      return { message: 'Confirmed for the next five minutes' };
    },
  );
}
