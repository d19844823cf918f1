import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { ContentChange } from '../../plugins/services';

type Area = ContentChange['area'];

/** The channel changes are sent on (PostgreSQL NOTIFY and Redis), and the one Redis acknowledgements come back on. */
export const CHANNEL = 'public_cache_invalidate';
const ACK_CHANNEL = 'public_cache_invalidated';
/** The longest a write's answer waits for the other processes to say they cleared their caches. */
const ACK_WAIT_MS = 1000;

interface RedisChangesOptions {
  instanceId: string;
  /** A change another process sent ("<its id> <area> <change id>"). */
  fromOthers: (message: string) => void;
  /** Every cache here is stale: the subscription was away while the site answered. */
  resync: () => void;
  /** Sends a change through PostgreSQL instead, while Redis is away (null without a PostgreSQL server). */
  notifyPostgres: ((area: Area) => void) | null;
}

/**
 * Changes between processes through Redis, acknowledged: each other process, once it has cleared its cache, answers
 * on ACK_CHANNEL, and a write's response waits for every answer (PUBLISH says how many processes listen; at most
 * ACK_WAIT_MS), so a read sent to any process after the write's answer sees the write. `holds`: whether the
 * subscription holds now (false while reconnecting, and until the first one holds).
 */
export async function changesThroughRedis(app: FastifyInstance, redis: Redis, options: RedisChangesOptions): Promise<{ broadcast: (area: Area) => void; holds: () => boolean }> {
  const { instanceId, fromOthers, resync } = options;
  let subscriberUp = false;
  // Its commands wait for a connection however long Redis is away (the site starts without it), and it subscribes
  // again by itself after every reconnect.
  const subscriber = redis.duplicate({ maxRetriesPerRequest: null, connectionName: `${app.config.RATE_LIMIT_PREFIX}cache-subscriber` });
  // Its outages are reported once by the shared connection (plugins/services.ts).
  subscriber.on('error', () => {});
  // Under the site's Redis prefix: several sites (or test runs) sharing one Redis neither clear each other's
  // caches nor count each other's processes.
  const changes = `${app.config.RATE_LIMIT_PREFIX}${CHANNEL}`;
  const acks = `${app.config.RATE_LIMIT_PREFIX}${ACK_CHANNEL}`;
  // Subscribed before the site answers when Redis is there; when it is not, the subscription is made once it comes.
  let started = false;
  /** The subscription holds; `again`: it was away while the site answered, so every cache here is stale. */
  const holds = (again: boolean) => {
    if (subscriberUp) return;
    subscriberUp = true;
    if (!again) return;
    app.log.warn('cache: subscribed to Redis again; every cache is cleared, since changes may have been missed meanwhile');
    resync();
  };
  const subscribed = subscriber.subscribe(changes, acks).then(
    () => holds(started),
    (err: Error) => app.log.error({ err }, 'cache: subscribing to Redis failed'),
  );
  await Promise.race([subscribed, new Promise((resolve) => subscriber.once('error', resolve))]);
  started = true;
  // ioredis subscribes again by itself after a reconnect, but what was published meanwhile is lost. This SUBSCRIBE
  // is answered after ioredis' own, so once it is, the subscription holds again.
  subscriber.on('close', () => void (subscriberUp = false));
  subscriber.on('ready', () => {
    if (!subscriberUp) void subscriber.subscribe(changes, acks).then(() => holds(true), () => {});
  });
  const acknowledgements = new Acknowledgements();
  subscriber.on('message', (channel, message: string) => {
    if (channel === acks) return acknowledgements.received(message);
    fromOthers(message);
    const [from, , changeId] = message.split(' ');
    if (from !== instanceId && changeId) void redis.publish(acks, changeId).catch(() => {});
  });
  app.addHook('onClose', async () => (subscriber.status === 'ready' ? void (await subscriber.quit()) : subscriber.disconnect()));
  // A write's answer waits until every process acknowledged the changes sent so far.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') await acknowledgements.allDone();
    return payload;
  });
  const broadcast = (area: Area) => {
    if (redis.status !== 'ready' && options.notifyPostgres) return options.notifyPostgres(area);
    acknowledgements.send((changeId) => redis.publish(changes, `${instanceId} ${area} ${changeId}`), (err) => {
      if (options.notifyPostgres) options.notifyPostgres(area);
      else app.log.error({ err }, 'cache broadcast failed');
    });
  };
  return { broadcast, holds: () => subscriberUp };
}

/** Changes sent and the acknowledgements they wait for. */
class Acknowledgements {
  private readonly waiting = new Map<string, () => void>();
  private readonly unacknowledged = new Set<Promise<void>>();

  received(changeId: string): void {
    this.waiting.get(changeId)?.();
  }

  /** Resolves once every change sent so far is acknowledged by all (or waited for ACK_WAIT_MS). */
  async allDone(): Promise<void> {
    if (this.unacknowledged.size) await Promise.all([...this.unacknowledged]);
  }

  /** Publishes a change (`publish` says how many processes listen); `failed`: it could not be published. */
  send(publish: (changeId: string) => Promise<number>, failed: (err: unknown) => void): void {
    const changeId = randomUUID();
    const acknowledged = new Promise<void>((resolve) => {
      let expected = Infinity;
      let received = 0;
      const finish = () => {
        clearTimeout(timer);
        this.waiting.delete(changeId);
        resolve();
      };
      const timer = setTimeout(finish, ACK_WAIT_MS);
      this.waiting.set(changeId, () => {
        if (++received >= expected) finish();
      });
      publish(changeId).then(
        (listeners) => {
          // Every listening process, this one's own subscriber included, which does not answer.
          expected = listeners - 1;
          if (received >= expected) finish();
        },
        (err) => {
          failed(err);
          finish();
        },
      );
    });
    this.unacknowledged.add(acknowledged);
    void acknowledged.then(() => this.unacknowledged.delete(acknowledged));
  }
}
