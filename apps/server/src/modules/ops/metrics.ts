import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import { SEND_JOB } from '../campaign/service';

/**
 * The site's Prometheus metrics, in a registry of the app's own (tests build several apps in one process, and the
 * global registry would mix them). Counts kept elsewhere (the response cache, the mail service, the jobs table) are
 * read at scrape time, so the hot paths pay nothing for them.
 */
export function createMetrics(app: FastifyInstance) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status'] as const;
  const requests = requestsCounter(app, registry);
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request reaching the application to its answer, by route pattern and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // Counters whose value lives elsewhere: set at each scrape from the running total.
  const mirrored = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  mirrored('public_cache_hits_total', 'Anonymous reads answered from the public response cache', () => app.publicCache.stats().hits);
  mirrored('public_cache_misses_total', 'Anonymous cacheable reads the cache had to produce', () => app.publicCache.stats().misses);
  mirrored('mail_sent_total', 'E-mails handed to SMTP or written to the outbox by this process', () => app.mail.sent);
  mirrored('mail_failures_total', 'Tries of an e-mail the transport (SMTP or outbox) refused in this process', () => app.mail.failed);
  mirrored('mail_dropped_total', 'E-mails given up by this process (refused for good, or every retry failed)', () => app.mailQueue.dropped);
  mailQueueGauge(app, registry);
  new Gauge({
    name: 'public_cache_bytes',
    help: 'Bytes held by the public response cache',
    registers: [registry],
    collect() {
      this.set(app.publicCache.stats().bytes);
    },
  });

  new Gauge({
    name: 'job_queue_depth',
    help: 'Background jobs by state (queued: waiting to run, processing: claimed by a process, failed: given up)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const state of ['queued', 'processing', 'failed']) this.set({ state }, 0);
      const rows = (await app.database.query(
        "select state, count(*)::int as n from jobs where state in ('queued', 'processing', 'failed') group by state",
      )) as { state: string; n: number }[];
      for (const row of rows) this.set({ state: row.state }, Number(row.n));
    },
  });
  new Gauge({
    name: 'mail_jobs_failed',
    help: 'Campaign letters whose delivery job failed for good (every attempt refused)',
    registers: [registry],
    async collect() {
      const [row] = (await app.database.query(
        "select count(*)::int as n from jobs where state = 'failed' and kind = $1",
        [SEND_JOB],
      )) as { n: number }[];
      this.set(Number(row?.n ?? 0));
    },
  });

  return {
    registry,
    observe(method: string, route: string, status: number, seconds: number) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
  };
}

/** Mails waiting for a retry, counted in the database: every process's, whichever process is scraped. */
function mailQueueGauge(app: FastifyInstance, registry: Registry) {
  return new Gauge({
    name: 'mail_queued',
    help: 'E-mails waiting for a retry after the mail server failed them (all processes)',
    registers: [registry],
    async collect() {
      this.set(await app.mailQueue.waiting());
    },
  });
}

/**
 * Every answer by route pattern and status. Answers sent from the cache (on the socket or through node:http) are
 * counted by the cache, with no work of prom-client's on their path: each scrape adds what they grew by since the last.
 */
function requestsCounter(app: FastifyInstance, registry: Registry) {
  const added = new Map<string, number>();
  const addCachedAnswers = (counter: Counter<'method' | 'route' | 'status'>) => {
    for (const counts of app.publicCache.servedByRoute()) {
      for (const method of ['GET', 'HEAD'] as const) {
        for (const status of [200, 304] as const) {
          const key = `${method} ${status} ${counts.route}`;
          const grown = counts[method][status] - (added.get(key) ?? 0);
          if (grown <= 0) continue;
          counter.inc({ method, route: counts.route, status: String(status) }, grown);
          added.set(key, counts[method][status]);
        }
      }
    }
  };
  return new Counter({
    name: 'http_requests_total',
    help: 'Requests answered by the application, by route pattern and status, answers sent from the cache included',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    collect() {
      addCachedAnswers(this);
    },
  });
}
