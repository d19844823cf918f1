import net from 'node:net';

/**
 * A TCP relay on loopback in front of a shared service (Redis, PostgreSQL over TCP or its Unix socket), so a test can make the service "go away" and come
 * back for the processes it tests without stopping the service itself, which other tests and people use.
 */
export async function startTcpProxy(target: { host: string; port: number } | { path: string }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect('path' in target ? { path: target.path } : { port: target.port, host: target.host });
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });

  /** Refuses new connections and drops the open ones, as a service that died would. */
  const cut = async () => {
    const s = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    cut,
    /** Accepts connections again, on the same port. */
    restore: listen,
    close: cut,
  };
}

/** Removes the rate-limit counters a test left under its own prefix in the shared Redis. */
export async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl);
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
