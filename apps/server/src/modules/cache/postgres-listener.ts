import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/** The first wait before connecting again after the connection dropped; it doubles with each failure up to the most. */
const FIRST_RETRY_MS = 100;
const MOST_RETRY_MS = 5000;
/** How the connection shows in pg_stat_activity (operators, and the test that terminates it, find it by this name). */
export const LISTENER_APPLICATION_NAME = 'evidence-cache-listener';

interface ListenerOptions {
  url: string;
  channel: string;
  onMessage: (payload: string) => void;
  /**
   * Called once LISTEN holds again after the connection dropped: notifications sent meanwhile are lost, so whatever
   * was cached may be stale.
   */
  onReconnected: () => void;
  log: FastifyBaseLogger;
}

/**
 * A PostgreSQL connection that LISTENs on one channel and stays listening: when the connection drops (a restart of
 * PostgreSQL, pg_terminate_backend, a network cut) it connects again with back-off, for as long as the process runs.
 */
export class PostgresListener {
  private client: pg.Client | null = null;
  private retryMs = FIRST_RETRY_MS;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: ListenerOptions) {}

  /** Whether LISTEN holds now (false while reconnecting). */
  get listening(): boolean {
    return this.client !== null;
  }

  /** The first connection: its failure is the caller's (the site does not start without its database). */
  async start(): Promise<void> {
    this.client = await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.options.url, application_name: LISTENER_APPLICATION_NAME });
    client.on('notification', (msg) => {
      if (msg.channel === this.options.channel && msg.payload) this.options.onMessage(msg.payload);
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${this.options.channel}`);
    } catch (err) {
      void client.end().catch(() => {});
      throw err;
    }
    return client;
  }

  /** The connection that was listening dropped: connect again later. Events of other (failed) connections are ignored. */
  private lost(client: pg.Client, err?: Error): void {
    if (client !== this.client || this.stopped) return;
    this.client = null;
    this.options.log.error({ err }, 'cache listener lost its connection to PostgreSQL; connecting again');
    void client.end().catch(() => {});
    this.retryLater();
  }

  private retryLater(): void {
    if (this.stopped || this.timer) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MOST_RETRY_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.reconnect();
    }, wait);
  }

  private async reconnect(): Promise<void> {
    let client: pg.Client;
    try {
      client = await this.connect();
    } catch (err) {
      this.options.log.debug({ err }, 'cache listener: PostgreSQL not reachable yet');
      return this.retryLater();
    }
    if (this.stopped) return void client.end().catch(() => {});
    this.client = client;
    this.retryMs = FIRST_RETRY_MS;
    this.options.log.warn('cache listener listening again; every cache is cleared, since changes may have been missed meanwhile');
    this.options.onReconnected();
  }
}
