import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from './helpers';
import { linkToken, nextIp, outboxMessages, uniqueEmail, waitFor } from './users-mail-helpers';

const PUBLIC_URL = 'https://outbox.example.test';
const PASSWORD = 'sample outbox passphrase';
const NEW_PASSWORD = 'sample outbox passphrase, renewed';

/** The same account flow without a mail server: messages land as .eml files in DATA_DIR/outbox. */
describe('accounts with e-mail written to the outbox folder', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload: object) => call(t.app, { method: 'POST', url: `/api/users${url}`, payload, remoteAddress: nextIp() });
  const tokenFromOutbox = (email: string, route: '/user/activation/' | '/resetpassword/') =>
    waitFor(() => outboxMessages(t.dataDir, email).map((raw) => linkToken(raw, PUBLIC_URL, route)).find(Boolean), `outbox ${route}`);

  it('signs up, activates, signs in, resets the password and signs in again from links in .eml files', async () => {
    expect(t.app.mail.mode).toBe('outbox');
    const email = uniqueEmail('outbox');
    const created = await post('/signup', { firstName: 'Sample', lastName: 'Outbox', email, password: PASSWORD, password2: PASSWORD });
    expect(created.status).toBe(201);

    const activation = await tokenFromOutbox(email, '/user/activation/');
    const [eml] = outboxMessages(t.dataDir, email);
    expect(eml).toMatch(/^Subject: Activate your account \| /m);
    expect((await post(`/user/activation/${activation}`, {})).status).toBe(200);

    const first = await post('/signin', { email, password: PASSWORD });
    expect(first.status).toBe(200);
    const firstAuth = { authorization: `Bearer ${first.body.token}` };
    expect((await call(t.app, { method: 'GET', url: '/api/users/me', headers: firstAuth })).status).toBe(200);

    expect((await post('/forgotpassword', { email })).status).toBe(200);
    const reset = await tokenFromOutbox(email, '/resetpassword/');
    expect((await post(`/resetpassword/${reset}`, { email, password: NEW_PASSWORD, password2: NEW_PASSWORD })).status).toBe(200);
    expect((await post(`/resetpassword/${reset}`, { email, password: NEW_PASSWORD, password2: NEW_PASSWORD })).status).toBe(400);

    expect((await call(t.app, { method: 'GET', url: '/api/users/me', headers: firstAuth })).status).toBe(401);
    expect((await post('/signin', { email, password: PASSWORD })).status).toBe(401);
    expect((await post('/signin', { email, password: NEW_PASSWORD })).status).toBe(200);
  });
});
