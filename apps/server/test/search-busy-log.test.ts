import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors';
import { searchesBusy } from '../src/modules/collection/limiter';
import errors from '../src/plugins/errors';

/** A search refused under load is answered 503 with Retry-After and not logged; the server's own 5xx still are. */
describe('search refusals in the log', () => {
  it('logs no line for a refused search, and one for a failure of the server', async () => {
    const lines: { level: number; msg: string }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream } });
    await app.register(errors);
    app.get('/busy', async () => {
      throw searchesBusy();
    });
    app.get('/away', async () => {
      throw new AppError(503, { message: 'Storage is away' });
    });
    try {
      const busy = await app.inject({ method: 'GET', url: '/busy' });
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.json().message).toMatch(/too many searches/i);
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
      const away = await app.inject({ method: 'GET', url: '/away' });
      expect(away.statusCode).toBe(503);
      expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual(['Storage is away']);
    } finally {
      await app.close();
    }
  });
});
