import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { addressPrefix } from '../src/services/sessions';
import { call, createTestApp, createUser, type TestApp } from './helpers';

const PASSWORD = 'sample session passphrase';

/** Every sign-in is a session that can be listed and ended, in every server process at once. Test data only. */
describe('sessions', () => {
  let t: TestApp;
  /** A second server process on the same database, with its own token and account caches. */
  let second: FastifyInstance;

  beforeAll(async () => {
    t = await createTestApp();
    second = await buildApp({ config: t.config, database: t.database, runJobs: false, logger: false });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  const signin = async (email: string, userAgent: string, ip: string) => {
    const res = await call(t.app, { method: 'POST', url: '/api/users/signin', payload: { email, password: PASSWORD }, headers: { 'user-agent': userAgent }, remoteAddress: ip });
    expect(res.status).toBe(200);
    return { authorization: `Bearer ${res.body.token}` };
  };
  const me = (app: FastifyInstance, headers: Record<string, string>) => app.inject({ method: 'GET', url: '/api/users/me', headers });

  it('lists the sessions with the one asking marked, ends one in every process at once, and signs out everywhere else', async () => {
    const user = await createUser(t.app, 'contributor', PASSWORD);
    const laptop = await signin(user.email, 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0', '203.0.113.57');
    const phone = await signin(user.email, 'Mozilla/5.0 (Linux; Android 15) Chrome/140.0 Mobile Safari/537.36', '198.51.100.23');
    const list = await call(t.app, { method: 'GET', url: '/api/users/sessions', headers: laptop });
    expect(list.status).toBe(200);
    const mine = list.body.filter((s: { browser: string }) => s.browser !== 'Test');
    expect(mine.map((s: { browser: string; address: string; current: boolean }) => [s.browser, s.address, s.current]).sort()).toEqual([
      ['Chromium', '198.51.100', false],
      ['Firefox', '203.0.113', true],
    ]);
    const phoneSession = mine.find((s: { current: boolean }) => !s.current);

    // Both processes know the phone's token first (their caches hold it), then it is ended in one of them.
    expect((await me(second, phone)).statusCode).toBe(200);
    expect((await call(t.app, { method: 'DELETE', url: `/api/users/sessions/${phoneSession.id}`, headers: laptop })).status).toBe(200);
    expect((await me(t.app, phone)).statusCode).toBe(401);
    expect((await me(second, phone)).statusCode).toBe(401);
    expect((await me(second, laptop)).statusCode).toBe(200);
    expect((await call(t.app, { method: 'DELETE', url: `/api/users/sessions/${phoneSession.id}`, headers: laptop })).status).toBe(404);

    // Another account's session cannot be ended by this one.
    const stranger = await createUser(t.app, 'contributor');
    expect((await call(t.app, { method: 'DELETE', url: `/api/users/sessions/${stranger.sid}`, headers: laptop })).status).toBe(404);
    expect((await me(t.app, stranger.auth)).statusCode).toBe(200);

    const tablet = await signin(user.email, 'Mozilla/5.0 (iPad) Safari/605.1.15', '192.0.2.9');
    const everywhere = await call(t.app, { method: 'DELETE', url: '/api/users/sessions', headers: tablet });
    expect(everywhere.body.ended).toBe(2);
    expect((await me(second, laptop)).statusCode).toBe(401);
    expect((await me(second, user.auth)).statusCode).toBe(401);
    expect((await me(second, tablet)).statusCode).toBe(200);

    // Signing out ends the session the token belongs to.
    expect((await call(second, { method: 'GET', url: '/api/users/signout', headers: tablet })).status).toBe(200);
    expect((await me(t.app, tablet)).statusCode).toBe(401);
  });

  it('ends a staff session idle for longer than STAFF_IDLE_MINUTES, and every session after its absolute lifetime', async () => {
    const admin = await createUser(t.app, 'admin');
    const contributor = await createUser(t.app, 'contributor');
    expect((await me(t.app, admin.auth)).statusCode).toBe(200);
    const idle = `${t.config.STAFF_IDLE_MINUTES + 1} minutes`;
    await t.database.query(`update sessions set last_seen_at = now() - $1::interval where id = any($2::uuid[])`, [idle, [admin.sid, contributor.sid]]);
    expect((await me(second, admin.auth)).statusCode).toBe(401);
    expect((await me(second, contributor.auth)).statusCode).toBe(200);
    await t.database.query(`update sessions set expires_at = now() - interval '1 second' where id = $1`, [contributor.sid]);
    expect((await me(second, contributor.auth)).statusCode).toBe(401);
  });

  it('refuses a token without a session id, and keeps only the first three parts of an address', async () => {
    const user = await createUser(t.app, 'super');
    const noSession = await t.app.jwt.sign(user);
    expect((await me(t.app, { authorization: `Bearer ${noSession}` })).statusCode).toBe(401);
    expect(addressPrefix('203.0.113.57')).toBe('203.0.113');
    expect(addressPrefix('::ffff:198.51.100.4')).toBe('198.51.100');
    expect(addressPrefix('2001:db8:85a3::8a2e:370:7334')).toBe('2001:db8:85a3');
  });
});
