import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { campaignDefaults } from '../../db/schema';
import { COUNTRY_CODES, loadDirectoryIfEmpty } from './directory';
import { defaultLetter } from './letters';
import { campaignRoutes } from './routes';
import { CampaignService, SEND_JOB } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    campaign: CampaignService;
  }
}

/** How often this process expires unconfirmed letters and scrubs old personal data (the work is idempotent). */
const MAINTENANCE_INTERVAL_MS = 10 * 60_000;

/**
 * Campaign area: the representatives' directory (loaded at first start), each country's default letter, the
 * confirm-by-e-mail message flow with its send job, and the periodic expiry and scrubbing. Not encapsulated, so
 * tests reach the service as `app.campaign`; its routes are a child plugin (their form-body parser stays theirs).
 */
export default fp(
  async (app: FastifyInstance) => {
    const service = new CampaignService({
      db: app.db,
      config: app.config,
      audit: app.audit,
      mail: app.mail,
      mailQueue: app.mailQueue,
      jobs: app.jobs,
      log: app.log,
      contentChanged: (change) => app.contentChanged(change),
    });
    app.decorate('campaign', service);

    await loadDirectoryIfEmpty(app.db, app.audit);
    await app.db
      .insert(campaignDefaults)
      .values(COUNTRY_CODES.map((country) => ({ country, message: defaultLetter(country) })))
      .onConflictDoNothing();

    app.jobs.register(SEND_JOB, async (payload, job) => {
      if (typeof payload.id !== 'string') return;
      await service.deliver(payload.id, job.attempts);
    });

    // Tests call app.campaign.maintain() themselves instead of waiting for a timer.
    if (app.config.NODE_ENV !== 'test') {
      let timer: NodeJS.Timeout | null = null;
      const run = () =>
        service
          .maintain()
          .then((r) => (r.expired || r.scrubbed) && app.log.info(r, 'campaign maintenance'))
          .catch((err) => app.log.error({ err }, 'campaign maintenance failed'));
      app.addHook('onReady', async () => {
        void run();
        timer = setInterval(run, MAINTENANCE_INTERVAL_MS);
        timer.unref();
      });
      app.addHook('onClose', async () => {
        if (timer) clearInterval(timer);
      });
    }

    await app.register(campaignRoutes);
  },
  { name: 'campaign', dependencies: ['db', 'auth'] },
);
