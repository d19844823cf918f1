import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { auditLog } from '../src/db/schema';
import { buildApp } from '../src/app';
import { commands } from '../src/cli';
import { loadConfig } from '../src/config';
import { verifyExport } from '../src/modules/audit/cli';
import { entryHash, GENESIS_HASH } from '../src/services/audit';
import { AuditSigner } from '../src/services/audit-checkpoints';
import { startFakeTsa } from './fake-tsa';
import { call, createTestApp, createUser, type TestApp } from './helpers';

/**
 * Audit checkpoints: with a checkpoint every 5 entries, cutting off the newest entries or rebuilding the chain with
 * fresh hashes is detected, online (GET /audit/verify) and offline (an exported chain and the published key).
 */
describe('signed checkpoints of the audit chain', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUser>>;
  /** Entries the app wrote at its start (e.g. loading the representatives' directory), before the test's twelve. */
  let base: number;
  /** The checkpoints: the one signed at start when the chain was not empty, then every fifth entry. */
  const expectedCheckpoints = () => [...(base ? [base] : []), ...Array.from({ length: 12 }, (_, i) => base + i + 1).filter((seq) => seq % 5 === 0)];
  const firstCheckpointFrom = (seq: number) => expectedCheckpoints().find((c) => c >= seq)!;
  const files = mkdtempSync(path.join(os.tmpdir(), 'audit-export-'));
  afterAll(() => rmSync(files, { recursive: true, force: true }));

  beforeEach(async () => {
    t = await createTestApp({ AUDIT_CHECKPOINT_EVERY: '5' });
    admin = await createUser(t.app, 'admin');
    const [head] = await t.database.query<{ seq: string | null }>('select max(seq)::text as seq from audit_log');
    base = Number(head?.seq ?? 0);
    for (let i = 1; i <= 12; i++) {
      await t.app.audit.append({ actor: null, action: 'test.entry', subject: `test entry ${i} (test data)`, changes: { n: { before: i - 1, after: i } } });
    }
  });
  afterEach(async () => t.close());

  const verify = async () => (await call(t.app, { method: 'GET', url: `${API_BASE}/audit/verify`, headers: admin.auth })).body;

  it('signs every fifth entry; anyone can read the checkpoints and the key, and the chain verifies against them', async () => {
    const res = await call(t.app, { method: 'GET', url: `${API_BASE}/audit/checkpoints` });
    expect(res.status).toBe(200);
    expect(res.body.map((c: { seq: number }) => c.seq)).toEqual(expectedCheckpoints());
    const key = await t.app.inject({ method: 'GET', url: '/.well-known/audit-key' });
    expect(key.statusCode).toBe(200);
    expect(key.body).toContain('BEGIN PUBLIC KEY');
    expect(res.body.every((c: { publicKey: string }) => c.publicKey === key.body.trim())).toBe(true);
    expect(await verify()).toMatchObject({ ok: true, entries: base + 12, checkpoints: expectedCheckpoints().length, newestCheckpointSeq: expectedCheckpoints().at(-1) });

    // On demand (and daily): the head is signed once.
    const made = await call(t.app, { method: 'POST', url: `${API_BASE}/audit/checkpoints`, headers: admin.auth });
    expect(made.status).toBe(201);
    expect(made.body.seq).toBe(base + 12);
    expect((await call(t.app, { method: 'POST', url: `${API_BASE}/audit/checkpoints`, headers: admin.auth })).status).toBe(200);
    expect((await call(t.app, { method: 'POST', url: `${API_BASE}/audit/checkpoints` })).status).toBe(401);
  });

  it('detects the newest entries cut off, which the chain alone cannot show', async () => {
    // Five entries, so one of them carries a checkpoint, whatever the number of entries written at start.
    await t.database.query('delete from audit_log where seq >= $1', [base + 8]);
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(report.firstBrokenSeq).toBe(firstCheckpointFrom(base + 8));
    expect(report.reason).toMatch(/entries were removed/);
  });

  it('detects a chain rebuilt with fresh hashes after an entry was changed', async () => {
    const rows = await t.app.db.select().from(auditLog).orderBy(auditLog.seq);
    let prev = GENESIS_HASH;
    for (const row of rows) {
      const changed = row.seq === base + 3 ? { ...row, subject: 'rewritten (test)' } : row;
      const hash = entryHash(prev, changed);
      await t.database.query('update audit_log set subject = $1, prev_hash = $2, hash = $3 where seq = $4', [changed.subject, prev, hash, row.seq]);
      prev = hash;
    }
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(report.firstBrokenSeq).toBe(firstCheckpointFrom(base + 3));
    expect(report.reason).toMatch(/rewritten/);
  });

  it('refuses a checkpoint signed by another key', async () => {
    const forger = AuditSigner.forDataDir(mkdtempSync(path.join(files, 'forger-')));
    const [head] = await t.database.query<{ seq: string; hash: string }>('select seq::text, hash from audit_log order by seq desc limit 1');
    const forged = forger.sign({ seq: Number(head!.seq), hash: head!.hash, at: new Date() });
    await t.database.query('insert into audit_checkpoints (seq, hash, at, key_id, public_key, signature) values ($1, $2, $3, $4, $5, $6)', [
      forged.seq,
      forged.hash,
      forged.at,
      forged.keyId,
      forged.publicKey,
      forged.signature,
    ]);
    expect(await verify()).toMatchObject({ ok: false, reason: expect.stringMatching(/key the site does not trust/) });
  });

  it('a new key (AUDIT_SIGNING_KEY) is introduced in the chain, vouched for by the old one; the old checkpoints stay trusted', async () => {
    const oldKeyId = t.app.auditSigner.keyId;
    const nextDir = mkdtempSync(path.join(files, 'next-'));
    const next = AuditSigner.forDataDir(nextDir);
    const pem = readFileSync(path.join(nextDir, 'audit-signing-key.pem'), 'utf8');
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: t.dataDir, LOG_LEVEL: 'silent', JWT_SECRET: 'x'.repeat(40), AUDIT_CHECKPOINT_EVERY: '5', AUDIT_SIGNING_KEY: pem });
    const rotated = await buildApp({ config, database: t.database, runJobs: false, logger: false });
    try {
      await rotated.ready();
      const keys = await rotated.audit.signingKeys();
      expect(keys.map((k) => [k.keyId, k.previousKeyId, k.reason])).toEqual([
        [oldKeyId, null, 'first key'],
        [next.keyId, oldKeyId, 'new signing key'],
      ]);
      expect(keys[1]!.vouch).toEqual(expect.any(String));
      await rotated.audit.append({ actor: null, action: 'test.entry', subject: 'after the new key (test data)' });
      expect((await call(rotated, { method: 'POST', url: `${API_BASE}/audit/checkpoints`, headers: admin.auth })).body.keyId).toBe(next.keyId);
      expect((await call(rotated, { method: 'GET', url: `${API_BASE}/audit/verify`, headers: admin.auth })).body).toMatchObject({ ok: true });
      // Offline, the published (new) key is enough: its checkpoint pins the history that introduced it after the old.
      const file = path.join(files, `rotated-${Date.now()}.ndjson`);
      const exported = commands['audit:export']!;
      if (exported.offline) throw new Error('audit:export needs the database');
      expect(await exported.run([file], t.database)).toBe(0);
      expect(await verifyExport(file, next.publicKeyPem, () => {})).toBe(0);
    } finally {
      await rotated.close();
    }
  });

  it('exports the chain and checks it offline against the published key; an edited export fails', async () => {
    const file = path.join(files, `chain-${Date.now()}.ndjson`);
    const exported = commands['audit:export']!;
    expect(exported.offline).toBeFalsy();
    if (exported.offline) return;
    expect(await exported.run([file], t.database)).toBe(0);
    const key = (await t.app.inject({ method: 'GET', url: '/.well-known/audit-key' })).body;
    const lines: string[] = [];
    expect(await verifyExport(file, key, (l) => lines.push(l))).toBe(0);
    expect(lines.at(-1)).toContain(`${base + 12} entries verifies, with ${expectedCheckpoints().length} signed checkpoints`);

    // The newest five entries left out of the file: the last checkpoint among them is not reached.
    const cut = path.join(files, 'cut.ndjson');
    const dropped = new Set([base + 8, base + 9, base + 10, base + 11, base + 12]);
    writeFileSync(cut, readFileSync(file, 'utf8').split('\n').filter((l) => !dropped.has(Number(/"type":"entry","seq":(\d+),/.exec(l)?.[1]))).join('\n'));
    expect(await verifyExport(cut, key, () => {})).toBe(1);
    // Checked against another site's key, the genuine file fails too: the key is what is trusted.
    const otherKey = AuditSigner.forDataDir(mkdtempSync(path.join(files, 'other-'))).publicKeyPem;
    expect(await verifyExport(file, otherKey, () => {})).toBe(1);
  });

  it('with TSA_URL, time-stamps every checkpoint at the authority; a changed token no longer verifies, online or offline', async () => {
    const tsa = await startFakeTsa();
    try {
      const stamped = await t.app.audit.stampCheckpoints(tsa.url);
      expect(stamped).toBe(expectedCheckpoints().length);
      expect(await t.app.audit.stampCheckpoints(tsa.url)).toBe(0);
      expect(await verify()).toMatchObject({ ok: true, timestamped: stamped });
      const listed = (await call(t.app, { method: 'GET', url: `${API_BASE}/audit/checkpoints` })).body;
      expect(listed.every((c: { timestampToken: string | null }) => typeof c.timestampToken === 'string')).toBe(true);

      const file = path.join(files, `stamped-${Date.now()}.ndjson`);
      const exported = commands['audit:export']!;
      if (exported.offline) throw new Error('audit:export needs the database');
      await exported.run([file], t.database);
      const key = (await t.app.inject({ method: 'GET', url: '/.well-known/audit-key' })).body;
      const lines: string[] = [];
      expect(await verifyExport(file, key, (l) => lines.push(l))).toBe(0);
      expect(lines.at(-1)).toContain(`${stamped} time-stamped`);

      // A token taken from another checkpoint: it is for another statement.
      const [first, second] = listed as { seq: number; timestampToken: string }[];
      await t.database.query('update audit_checkpoints set timestamp_token = $1 where seq = $2', [second!.timestampToken, first!.seq]);
      expect(await verify()).toMatchObject({ ok: false, firstBrokenSeq: first!.seq, reason: expect.stringMatching(/time-stamp/) });
    } finally {
      await tsa.close();
    }
  });
});
