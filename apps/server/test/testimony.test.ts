import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, call, type TestApp } from './helpers';
import { markedPng, multipart, solvedAltcha } from './testimony-helpers';

const PASSPHRASE = 'sample reviewer passphrase';

describe.sequential('testimonies: submission, receipt, review', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t.app, 'admin');
  });
  afterAll(() => t.close());

  const submit = async (fields: Record<string, string | string[]>, files: Parameters<typeof multipart>[1] = [], accept = 'application/json') => {
    const body = multipart(fields, files);
    return call(t.app, { method: 'POST', url: '/api/v1.0.0/testimonies', payload: body.payload, headers: { ...body.headers, accept } });
  };

  it('refuses testimony while there is no intake key, and the form says so', async () => {
    const res = await submit({ statement: 'Test statement', altcha: await solvedAltcha(t.app) });
    expect(res.status).toBe(503);
    const page = await t.app.inject({ method: 'GET', url: '/testify' });
    expect(page.body).toContain('not accepted yet');
  });

  it('creates the intake key with a recovery key; a second one is refused to an admin', async () => {
    const res = await call(t.app, { method: 'POST', url: '/api/v1.0.0/testimonies/key', headers: admin.auth, payload: { passphrase: PASSPHRASE } });
    expect(res.status).toBe(201);
    expect(res.body.recoveryKey).toMatch(/^[0-9a-f]{8}(-[0-9a-f]{8}){7}$/);
    const again = await call(t.app, { method: 'POST', url: '/api/v1.0.0/testimonies/key', headers: admin.auth, payload: { passphrase: PASSPHRASE } });
    expect(again.status).toBe(409);
  });

  it('refuses the proof of work when missing, wrong, or used twice', async () => {
    expect((await submit({ statement: 'Test statement' })).body.altcha).toMatch(/missing/);
    const wrong = Buffer.from(JSON.stringify({ algorithm: 'SHA-256', challenge: 'ab', number: 1, salt: 'x', signature: 'y' })).toString('base64');
    expect((await submit({ statement: 'Test statement', altcha: wrong })).body.altcha).toMatch(/wrong/);
    const altcha = await solvedAltcha(t.app);
    expect((await submit({ statement: 'Test statement', altcha })).status).toBe(201);
    const reused = await submit({ statement: 'Test statement', altcha });
    expect(reused.status).toBe(400);
    expect(reused.body.altcha).toMatch(/already used/);
  });

  it('answers field errors keyed by name, and refuses files that are not images, video, audio or PDF', async () => {
    const empty = await submit({ statement: '  ', altcha: await solvedAltcha(t.app) });
    expect(empty.status).toBe(400);
    expect(empty.body.statement).toBeTruthy();
    const exe = await submit({ statement: 'Test', altcha: await solvedAltcha(t.app) }, [{ name: 'x.exe', body: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(5000)]) }]);
    expect(exe.status).toBe(400);
    expect(exe.body.files).toMatch(/images, video/);
  });

  let receipt = '';
  let testimonyId = '';
  it('takes a testimony with a file, answers a receipt; a reviewer reads it only once unlocked, with the right passphrase', async () => {
    const res = await submit(
      { statement: 'Sample statement MARKER-TEXT-1', happenedOn: 'about 2021', region: 'amhara', consent: ['publish', 'share'], altcha: await solvedAltcha(t.app) },
      [{ name: 'sample.png', body: markedPng('MARKER-FILE-1') }],
    );
    expect(res.status).toBe(201);
    receipt = res.body.receipt;
    expect(receipt).toMatch(/^\d{16}$/);
    const queue = await call(t.app, { method: 'GET', url: '/api/v1.0.0/testimonies', headers: admin.auth });
    expect(queue.status).toBe(200);
    testimonyId = queue.body[0].id;
    expect(queue.body[0]).toMatchObject({ status: 'new', files: 1, unverified: false });
    expect(JSON.stringify(queue.body)).not.toContain('MARKER');

    const locked = await call(t.app, { method: 'GET', url: `/api/v1.0.0/testimonies/${testimonyId}`, headers: admin.auth });
    expect(locked.status).toBe(403);
    const wrong = await call(t.app, { method: 'POST', url: '/api/v1.0.0/testimonies/unlock', headers: admin.auth, payload: { passphrase: 'not the passphrase' } });
    expect(wrong.status).toBe(400);
    expect((await call(t.app, { method: 'GET', url: `/api/v1.0.0/testimonies/${testimonyId}`, headers: admin.auth })).status).toBe(403);

    const unlock = await call(t.app, { method: 'POST', url: '/api/v1.0.0/testimonies/unlock', headers: admin.auth, payload: { passphrase: PASSPHRASE } });
    expect(unlock.status).toBe(200);
    const detail = await call(t.app, { method: 'GET', url: `/api/v1.0.0/testimonies/${testimonyId}`, headers: admin.auth });
    expect(detail.status).toBe(200);
    expect(detail.body.envelope).toMatchObject({ statement: 'Sample statement MARKER-TEXT-1', region: 'amhara', consent: ['publish', 'share'] });
    expect(detail.body.fileList[0]).toMatchObject({ name: 'sample.png', type: 'image/png', size: markedPng('MARKER-FILE-1').length });
    const file = await t.app.inject({ method: 'GET', url: `/api/v1.0.0/testimonies/${testimonyId}/files/${detail.body.fileList[0].id}`, headers: admin.auth });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(markedPng('MARKER-FILE-1'))).toBe(true);
  });

  it('the receipt flow both ways: a reviewer asks, the witness reads and answers, the reviewer reads the answer', async () => {
    const ask = await call(t.app, { method: 'POST', url: `/api/v1.0.0/testimonies/${testimonyId}/messages`, headers: admin.auth, payload: { text: 'Sample question: which day?' } });
    expect(ask.status).toBe(201);
    const read = await call(t.app, { method: 'POST', url: '/api/v1.0.0/testimonies/receipt', payload: { receipt } });
    expect(read.status).toBe(200);
    expect(read.body.messages).toEqual([expect.objectContaining({ author: 'reviewer', text: 'Sample question: which day?' })]);
    const body = multipart({ receipt, reply: 'Sample answer: a Tuesday' });
    const answer = await call(t.app, { method: 'POST', url: '/api/v1.0.0/testimonies/receipt', payload: body.payload, headers: body.headers });
    expect(answer.status).toBe(200);
    expect(answer.body.messages).toHaveLength(2);
    const detail = await call(t.app, { method: 'GET', url: `/api/v1.0.0/testimonies/${testimonyId}`, headers: admin.auth });
    expect(detail.body.messageList.map((m: { text: string }) => m.text)).toEqual(['Sample question: which day?', 'Sample answer: a Tuesday']);
  });

  it('a wrong receipt opens nothing, and ten of them slow the sender down', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await call(t.app, { method: 'POST', url: '/api/v1.0.0/testimonies/receipt', payload: { receipt: '0000000000000000' }, remoteAddress: '10.9.9.9' });
      expect(res.status).toBe(404);
    }
    const blocked = await call(t.app, { method: 'POST', url: '/api/v1.0.0/testimonies/receipt', payload: { receipt }, remoteAddress: '10.9.9.9' });
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toBeTruthy();
  });

  it('the no-JavaScript form: a plain multipart POST answers a page with the receipt, marked unverified', async () => {
    const res = await submit({ nojs: '1', statement: 'Sample no-script statement' }, [], 'text/html,application/xhtml+xml');
    expect(res.status).toBe(201);
    expect(res.raw.headers['content-type']).toMatch(/text\/html/);
    expect(res.raw.body).toMatch(/class="receipt" id="receipt">\d{4} \d{4} \d{4} \d{4}</);
    const queue = await call(t.app, { method: 'GET', url: '/api/v1.0.0/testimonies', headers: admin.auth });
    expect(queue.body[0].unverified).toBe(true);
  });

  it('moves a testimony along the queue with audit entries that hold no content; contributors are no reviewers', async () => {
    const res = await call(t.app, { method: 'PUT', url: `/api/v1.0.0/testimonies/${testimonyId}/status`, headers: admin.auth, payload: { status: 'in-review' } });
    expect(res.status).toBe(200);
    const audit = await t.database.db.execute<{ c: string }>(sql`select changes::text as c from audit_log where action like 'testimony.%'`);
    const rows = (audit as unknown as { rows: { c: string }[] }).rows;
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(row.c).not.toContain('MARKER');
    const contributor = await createUser(t.app, 'contributor');
    expect((await call(t.app, { method: 'GET', url: '/api/v1.0.0/testimonies', headers: contributor.auth })).status).toBe(403);
  });

  it('a super withdraws an admin’s reviewing, which forgets the admin’s unlocked key', async () => {
    const superUser = await createUser(t.app, 'super');
    const res = await call(t.app, { method: 'PUT', url: `/api/users/${admin.id}/reviewer`, headers: superUser.auth, payload: { reviewer: false } });
    expect(res.status).toBe(200);
    expect((await call(t.app, { method: 'GET', url: '/api/v1.0.0/testimonies', headers: admin.auth })).status).toBe(403);
    await call(t.app, { method: 'PUT', url: `/api/users/${admin.id}/reviewer`, headers: superUser.auth, payload: { reviewer: null } });
    expect((await call(t.app, { method: 'GET', url: `/api/v1.0.0/testimonies/${testimonyId}`, headers: admin.auth })).status).toBe(403);
  });
});
