import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { linkToken, nextIp, startSmtpServer, uniqueEmail, waitFor } from './users-mail-helpers';

const PUBLIC_URL = 'https://docs.example.test';
const PASSWORD = 'sample test passphrase one';
const NEW_PASSWORD = 'sample test passphrase two';

describe('accounts with e-mail over SMTP', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL, SITE_NAME: 'Sample Evidence Site' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const post = (url: string, payload: unknown, ip = nextIp(), headers = {}) =>
    call(t.app, { method: 'POST', url: `/api/users${url}`, payload: payload as object, remoteAddress: ip, headers });
  const me = (token: string) => call(t.app, { method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${token}` } });

  async function signup(email: string, password = PASSWORD) {
    return post('/signup', { firstName: 'Sample', lastName: 'Tester', email, password, password2: password });
  }

  async function mailToken(email: string, route: '/user/activation/' | '/resetpassword/', nth = 1) {
    const messages = await waitFor(() => {
      const found = smtp.to(email).filter((m) => linkToken(m.raw, PUBLIC_URL, route));
      return found.length >= nth ? found : null;
    }, `mail ${nth} to ${email}`);
    return linkToken(messages[nth - 1]!.raw, PUBLIC_URL, route)!;
  }

  it('runs sign-up, activation, sign-in, forgot and reset end to end with mail read from the SMTP server', async () => {
    const email = uniqueEmail('flow');
    const created = await signup(email.toUpperCase());
    expect(created.status).toBe(201);
    expect(created.body.message).toMatch(/activate/i);

    const activationMail = await waitFor(() => smtp.to(email)[0], 'activation mail');
    expect(activationMail.raw).toMatch(/Subject: Activate your account \| Sample Evidence Site/);
    expect(activationMail.raw).toMatch(/Content-Type: text\/html/);
    expect(activationMail.raw).toMatch(/Content-Type: text\/plain/);
    const activation = linkToken(activationMail.raw, PUBLIC_URL, '/user/activation/');
    expect(activation).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const early = await post('/signin', { email, password: PASSWORD });
    expect(early.status).toBe(403);
    expect(early.body).toEqual({ message: 'Activate your account first: we sent you a link', resend: true });

    const activated = await post(`/user/activation/${activation}`, {});
    expect(activated.status).toBe(200);
    expect(activated.body.message).toBe('Your account has been activated, sign in to your account');
    const again = await post(`/user/activation/${activation}`, {});
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/already been used/);

    const signedIn = await post('/signin', { email, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    const firstToken: string = signedIn.body.token;
    const claims = await t.app.jwt.verify(firstToken);
    // A sign-up waits for an administrator (decisions.md §4): pending, though it can sign in and read its account.
    expect(claims).toMatchObject({ role: 'pending', name: 'Sample Tester', tv: 0 });
    const profile = await me(firstToken);
    expect(profile.status).toBe(200);
    expect(profile.body).toEqual({ id: claims!.id, email, firstName: 'Sample', lastName: 'Tester', role: 'pending' });

    const forgot = await post('/forgotpassword', { email });
    expect(forgot.status).toBe(200);
    const reset = await mailToken(email, '/resetpassword/');
    const resetMail = smtp.to(email).at(-1)!;
    expect(resetMail.raw).toMatch(/Subject: Reset your password \| Sample Evidence Site/);

    const wrongEmail = await post(`/resetpassword/${reset}`, { email: uniqueEmail('other'), password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(wrongEmail.status).toBe(400);
    expect(Object.keys(wrongEmail.body)).toEqual(['email']);
    const weak = await post(`/resetpassword/${reset}`, { email, password: '1234567890', password2: '1234567890' });
    expect(weak.status).toBe(400);
    expect(weak.body.password).toMatch(/too common/);
    const mismatch = await post(`/resetpassword/${reset}`, { email, password: NEW_PASSWORD, password2: `${NEW_PASSWORD}x` });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toEqual({ password2: 'The passwords do not match' });

    const done = await post(`/resetpassword/${reset}`, { email, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(done.status).toBe(200);
    const reuse = await post(`/resetpassword/${reset}`, { email, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(reuse.status).toBe(400);
    expect(reuse.body.message).toMatch(/already been used/);

    // The reset raised the token version: the token from before no longer works.
    expect((await me(firstToken)).status).toBe(401);
    const oldPassword = await post('/signin', { email, password: PASSWORD });
    expect(oldPassword.status).toBe(401);
    const newPassword = await post('/signin', { email, password: NEW_PASSWORD });
    expect(newPassword.status).toBe(200);
    expect((await me(newPassword.body.token)).status).toBe(200);
    expect((await t.app.jwt.verify(newPassword.body.token))!.tv).toBe(1);
  });

  it('refuses expired and unknown links with a clear message', async () => {
    const email = uniqueEmail('expiry');
    expect((await signup(email)).status).toBe(201);
    const activation = await mailToken(email, '/user/activation/');
    await t.database.query(`update tokens set expires_at = now() - interval '1 minute' where purpose = 'activation'`);
    const expired = await post(`/user/activation/${activation}`, {});
    expect(expired.status).toBe(400);
    expect(expired.body.message).toMatch(/expired/);

    const unknown = await post(`/user/activation/${'A'.repeat(43)}`, {});
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/not valid/);

    // A fresh link can be asked for, with the same answer as for an address without an account.
    const resent = await post('/resend-activation', { email });
    const resentUnknown = await post('/resend-activation', { email: uniqueEmail('nobody') });
    expect(resent.status).toBe(200);
    expect(resentUnknown.status).toBe(200);
    expect(resentUnknown.body).toEqual(resent.body);
    const fresh = await mailToken(email, '/user/activation/', 2);
    expect(fresh).not.toBe(activation);
    expect((await post(`/user/activation/${fresh}`, {})).status).toBe(200);

    expect((await post('/forgotpassword', { email })).status).toBe(200);
    const reset = await mailToken(email, '/resetpassword/');
    await t.database.query(`update tokens set expires_at = now() - interval '1 second' where purpose = 'reset'`);
    const late = await post(`/resetpassword/${reset}`, { email, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(late.status).toBe(400);
    expect(late.body.message).toMatch(/expired/);
    // Only hashes are stored: the raw token from the link is nowhere in the table.
    const stored = await t.database.query<{ token_hash: string }>('select token_hash from tokens');
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.map((r) => r.token_hash)).not.toContain(reset);
    expect(stored.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  it('does not reveal through forgot-password whether an account exists', async () => {
    const email = uniqueEmail('known');
    await createUser(t.app, 'contributor');
    expect((await signup(email)).status).toBe(201);
    await t.app.settleAccountWork();
    const known = await post('/forgotpassword', { email });
    const nobody = uniqueEmail('unknown');
    const unknown = await post('/forgotpassword', { email: nobody });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers['content-length']).toBe(known.headers['content-length']);
    await mailToken(email, '/resetpassword/');
    expect(smtp.to(nobody)).toHaveLength(0);
  });

  it('rejects weak, common and mismatched passwords and bad e-mails with keyed field errors; a taken e-mail gets a note', async () => {
    const short = await post('/signup', { firstName: 'A', lastName: 'B', email: uniqueEmail(), password: 'short', password2: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.password).toMatch(/at least 10 characters/);

    const common = await post('/signup', { firstName: 'A', lastName: 'B', email: uniqueEmail(), password: 'Password123', password2: 'Password123' });
    expect(common.status).toBe(400);
    expect(common.body).toEqual({ password: expect.stringMatching(/too common/) });

    const mismatch = await post('/signup', { firstName: 'A', lastName: 'B', email: 'not-an-email', password: PASSWORD, password2: NEW_PASSWORD });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toEqual({ email: 'Enter a valid e-mail address', password2: 'The passwords do not match' });

    const empty = await post('/signup', {});
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body).sort()).toEqual(['email', 'firstName', 'lastName', 'password', 'password2']);

    const email = uniqueEmail('taken');
    expect((await signup(email)).status).toBe(201);
    await t.app.settleAccountWork();
    const taken = await signup(email.toUpperCase());
    // The same answer as for a new account (no enumeration); the owner is told by e-mail instead.
    expect(taken.status).toBe(201);
    expect(taken.body.message).toMatch(/activate/i);
    await waitFor(() => smtp.to(email).find((m) => /Subject: You already have an account/.test(m.raw)), 'account exists note');
    await t.app.settleAccountWork();

    const rows = await t.database.query<{ role: string; active: boolean; password_hash: string }>(
      'select role, active, password_hash from users where email = $1',
      [email],
    );
    expect(rows).toEqual([{ role: 'pending', active: false, password_hash: expect.stringMatching(/^scrypt\$/) }]);
  });

  it('answers wrong credentials with one generic 401, for unknown e-mails and wrong passwords alike', async () => {
    const user = await createUser(t.app, 'contributor', PASSWORD);
    const wrongPassword = await post('/signin', { email: user.email, password: NEW_PASSWORD });
    const unknownEmail = await post('/signin', { email: uniqueEmail('ghost'), password: NEW_PASSWORD });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual({ message: 'Wrong e-mail or password' });
    expect(unknownEmail.body).toEqual(wrongPassword.body);
    expect((await call(t.app, { method: 'GET', url: '/api/users/me' })).status).toBe(401);
    const signout = await call(t.app, { method: 'GET', url: '/api/users/signout' });
    expect(signout.status).toBe(200);
  });

  it('limits failed sign-ins per account and address and per IP: 429 with Retry-After after 5 failures', async () => {
    const user = await createUser(t.app, 'contributor', PASSWORD);
    const attacker = nextIp();
    for (let i = 0; i < 5; i++) {
      expect((await post('/signin', { email: user.email, password: NEW_PASSWORD }, attacker)).status).toBe(401);
    }
    const blocked = await post('/signin', { email: user.email, password: PASSWORD }, attacker);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(900);
    // The owner, from another address, is not locked out by the guesses.
    expect((await post('/signin', { email: user.email, password: PASSWORD })).status).toBe(200);

    const ip = nextIp();
    for (let i = 0; i < 5; i++) {
      expect((await post('/signin', { email: uniqueEmail('spray'), password: NEW_PASSWORD }, ip)).status).toBe(401);
    }
    const sprayBlocked = await post('/signin', { email: uniqueEmail('spray'), password: NEW_PASSWORD }, ip);
    expect(sprayBlocked.status).toBe(429);
    expect(sprayBlocked.headers['retry-after']).toBeDefined();
    // Another address is not affected.
    const other = await createUser(t.app, 'contributor', PASSWORD);
    expect((await post('/signin', { email: other.email, password: PASSWORD })).status).toBe(200);
  });

  it('limits sign-up and forgot-password per IP', async () => {
    const ip = nextIp();
    for (let i = 0; i < 10; i++) {
      expect((await post('/forgotpassword', { email: uniqueEmail('limit') }, ip)).status).toBe(200);
    }
    const tooMany = await post('/forgotpassword', { email: uniqueEmail('limit') }, ip);
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers['retry-after']).toBeDefined();

    const signupIp = nextIp();
    for (let i = 0; i < 10; i++) {
      // Invalid bodies count too: the limit is on requests, before any work.
      expect((await post('/signup', { email: 'x' }, signupIp)).status).toBe(400);
    }
    expect((await post('/signup', { email: 'x' }, signupIp)).status).toBe(429);
  });

  describe('roles', () => {
    it('lets only super list users, without password hashes', async () => {
      const contributor = await createUser(t.app, 'contributor');
      const admin = await createUser(t.app, 'admin');
      const superUser = await createUser(t.app, 'super');
      expect((await call(t.app, { method: 'GET', url: '/api/users' })).status).toBe(401);
      expect((await call(t.app, { method: 'GET', url: '/api/users', headers: contributor.auth })).status).toBe(403);
      expect((await call(t.app, { method: 'GET', url: '/api/users', headers: admin.auth })).status).toBe(403);
      const list = await call(t.app, { method: 'GET', url: '/api/users?limit=200', headers: superUser.auth });
      expect(list.status).toBe(200);
      expect(Number(list.headers['x-total-count'])).toBe(list.body.length);
      expect(list.body.map((u: { id: string }) => u.id)).toContain(contributor.id);
      expect(list.raw.body).not.toMatch(/scrypt|password/i);
      expect(Object.keys(list.body[0]).sort()).toEqual(['active', 'createdAt', 'email', 'firstName', 'id', 'lastName', 'role']);
    });

    it('changes roles (super only), raises the token version and writes the audit log', async () => {
      const target = await createUser(t.app, 'contributor');
      const admin = await createUser(t.app, 'admin');
      const superUser = await createUser(t.app, 'super');
      const put = (id: string, role: unknown, headers: Record<string, string>) =>
        call(t.app, { method: 'PUT', url: `/api/users/${id}/role`, payload: { role }, headers });

      expect((await put(target.id, 'admin', admin.auth)).status).toBe(403);
      expect((await put(target.id, 'emperor', superUser.auth)).body).toHaveProperty('role');
      expect((await put('not-a-uuid', 'admin', superUser.auth)).status).toBe(404);

      const changed = await put(target.id, 'admin', superUser.auth);
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ id: target.id, role: 'admin' });
      expect((await me(target.token)).status).toBe(401);

      const audit = await t.database.query<{ action: string; actor_id: string; changes: unknown }>(
        'select action, actor_id, changes from audit_log where subject = $1',
        [`user:${target.id}`],
      );
      expect(audit).toEqual([{ action: 'user.role', actor_id: superUser.id, changes: { role: { before: 'contributor', after: 'admin' } } }]);
    });

    it('never demotes the last super', async () => {
      // Make this super the only one: demote every other super first.
      const last = await createUser(t.app, 'super');
      const others = await t.database.query<{ id: string }>(`select id from users where role = 'super' and id <> $1`, [last.id]);
      for (const { id } of others) {
        const res = await call(t.app, { method: 'PUT', url: `/api/users/${id}/role`, payload: { role: 'admin' }, headers: last.auth });
        expect(res.status).toBe(200);
      }
      const refused = await call(t.app, { method: 'PUT', url: `/api/users/${last.id}/role`, payload: { role: 'contributor' }, headers: last.auth });
      expect(refused.status).toBe(400);
      expect(refused.body.role).toMatch(/last super/);
      const [row] = await t.database.query<{ role: string }>('select role from users where id = $1', [last.id]);
      expect(row!.role).toBe('super');

      // With a second super, the first may step down.
      const second = await createUser(t.app, 'super');
      const stepDown = await call(t.app, { method: 'PUT', url: `/api/users/${last.id}/role`, payload: { role: 'admin' }, headers: last.auth });
      expect(stepDown.status).toBe(200);
      const lastStanding = await call(t.app, { method: 'PUT', url: `/api/users/${second.id}/role`, payload: { role: 'admin' }, headers: second.auth });
      expect(lastStanding.status).toBe(400);
    });

    it('counts only supers who can sign in: a super account never activated does not let the last one step down', async () => {
      const lastSuper = await createUser(t.app, 'super');
      const auth = lastSuper.auth;
      for (const { id } of await t.database.query<{ id: string }>(`select id from users where role = 'super' and id <> $1`, [lastSuper.id])) {
        expect((await call(t.app, { method: 'PUT', url: `/api/users/${id}/role`, payload: { role: 'admin' }, headers: auth })).status).toBe(200);
      }
      // A sign-up (never activated) promoted to super by the last one: it cannot sign in, so it manages nothing.
      const inactive = await createUser(t.app, 'contributor');
      await t.database.query('update users set active = false where id = $1', [inactive.id]);
      expect((await call(t.app, { method: 'PUT', url: `/api/users/${inactive.id}/role`, payload: { role: 'super' }, headers: auth })).status).toBe(200);
      const refused = await call(t.app, { method: 'PUT', url: `/api/users/${lastSuper.id}/role`, payload: { role: 'admin' }, headers: auth });
      expect(refused.status).toBe(400);
      expect(refused.body.role).toMatch(/last super/);
      // Two active supers demoting each other at the same moment: one change wins, one super is left (the other
      // request is refused as the last super's, or as a token the first change made stale).
      const other = await createUser(t.app, 'super');
      const both = await Promise.all([
        call(t.app, { method: 'PUT', url: `/api/users/${other.id}/role`, payload: { role: 'admin' }, headers: auth }),
        call(t.app, { method: 'PUT', url: `/api/users/${lastSuper.id}/role`, payload: { role: 'admin' }, headers: other.auth }),
      ]);
      expect(both.filter((r) => r.status === 200)).toHaveLength(1);
      expect(both.find((r) => r.status !== 200)!.status).toBeOneOf([400, 401]);
      expect(await t.database.query(`select id from users where role = 'super' and active`)).toHaveLength(1);
    });
  });
});
