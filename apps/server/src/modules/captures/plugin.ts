import fp from 'fastify-plugin';
import { CATEGORY_LIST, dataFields } from '@app/shared';
import { AddressPolicy } from './address-policy';
import { PageCapturer } from './browser';
import { CaptureViews } from './dto';
import { captureFileRoutes } from './file-routes';
import { recordCaptureRoutes } from './record-routes';
import { CAPTURE_JOB, CAPTURED_FIELDS, CaptureService, type Capturer } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    captures: CaptureService;
  }
}

/**
 * Captures of cited links: the `link.capture` job, the routes that list a record's captures and ask for new ones,
 * and the routes that serve a capture's files. Not encapsulated: the records area's writes queue captures through
 * the `captures` decorator.
 */
export default fp(
  async (app) => {
    const { config } = app;
    const policy = new AddressPolicy(config.CAPTURE_ALLOW_HOSTS);
    let capturer: PageCapturer | null = null;
    const service = new CaptureService(app.db, {
      enabled: config.CAPTURE_ENABLED,
      jobs: app.jobs,
      audit: app.audit,
      storage: app.media.storage,
      capturer: (): Capturer =>
        (capturer ??= new PageCapturer({
          browserPath: config.CAPTURE_BROWSER_PATH,
          timeoutMs: config.CAPTURE_TIMEOUT_SECONDS * 1000,
          maxBytes: config.CAPTURE_MAX_MB,
          policy,
          log: app.log,
        })),
      log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) },
    });
    app.decorate('captures', service);
    app.jobs.register(CAPTURE_JOB, async (payload, job) => {
      await service.run(String(payload.captureId), job, Number(payload.maxAttempts) || undefined);
    });
    app.addHook('onClose', async () => capturer?.close());

    // Links signed for their reader, as for hidden media copies: a browser opens a file's URL without the reader's token.
    const views = new CaptureViews(service, app.media.links);
    const capturing = CATEGORY_LIST.filter((c) => dataFields(c).some((f) => (CAPTURED_FIELDS as readonly string[]).includes(f.name)));
    for (const category of capturing) recordCaptureRoutes(app, category, views);
    captureFileRoutes(app);
  },
  { name: 'captures', dependencies: ['db', 'auth', 'media'] },
);
