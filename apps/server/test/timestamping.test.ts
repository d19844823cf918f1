import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestTimestamp, verifyTimestamp } from '../src/services/timestamping';
import { startFakeTsa } from './fake-tsa';

describe('RFC 3161 time-stamps', () => {
  let tsa: Awaited<ReturnType<typeof startFakeTsa>>;
  const stated = new Date('2026-01-02T03:04:05Z');
  beforeAll(async () => {
    tsa = await startFakeTsa({ time: stated });
  });
  afterAll(async () => tsa.close());

  it('asks an authority for a token over a hash, and verifies it: the time it states, for exactly that hash', async () => {
    const statement = Buffer.from('audit-checkpoint v1 test statement');
    const { token, time } = await requestTimestamp(tsa.url, statement);
    expect(time.toISOString()).toBe(stated.toISOString());
    expect((await verifyTimestamp(token, statement)).time.toISOString()).toBe(stated.toISOString());
    await expect(verifyTimestamp(token, Buffer.from('another statement'))).rejects.toThrow(/other data/);
    // One changed byte in the signed time-stamp (its serial number, inside the signed content) breaks the signature.
    const tampered = Buffer.from(token);
    const at = tampered.indexOf(Buffer.from(stated.toISOString().slice(0, 4)));
    tampered[at] = tampered[at]! ^ 1;
    await expect(verifyTimestamp(tampered, statement)).rejects.toThrow();
  });

  it('reports an authority that refuses or is not there', async () => {
    await expect(requestTimestamp('http://127.0.0.1:9/', Buffer.alloc(32))).rejects.toThrow();
  });
});
