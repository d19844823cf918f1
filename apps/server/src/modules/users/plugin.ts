import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { USERS_API_BASE } from '@app/shared';
import {
  emailOnlyBody,
  challengeBody,
  challengeResponse,
  signinTokenResponse,
  inactiveResponse,
  messageResponse,
  resetBody,
  signinBody,
  signupBody,
  tokenParams,
  tokenResponse,
} from './schemas';
import { z } from 'zod';
import { registerAccountRoutes } from './account-routes';
import { TwoFactor } from './two-factor';
import { registerTwoFactorRoutes } from './two-factor-routes';
import { ACTIVATE_FIRST, ACTIVATED, ACTIVATION_SENT, AccountService, PASSWORD_CHANGED, RESET_SENT, SIGNUP_DONE, type LimitName } from './service';
import type { LimitRule } from './rate-limiter';
import { refusals } from '../../errors';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Waits for the account work done after answering (sign-up, forgot-password, resend) and its e-mails. */
    settleAccountWork: () => Promise<void>;
  }
}

interface UsersPluginOptions {
  /** Overrides of the default rate limits (tests, or a deployment with other needs). */
  limits?: Partial<Record<LimitName, LimitRule>>;
}

const tags = ['users'];

/**
 * Resolves once the answer has gone out, on a timer after it: work started here does not hold back the answer's
 * bytes, nor (in one process, as the tests measure) the code that reads them.
 */
function answered(reply: FastifyReply): Promise<void> {
  return new Promise((resolve) => {
    const done = () => setTimeout(resolve, 0);
    if (reply.raw.writableFinished || reply.raw.destroyed) return done();
    let fired = false;
    const once = () => {
      if (fired) return;
      fired = true;
      done();
    };
    reply.raw.once('finish', once);
    reply.raw.once('close', once);
  });
}

/** Accounts under /api/users: sign-up with e-mailed activation, sign-in, password reset, the current user and roles. */
const usersRoutes: FastifyPluginAsync<UsersPluginOptions & { accounts: AccountService }> = async (instance, options) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const accounts = options.accounts;
  const twoFactor = new TwoFactor({ db: app.db, config: app.config, sessions: app.sessions, audit: app.audit });
  // Limits run before body validation, so every request counts, well-formed or not.
  const limitSignup = async (request: FastifyRequest) => accounts.consumeSignup(request.ip);
  const limitMailRequest = async (request: FastifyRequest) => accounts.consumeMailRequest(request.ip);

  app.post(
    '/signup',
    { preValidation: limitSignup, schema: { tags, body: signupBody, response: { 201: messageResponse, ...refusals(400, 413, 415, 429) } } },
    async (request, reply) => {
      const { firstName, lastName, email, password, organisation, reason } = request.body;
      await accounts.signup({ firstName, lastName, email, password, organisation, reason }, answered(reply));
      return reply.status(201).send({ message: SIGNUP_DONE });
    },
  );

  app.post(
    '/user/activation/:token',
    { schema: { tags, params: tokenParams, response: { 200: messageResponse, ...refusals(400, 413, 415) } } },
    async (request) => {
      await accounts.activate(request.params.token);
      return { message: ACTIVATED };
    },
  );

  /**
   * Asking for an e-mail (activation again, a password reset): the same answer whether or not there is such an
   * account, and the work (and the e-mail) after the answer, so neither its words nor its time tell.
   */
  const mailRequest = (url: string, start: (email: string, answeredAt: Promise<void>) => void, message: string) =>
    app.post(
      url,
      { preValidation: limitMailRequest, schema: { tags, body: emailOnlyBody, response: { 200: messageResponse, ...refusals(400, 413, 415, 429) } } },
      async (request, reply) => {
        start(request.body.email, answered(reply));
        return { message };
      },
    );
  mailRequest('/resend-activation', (email, answeredAt) => accounts.resendActivation(email, answeredAt), ACTIVATION_SENT);

  app.post(
    '/signin',
    {
      schema: {
        tags,
        body: signinBody,
        response: { 200: z.union([signinTokenResponse, challengeResponse]), ...refusals(400, 401, 413, 415, 429), 403: inactiveResponse },
      },
    },
    async (request, reply) => {
      const result = await accounts.signin(request.ip, request.body.email, request.body.password);
      if ('inactive' in result) return reply.status(403).send({ message: ACTIVATE_FIRST, resend: true });
      return twoFactor.afterPassword(result.user, { ip: request.ip, userAgent: request.headers['user-agent'] });
    },
  );

  app.post(
    '/signin/2fa',
    { schema: { tags, body: challengeBody, response: { 200: tokenResponse, ...refusals(400, 401, 413, 415) } } },
    async (request) =>
      twoFactor.answerChallenge(request.body.challenge, request.body.code, { ip: request.ip, userAgent: request.headers['user-agent'] }),
  );
  registerTwoFactorRoutes(app, twoFactor);

  mailRequest('/forgotpassword', (email, answeredAt) => accounts.forgotPassword(email, answeredAt), RESET_SENT);

  app.post(
    '/resetpassword/:token',
    { schema: { tags, params: tokenParams, body: resetBody, response: { 200: messageResponse, ...refusals(400, 413, 415) } } },
    async (request) => {
      await accounts.resetPassword(request.params.token, request.body);
      return { message: PASSWORD_CHANGED };
    },
  );
  registerAccountRoutes(app);
};

/** Not encapsulated, so `settleAccountWork` is the application's (tests and shutdown wait on it). */
const usersArea: FastifyPluginAsync<UsersPluginOptions> = fp(async (app: FastifyInstance, options: UsersPluginOptions) => {
  const { db, config, redis, mailQueue: mail, log } = app;
  const signupPerIp = { max: config.SIGNUP_LIMIT_PER_HOUR, windowMs: 60 * 60_000 };
  const accounts = new AccountService({ db, config, redis, mail, log }, { signupPerIp, ...options.limits });
  app.decorate('settleAccountWork', () => accounts.settle());
  app.addHook('onClose', () => accounts.settle());
  await app.register(usersRoutes, { ...options, accounts, prefix: USERS_API_BASE });
});

export default usersArea;
