import { randomUUID } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../db';
import { jobs } from '../db/schema';

type JobHandler = (payload: Record<string, unknown>, job: { id: string; attempts: number }) => Promise<void>;

/** The wait before the next try of a job that failed its `attempts`-th one. */
type RetryDelay = (attempts: number) => number;

/** Back off: 10 s, 40 s, 90 s... */
const defaultRetryDelay: RetryDelay = (attempts) => 10_000 * attempts * attempts;

interface QueueOptions {
  pollMs?: number;
  /** A job locked longer than this (its worker died) is queued again. */
  staleAfterMs?: number;
  log?: { info: (msg: string) => void; error: (obj: unknown, msg: string) => void };
}

/**
 * Background jobs stored in the database, so they survive restarts. Several processes may run the queue: a job is
 * claimed with `FOR UPDATE SKIP LOCKED`, so each runs once.
 */
export class JobQueue {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly retryDelays = new Map<string, RetryDelay>();
  private readonly workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(private readonly db: Db, private readonly options: QueueOptions = {}) {}

  register(kind: string, handler: JobHandler, options: { retryDelay?: RetryDelay } = {}): void {
    this.handlers.set(kind, handler);
    if (options.retryDelay) this.retryDelays.set(kind, options.retryDelay);
  }

  async enqueue(kind: string, payload: Record<string, unknown>, opts: { runAt?: Date; maxAttempts?: number } = {}, tx?: Executor) {
    const [job] = await (tx ?? this.db)
      .insert(jobs)
      .values({ kind, payload, runAt: opts.runAt ?? new Date(), maxAttempts: opts.maxAttempts ?? 3 })
      .returning({ id: jobs.id });
    this.kick();
    return job!.id;
  }

  /** Claims and runs ready jobs until none is left; returns how many ran. Tests call this directly. */
  async drain(): Promise<number> {
    return this.runWhile(() => true);
  }

  private async runWhile(goOn: () => boolean): Promise<number> {
    let count = 0;
    while (goOn() && (await this.runOne())) count++;
    return count;
  }

  async runOne(): Promise<boolean> {
    const kinds = [...this.handlers.keys()];
    if (!kinds.length) return false;
    const [row] = await rowsOf<Record<string, unknown>>(
      this.db,
      sql`
      update ${jobs} set state = 'processing', locked_at = now(), locked_by = ${this.workerId},
        attempts = attempts + 1, updated_at = now()
      where id = (
        select id from ${jobs}
        where state = 'queued' and run_at <= now() and kind in (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)})
        order by run_at for update skip locked limit 1
      )
      returning id, kind, payload, attempts, max_attempts`,
    );
    if (!row) return false;
    const id = String(row.id);
    const attempts = Number(row.attempts);
    const handler = this.handlers.get(String(row.kind))!;
    try {
      await handler(row.payload as Record<string, unknown>, { id, attempts });
      await this.db.update(jobs).set({ state: 'done', lockedAt: null, updatedAt: new Date() }).where(eq(jobs.id, id));
    } catch (err) {
      const final = attempts >= Number(row.max_attempts);
      const reason = err instanceof Error ? err.message : String(err);
      this.options.log?.error({ err, jobId: id, kind: row.kind }, final ? 'job failed' : 'job failed, will retry');
      await this.db
        .update(jobs)
        .set({
          state: final ? 'failed' : 'queued',
          lastError: reason.slice(0, 2000),
          lockedAt: null,
          runAt: new Date(Date.now() + (this.retryDelays.get(String(row.kind)) ?? defaultRetryDelay)(attempts)),
          updatedAt: new Date(),
        })
        .where(eq(jobs.id, id));
    }
    return true;
  }

  /** Puts back jobs whose worker died while processing them. */
  async requeueStale(): Promise<void> {
    const staleBefore = new Date(Date.now() - (this.options.staleAfterMs ?? 15 * 60_000));
    await this.db
      .update(jobs)
      .set({ state: 'queued', lockedAt: null, updatedAt: new Date() })
      .where(and(eq(jobs.state, 'processing'), lt(jobs.lockedAt, staleBefore)));
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.requeueStale().catch((err) => this.options.log?.error({ err }, 'requeue of stale jobs failed'));
    this.schedule(0);
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      // Until stopped: a shutdown waits for the job under way, not for every queued one (they stay queued for the
      // next start). Hundreds of queued jobs could hold a shutdown past its 10 s limit, leaving the database running.
      this.running = this.runWhile(() => !this.stopped)
        .then(() => undefined)
        .catch((err) => this.options.log?.error({ err }, 'job loop failed'))
        .finally(() => {
          this.running = null;
          this.schedule(this.options.pollMs ?? 2000);
        });
    }, delay);
  }

  /** Runs the loop soon after an enqueue in this process instead of waiting for the next poll. */
  private kick() {
    if (this.stopped || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.schedule(10);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
