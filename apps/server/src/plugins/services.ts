import path from 'node:path';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { withoutCredentials } from '../config-secrets';
import type { Database, Db } from '../db';
import { AuditService } from '../services/audit';
import { previousSigner, siteSigner, type AuditSigner } from '../services/audit-checkpoints';
import { JobQueue } from '../services/jobs';
import { TimestampTrust } from '../services/timestamping';
import { MailService } from '../services/mail';
import { MailQueue } from '../services/mail-queue';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    audit: AuditService;
    /** Signs audit checkpoints; its public key is published at /.well-known/audit-key. */
    auditSigner: AuditSigner;
    /** The time-stamping authorities trusted (TSA_CA_FILE); every RFC 3161 token received is checked against them. */
    tsaTrust: TimestampTrust;
    /** One try of a mail (campaign letters, whose send job retries); accounts and confirmations use mailQueue. */
    mail: MailService;
    /** Mail tried at once and, when the server fails, kept in the database and tried again with back-off. */
    mailQueue: MailQueue;
    jobs: JobQueue;
    /** Shared Redis connection when REDIS_URL is set (rate limits, cache invalidation across processes). */
    redis: Redis | null;
    /**
     * The one way to say that what the public sees has changed, after the change is committed: record writes, media
     * jobs, access and trash changes, delivered letters. The response cache is what listens.
     */
    contentChanged: (change: ContentChange) => void;
    onContentChanged: (listener: (change: ContentChange) => void) => void;
  }
}

/**
 * What changed: `records` (a record, its files or its visibility: lists, pages, the gallery, feeds) or `reports`
 * (the public list of delivered letters, and nothing else).
 */
export interface ContentChange {
  area: 'records' | 'reports';
  category?: string | null;
  /** Set when the change was made by another server process and arrived through Redis or PostgreSQL. */
  elsewhere?: boolean;
}

/** Decorates the app with configuration, the database and the services every area shares. */
export default fp<{ config: Config; database: Database; runJobs: boolean }>(
  async (app, { config, database, runJobs }) => {
    app.decorate('config', config);
    app.decorate('database', database);
    app.decorate('db', database.db);
    const signer = siteSigner(config);
    const tsaTrust = config.TSA_CA_FILE ? TimestampTrust.fromPem(config.TSA_CA_FILE) : TimestampTrust.unchecked;
    app.decorate('tsaTrust', tsaTrust);
    app.decorate('audit', new AuditService(database.db, { signer, every: config.AUDIT_CHECKPOINT_EVERY, tsaTrust }));
    app.decorate('auditSigner', signer);
    // The key in use joins the site's key history (an audit entry) before it signs anything, so that the site, its
    // backups and a site restored from them keep trusting every checkpoint it ever signed.
    app.addHook('onReady', async () => void (await app.audit.introduceKey(signer, 'new signing key', previousSigner(config))));
    app.decorate(
      'mail',
      new MailService({
        from: config.MAIL_FROM ?? `${config.SITE_NAME} <${config.CONTACT_EMAIL}>`,
        smtpUrl: config.SMTP_URL,
        outboxDir: path.join(config.dataDir, 'outbox'),
        showLinks: config.NODE_ENV !== 'production',
        log: (msg) => app.log.info(msg),
      }),
    );
    // Loaded only when configured: the default setup needs no Redis client in memory.
    const redis = config.REDIS_URL
      ? new (await import('ioredis')).Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2 })
      : null;
    app.decorate('redis', redis);
    if (redis) {
      // Without a listener ioredis prints every failed reconnect to stderr; one warning per outage is what helps. An
      // outage at start is no reason to stop: the site runs degraded and connects when Redis comes.
      let lost = false;
      let everReady = false;
      const where = withoutCredentials(config.REDIS_URL!);
      redis.on('error', (err: Error) => {
        if (lost) return;
        lost = true;
        app.log.warn(
          `REDIS_URL: Redis at ${where} is unreachable (${err.message}); ${everReady ? 'running' : 'starting'} without it, ` +
            'reconnecting meanwhile: rate limits count per process, cache changes go through PostgreSQL',
        );
      });
      redis.on('ready', () => {
        everReady = true;
        if (!lost) return;
        lost = false;
        app.log.warn(`Redis reachable again at ${where}`);
      });
    }
    const contentListeners: ((change: ContentChange) => void)[] = [];
    app.decorate('onContentChanged', (listener: (change: ContentChange) => void) => void contentListeners.push(listener));
    app.decorate('contentChanged', (change: ContentChange) => {
      for (const listener of contentListeners) {
        try {
          listener(change);
        } catch (err) {
          app.log.error({ err, change }, 'a content-changed listener failed');
        }
      }
    });
    // QUIT would wait for a reconnect while Redis is down, holding up the shutdown; then the socket is just dropped.
    if (redis) app.addHook('onClose', async () => (redis.status === 'ready' ? void (await redis.quit()) : redis.disconnect()));
    const jobs = new JobQueue(database.db, { log: app.log });
    app.decorate('jobs', jobs);
    app.decorate('mailQueue', new MailQueue(database.db, jobs, app.mail, app.log));
    // Job handlers are registered by the area plugins; the loop starts once they are all loaded.
    if (runJobs) app.addHook('onReady', async () => jobs.start());
    app.addHook('onClose', async () => {
      await jobs.stop();
      app.mail.close();
    });
  },
  { name: 'db' },
);
