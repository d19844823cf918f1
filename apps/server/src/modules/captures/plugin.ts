import fp from 'fastify-plugin';
import { CATEGORY_LIST, dataFields } from '@app/shared';
import { AddressPolicy } from './address-policy';
import { PageCapturer } from './browser';
import { CaptureViews } from './dto';
import { captureFileRoutes } from './file-routes';
import { recordCaptureRoutes } from './record-routes';
import { CAPTURE_JOB, CAPTURED_FIELDS, CaptureService, type Capturer } from './service';
import { CaptureSigner } from './signing';

/** The software the archives name (warcinfo, datapackage-digest.json): this site's captures, and the libraries writing them. */
const ARCHIVE_SOFTWARE = 'evidence-site captures (headless Chromium via Playwright; warcio; js-wacz)';

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
    const signer = CaptureSigner.forDataDir(config.dataDir);
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
          ignoreHttpsErrors: config.CAPTURE_ACCEPT_INVALID_TLS,
          policy,
          log: app.log,
        })),
      archive: { signer, software: ARCHIVE_SOFTWARE, tsaUrl: config.TSA_URL, tsaTrust: app.tsaTrust },
      log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) },
    });
    // Beside /.well-known/audit-key: the public key that signs captures' WACZ files (signing.ts says why another key).
    app.get('/.well-known/capture-key', { schema: { hide: true } }, async (_request, reply) =>
      reply.header('content-type', 'application/x-pem-file; charset=utf-8').header('cache-control', 'public, max-age=3600').send(`${signer.publicKeyPem}\n`),
    );
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
