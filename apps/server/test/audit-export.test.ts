import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { call } from './helpers';
import { useTestApp } from './fixtures/app';

const run = promisify(execFile);

/**
 * The audit chain's export over HTTP (issue 52 item 9), checked by following docs/audit.md's "Checking the chain
 * yourself" as written: its shell steps (curl, node with the page's script, openssl) are taken from the page and run
 * against a listening site, so the page is what is tested, not the project's verifier. Test data only.
 */
const docs = readFileSync(path.resolve(__dirname, '../../../docs/audit.md'), 'utf8');
const section = docs.slice(docs.indexOf('## Checking the chain yourself'), docs.indexOf('## Signing keys'));
const block = (lang: string) => {
  const found = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section);
  if (!found) throw new Error(`docs/audit.md: no ${lang} block in "Checking the chain yourself"`);
  return found[1]!;
};
const steps = block('sh');
const stepLine = (start: string) => steps.split('\n').find((line) => line.startsWith(start))!;

describe('audit chain export, checked with the documented steps', () => {
  const { t, admin, superUser, contributor } = useTestApp({ admin: 'admin', superUser: 'super', contributor: 'contributor' });
  let dir: string;
  let site: string;
  const shell = (script: string) =>
    run('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: dir,
      env: { PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`, SITE: site, TOKEN: admin.token },
    });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'audit-export-test-'));
    for (const n of [1, 2, 3]) {
      const res = await call(t.app, {
        method: 'POST',
        url: `${API_BASE}/victims`,
        headers: contributor.auth,
        payload: { title: `Test audit export ${n} (test data)`, fullName: `Test Person ${n} ዓ`, description: 'Test data, not a real person.' },
      });
      expect(res.status).toBe(201);
    }
    expect((await call(t.app, { method: 'POST', url: `${API_BASE}/audit/checkpoints`, headers: admin.auth })).status).toBe(201);
    // An entry after the checkpoint, with changes nested and in Ge'ez: the export's tail past the newest checkpoint.
    await call(t.app, { method: 'POST', url: `${API_BASE}/victims`, headers: contributor.auth, payload: { title: 'Test ከ checkpoint (test data)', description: 'Test data.' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    site = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    writeFileSync(path.join(dir, 'check-chain.mjs'), block('js'));
  });
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('is for staff only, streamed as NDJSON: every entry oldest first, then the checkpoints', async () => {
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/audit/export` })).status).toBe(401);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/audit/export`, headers: contributor.auth })).status).toBe(403);
    const listed = await call(t.app, { method: 'GET', url: `${API_BASE}/audit?limit=1`, headers: admin.auth });
    for (const who of [admin, superUser]) {
      const res = await t.app.inject({ method: 'GET', url: `${API_BASE}/audit/export`, headers: who.auth });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
      const lines = res.body.trim().split('\n').map((line) => JSON.parse(line) as { type: string; seq: number });
      const entries = lines.filter((l) => l.type === 'entry');
      expect(entries.length).toBe(Number(listed.headers['x-total-count']));
      expect(entries.map((e) => e.seq)).toEqual([...entries.map((e) => e.seq)].sort((a, b) => a - b));
      expect(lines.findIndex((l) => l.type === 'checkpoint')).toBe(entries.length);
    }
  });

  it("verifies by the page's steps: each hash from the documented formula, the checkpoint's signature by openssl with the published key", async () => {
    const { stdout } = await shell(steps);
    expect(stdout).toMatch(/^\d+ entries verify; the checkpoint at entry \d+ is in statement.txt/m);
    expect(stdout).toContain('Signature Verified Successfully');
    expect(readFileSync(path.join(dir, 'statement.txt'), 'utf8')).toMatch(/^audit-checkpoint v1\n\d+\n[0-9a-f]{64}\n\d{4}-\d\d-\d\dT[\d:.]+Z\n$/);
  });

  it('fails those steps for a changed entry and for a changed statement', async () => {
    const file = path.join(dir, 'chain.ndjson');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('Test audit export 2', 'Test audit export 9'));
    await expect(shell(stepLine('node '))).rejects.toMatchObject({ stderr: expect.stringContaining('changed after it was written') });
    writeFileSync(file, original.split('\n').filter((line, i) => i !== 3).join('\n'));
    await expect(shell(stepLine('node '))).rejects.toMatchObject({ stderr: expect.stringContaining('removed or changed') });
    writeFileSync(file, original);
    await shell(stepLine('node '));
    const statement = path.join(dir, 'statement.txt');
    writeFileSync(statement, readFileSync(statement, 'utf8').replace(/\n(\d+)\n/, (_m, seq: string) => `\n${Number(seq) + 1}\n`));
    await expect(shell(stepLine('openssl '))).rejects.toMatchObject({ stdout: expect.stringContaining('Signature Verification Failure') });
  });
});
