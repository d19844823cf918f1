import { hkdfSync } from 'node:crypto';
import fp from 'fastify-plugin';
import { USERS_API_BASE } from '@app/shared';
import { counterStore } from '../users/rate-limiter';
import { TestimonyAbuse } from './abuse';
import { formPage, receiptEntryPage, SCRIPT_PATH, type PageLanguage } from './page';
import { NO_ADDRESS_LOG, registerPublicRoutes } from './public-routes';
import { TestimonyReview } from './review';
import { registerReviewRoutes, sessionOf } from './review-routes';
import { TESTIFY_SCRIPT } from './script';
import { TestimonyService } from './service';
import { UnlockedSessions } from './sessions';

declare module 'fastify' {
  interface FastifyInstance {
    testimonies: TestimonyService;
  }
}

/**
 * Testimonies from witnesses (docs/testimony.md): the form and receipt pages, the submission and receipt API, and
 * the reviewers' queue. Wrapped with fastify-plugin for its two site-wide hooks: `Onion-Location` on pages, and
 * forgetting a session's unlocked key at sign-out.
 */
export default fp(
  async (app) => {
    const { config } = app;
    const lookupKey = Buffer.from(hkdfSync('sha256', config.jwtSecret, 'testimony', 'receipt-bucket', 32));
    const service = new TestimonyService(app.db, app.media.storage, lookupKey, ({
      maxFileBytes: config.TESTIMONY_MAX_FILE_MB * 1024 * 1024,
      maxTotalBytes: config.TESTIMONY_MAX_TOTAL_MB * 1024 * 1024,
    }));
    app.decorate('testimonies', service);
    const abuse = new TestimonyAbuse(config.jwtSecret, counterStore(app.redis, `${config.RATE_LIMIT_PREFIX}testimony:`, (m) => app.log.warn(m)));
    const sessions = new UnlockedSessions(config.TESTIMONY_UNLOCK_IDLE_MINUTES * 60_000);
    const review = new TestimonyReview(service, app.audit);
    app.addHook('onClose', async () => sessions.forgetAll());

    registerPublicRoutes(app, service, abuse);
    registerReviewRoutes(app, review, sessions);

    const language = (query: unknown): PageLanguage => ((query as { lang?: string })?.lang === 'am' ? 'am' : 'en');
    app.get('/testify', { logSerializers: NO_ADDRESS_LOG, schema: { hide: true } }, async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(
          formPage(language(request.query), {
            accepting: await service.accepting(),
            maxFileMb: config.TESTIMONY_MAX_FILE_MB,
            maxTotalMb: config.TESTIMONY_MAX_TOTAL_MB,
            onion: config.ONION_ADDRESS,
          }),
        ),
    );
    app.get('/testify/receipt', { logSerializers: NO_ADDRESS_LOG, schema: { hide: true } }, async (request, reply) =>
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(receiptEntryPage(language(request.query))),
    );
    app.get(SCRIPT_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').type('text/javascript; charset=utf-8').send(TESTIFY_SCRIPT),
    );

    if (config.ONION_ADDRESS) {
      const onion = `http://${config.ONION_ADDRESS}`;
      app.addHook('onSend', async (request, reply, payload) => {
        if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) reply.header('onion-location', onion + request.url);
        return payload;
      });
    }
    // Sign-out forgets the session's unlocked key (tokens are stateless: the sign-out call is the moment to do it).
    app.addHook('onRequest', async (request) => {
      if (request.url.split('?')[0] === `${USERS_API_BASE}/signout`) {
        const session = sessionOf(request);
        if (session) sessions.forget(session);
      }
    });
  },
  { name: 'testimony', dependencies: ['auth'] },
);
