import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { requestTimestamp, TimestampRejected, TimestampTrust, verifyTimestamp } from '../src/services/timestamping';
import { call, createTestApp, createUser } from './helpers';
import { startOpensslTsa } from './openssl-tsa';

/**
 * Every RFC 3161 token is verified on receipt, against a local authority made with `openssl ts -reply` (test
 * certificates under a throwaway root): a good token, one for another hash, one signed under a root nobody trusts,
 * and one signed with an expired certificate.
 */
describe('RFC 3161 tokens from an openssl time-stamping authority', () => {
  let tsa: Awaited<ReturnType<typeof startOpensslTsa>>;
  let trust: TimestampTrust;
  const statement = Buffer.from('test content: a statement to time-stamp');

  beforeAll(async () => {
    tsa = await startOpensslTsa();
    trust = TimestampTrust.fromPem(tsa.trustedRootPem);
  });
  afterAll(async () => tsa?.close());

  const rejection = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TimestampRejected);
    return (err as TimestampRejected).message;
  };

  it('accepts a good token: for the hash sent, signed, chaining to the trusted root', async () => {
    tsa.setMode('good');
    const before = Date.now() - 2000;
    const got = await requestTimestamp(tsa.url, statement, trust);
    expect(got.chain).toBe('trusted');
    expect(got.authority).toContain('Test TSA good');
    expect(got.time.getTime()).toBeGreaterThanOrEqual(before);
    expect((await verifyTimestamp(got.token, statement, trust)).time.toISOString()).toBe(got.time.toISOString());
    // Without trusted authorities it verifies, and says the chain was not checked.
    expect((await verifyTimestamp(got.token, statement)).chain).toBe('not-checked');
    // Read again for other data, it fails.
    await expect(verifyTimestamp(got.token, Buffer.from('another statement'), trust)).rejects.toThrow(/other data/);
  });

  it('refuses a token for another hash than the one sent', async () => {
    tsa.setMode('wrong-imprint');
    expect(await rejection(requestTimestamp(tsa.url, statement, trust))).toMatch(/for other data/);
  });

  it('refuses a token whose certificate does not chain to TSA_CA_FILE', async () => {
    tsa.setMode('untrusted');
    expect(await rejection(requestTimestamp(tsa.url, statement, trust))).toMatch(/does not chain to an authority in TSA_CA_FILE/);
    // Without TSA_CA_FILE the same token is taken, marked as not checked: that is what the setting is for.
    expect((await requestTimestamp(tsa.url, statement)).chain).toBe('not-checked');
  });

  it('refuses a token signed with an expired certificate, with or without TSA_CA_FILE', async () => {
    tsa.setMode('expired');
    expect(await rejection(requestTimestamp(tsa.url, statement, trust))).toMatch(/does not chain|validity/);
    expect(await rejection(requestTimestamp(tsa.url, statement))).toMatch(/outside its certificate's validity/);
  });

  it('records a failing token as failed, not as a time-stamp; /audit/verify says whether the chain was checked', async () => {
    const caFile = path.join(tsa.dir, 'trusted-bundle.pem');
    writeFileSync(caFile, tsa.trustedRootPem);
    for (const [env, chain] of [
      [{ TSA_CA_FILE: caFile }, 'trusted'],
      [{}, 'not-checked'],
    ] as const) {
      // Without TSA_URL, so that no stamping runs in the background beside the test's own calls.
      tsa.setMode(chain === 'trusted' ? 'untrusted' : 'expired');
      const t = await createTestApp({ AUDIT_CHECKPOINT_EVERY: '2', ...env });
      try {
        const admin = await createUser(t.app, 'admin');
        for (let i = 0; i < 4; i++) await t.app.audit.append({ actor: null, action: 'test.entry', subject: `test entry ${i} (test data)`, changes: {} });
        expect(await t.app.audit.stampCheckpoints(tsa.url)).toBe(0);
        const failed = await t.database.query<{ timestamp_token: string | null; timestamp_failure: string | null }>(
          'select timestamp_token, timestamp_failure from audit_checkpoints',
        );
        expect(failed.length).toBeGreaterThan(0);
        // The checkpoints that are not recorded as failed time-stamps, shown whole if any (empty when all hold).
        expect(failed.filter((c) => !(c.timestamp_token === null && /time-stamp|chain/.test(c.timestamp_failure ?? '')))).toEqual([]);
        // A failure is not asked for again at once.
        tsa.setMode('good');
        expect(await t.app.audit.stampCheckpoints(tsa.url)).toBe(0);
        await t.database.query("update audit_checkpoints set timestamp_failed_at = now() - interval '2 hours'");
        expect(await t.app.audit.stampCheckpoints(tsa.url)).toBe(failed.length);
        const report = (await call(t.app, { method: 'GET', url: `${API_BASE}/audit/verify`, headers: admin.auth })).body;
        expect(report).toMatchObject({ ok: true, timestamped: failed.length, timestampChain: chain });
        if (chain === 'not-checked') expect(report.timestampNote).toMatch(/TSA_CA_FILE is not set/);
        else expect(report.timestampNote).toBeUndefined();
      } finally {
        await t.close();
      }
    }
  });

  it('refuses a TSA_CA_FILE that holds no certificate', async () => {
    const bad = path.join(tsa.dir, 'not-a-bundle.pem');
    writeFileSync(bad, 'test content: not a certificate');
    await expect(createTestApp({ TSA_CA_FILE: bad })).rejects.toThrow(/TSA_CA_FILE/);
  });
});
