import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CATEGORIES } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { sampleFields } from './records-helpers';
import { linkToken, nextIp, startSmtpServer, uniqueEmail, waitFor } from './users-mail-helpers';

const PUBLIC_URL = 'https://approval.example.test';
const PASSWORD = 'sample approval passphrase one';

/** Sign-ups wait for an administrator (decisions.md §4); admins approve, decline or invite. Test data only. */
describe('account approval', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let admin: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL, SITE_NAME: 'Sample Evidence Site' });
    admin = await createUser(t.app, 'admin');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const post = (url: string, payload: unknown, headers = {}) =>
    call(t.app, { method: 'POST', url: `/api/users${url}`, payload: payload as object, remoteAddress: nextIp(), headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const mails = (email: string, route: '/user/activation/' | '/resetpassword/') =>
    waitFor(() => smtp.to(email).map((m) => linkToken(m.raw, PUBLIC_URL, route)).find(Boolean), `mail to ${email}`);

  async function activatedPending(label: string) {
    const email = uniqueEmail(label);
    const signup = await post('/signup', {
      firstName: 'Sample',
      lastName: 'Applicant',
      email,
      password: PASSWORD,
      password2: PASSWORD,
      organisation: 'Sample Test Association',
      reason: 'Test: I document displacement in the sample region.',
    });
    expect(signup.status).toBe(201);
    expect((await post(`/user/activation/${await mails(email, '/user/activation/')}`, {})).status).toBe(200);
    const signin = await post('/signin', { email, password: PASSWORD });
    expect(signin.status).toBe(200);
    const me = await call(t.app, { method: 'GET', url: '/api/users/me', headers: bearer(signin.body.token) });
    return { email, token: signin.body.token as string, id: me.body.id as string, me };
  }

  it('keeps an activated sign-up pending and answers it as an anonymous reader until an admin approves it', async () => {
    const applicant = await activatedPending('approve');
    expect(applicant.me.body.role).toBe('pending');

    const victims = CATEGORIES.victims;
    const create = await call(t.app, { method: 'POST', url: `${API_BASE}/${victims.slug}`, headers: bearer(applicant.token), payload: sampleFields(victims, 'Pending') });
    expect(create.status).toBe(403);
    expect(create.body).toMatchObject({ code: 'pendingApproval', message: "Your account is waiting for an administrator's approval" });

    const queue = await call(t.app, { method: 'GET', url: '/api/users/pending', headers: admin.auth });
    expect(queue.status).toBe(200);
    const item = queue.body.find((u: { id: string }) => u.id === applicant.id);
    expect(item).toMatchObject({ organisation: 'Sample Test Association', reason: 'Test: I document displacement in the sample region.', active: true, role: 'pending' });

    const contributor = await createUser(t.app, 'contributor');
    expect((await post(`/${applicant.id}/approve`, {}, contributor.auth)).status).toBe(403);
    const approved = await post(`/${applicant.id}/approve`, {}, admin.auth);
    expect(approved.status).toBe(200);
    expect(approved.body.role).toBe('contributor');
    expect((await post(`/${applicant.id}/approve`, {}, admin.auth)).status).toBe(409);
    await waitFor(() => smtp.to(applicant.email).find((m) => /Your account has been approved/.test(m.raw)), 'approval mail');

    // The pending token named the old role: it ends, and a new sign-in is a contributor's.
    expect((await call(t.app, { method: 'GET', url: '/api/users/me', headers: bearer(applicant.token) })).status).toBe(401);
    const again = await post('/signin', { email: applicant.email, password: PASSWORD });
    const created = await call(t.app, { method: 'POST', url: `${API_BASE}/${victims.slug}`, headers: bearer(again.body.token), payload: sampleFields(victims, 'Approved') });
    expect(created.status).toBe(201);

    const audit = await t.database.query<{ actor_id: string; action: string }>(`select actor_id, action from audit_log where subject = $1`, [`user:${applicant.id}`]);
    expect(audit).toEqual([{ actor_id: admin.id, action: 'user.approve' }]);
  });

  it('declines: the account is closed, told by e-mail, and the decision audited', async () => {
    const applicant = await activatedPending('decline');
    const declined = await post(`/${applicant.id}/decline`, {}, admin.auth);
    expect(declined.status).toBe(200);
    expect(declined.body.active).toBe(false);
    await waitFor(() => smtp.to(applicant.email).find((m) => /declined/.test(m.raw)), 'decline mail');
    expect((await call(t.app, { method: 'GET', url: '/api/users/me', headers: bearer(applicant.token) })).status).toBe(401);
    const signin = await post('/signin', { email: applicant.email, password: PASSWORD });
    expect(signin.status).toBe(403);
    expect(signin.body.message).toMatch(/declined/);
    const audit = await t.database.query<{ action: string }>(`select action from audit_log where subject = $1`, [`user:${applicant.id}`]);
    expect(audit).toEqual([{ action: 'user.decline' }]);
  });

  it('invites by e-mail: the link sets the password and the account is a contributor at once', async () => {
    const email = uniqueEmail('invitee');
    const invited = await post('/invite', { email, firstName: 'Sample', lastName: 'Invitee' }, admin.auth);
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ role: 'contributor', active: false, invited: true });
    expect((await post('/invite', { email, firstName: 'Sample', lastName: 'Invitee' }, admin.auth)).body).toEqual({ email: 'This e-mail already has an account' });
    expect((await post('/invite', { email: 'not an address', firstName: '', lastName: 'X' }, admin.auth)).body).toMatchObject({
      email: expect.any(String),
      firstName: expect.any(String),
    });

    const token = await mails(email, '/resetpassword/');
    expect((await post('/signin', { email, password: PASSWORD })).status).toBe(401);
    expect((await post(`/resetpassword/${token}`, { email, password: PASSWORD, password2: PASSWORD })).status).toBe(200);
    const signin = await post('/signin', { email, password: PASSWORD });
    expect(signin.status).toBe(200);
    const me = await call(t.app, { method: 'GET', url: '/api/users/me', headers: bearer(signin.body.token) });
    expect(me.body.role).toBe('contributor');
    const audit = await t.database.query<{ action: string }>(`select action from audit_log where subject = $1`, [`user:${me.body.id}`]);
    expect(audit).toEqual([{ action: 'user.invite' }]);
  });
});
