import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { API_BASE, CATEGORIES } from '@app/shared';
import { totpCode } from '../src/services/two-factor';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { sampleFields } from './records-helpers';

const PASSWORD = 'sample step-up passphrase';
const WITNESS = { kind: 'witness', title: 'Testimony of test witness S', note: 'Test witness note', withheld: true };

/** The actions that can hurt a witness ask for a proof within five minutes (decisions.md §4). Test data only. */
describe('step-up', () => {
  let t: TestApp;
  let superUser: Awaited<ReturnType<typeof createUser>>;
  let author: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    superUser = await createUser(t.app, 'super', PASSWORD);
    author = await createUser(t.app, 'contributor');
  });
  afterAll(async () => t?.close());

  const stale = (sid: string) => t.database.query(`update sessions set verified_at = now() - interval '6 minutes' where id = $1`, [sid]);
  const stepUp = (headers: Record<string, string>, payload: object) => call(t.app, { method: 'POST', url: '/api/users/step-up', headers, payload });

  /** Each action: a request of the super's that passes its permission check, and what it answers when let through. */
  async function actions() {
    const blogs = CATEGORIES.blogs;
    const record = await call(t.app, { method: 'POST', url: `${API_BASE}/blogs`, headers: author.auth, payload: { ...sampleFields(blogs, 'Step-up'), sources: [WITNESS] } });
    expect(record.status, JSON.stringify(record.body)).toBe(201);
    const trashed = await call(t.app, { method: 'POST', url: `${API_BASE}/blogs`, headers: author.auth, payload: sampleFields(blogs, 'Step-up trash') });
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/blogs/${trashed.body._id}/delete`, headers: superUser.auth })).status).toBe(200);
    const spare = await createUser(t.app, 'contributor');
    return [
      { name: 'role change', method: 'PUT', url: `/api/users/${spare.id}/role`, payload: { role: 'admin' }, passes: [200] },
      { name: 'purge', method: 'DELETE', url: `${API_BASE}/trash/${trashed.body._id}`, passes: [200] },
      { name: 'merge', method: 'POST', url: `${API_BASE}/duplicates/merge`, payload: { keep: randomUUID(), merge: randomUUID() }, passes: [404] },
      {
        name: 'lifting withheld',
        method: 'PUT',
        url: `${API_BASE}/blogs/${record.body._id}/edit`,
        payload: { ...sampleFields(blogs, 'Step-up'), sources: [{ ...WITNESS, withheld: false }] },
        passes: [200],
      },
      { name: 'private export', method: 'GET', url: `${API_BASE}/export.csv?category=massacres`, passes: [200] },
    ] as const;
  }

  it('refuses each listed action without a recent proof, names the route that gives one, and lets it through after', async () => {
    const list = await actions();
    await stale(superUser.sid);
    for (const action of list) {
      const res = await call(t.app, { method: action.method, url: action.url, headers: superUser.auth, ...('payload' in action ? { payload: action.payload } : {}) });
      expect(res.status, action.name).toBe(403);
      expect(res.body, action.name).toMatchObject({ code: 'stepUpRequired', stepUp: '/api/users/step-up' });
    }
    expect((await stepUp(superUser.auth, { password: 'not the password' })).body).toEqual({ password: 'Wrong password' });
    expect((await stepUp(superUser.auth, {})).status).toBe(400);
    expect((await stepUp(superUser.auth, { password: PASSWORD })).status).toBe(200);
    for (const action of list) {
      const res = await call(t.app, { method: action.method, url: action.url, headers: superUser.auth, ...('payload' in action ? { payload: action.payload } : {}) });
      expect(action.passes, `${action.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`).toContain(res.status);
    }
  });

  it('counts a fresh sign-in, and asks an account with a second factor for a code, not its password', async () => {
    const admin = await createUser(t.app, 'admin', PASSWORD);
    const begun = await call(t.app, { method: 'POST', url: '/api/users/2fa/totp', headers: admin.auth });
    const code = totpCode(begun.body.secret);
    expect((await call(t.app, { method: 'POST', url: '/api/users/2fa/totp/confirm', headers: admin.auth, payload: { code } })).status).toBe(200);
    const merge = () => call(t.app, { method: 'POST', url: `${API_BASE}/duplicates/merge`, headers: admin.auth, payload: { keep: randomUUID(), merge: randomUUID() } });
    // Confirming the enrolment was a proof.
    expect((await merge()).status).toBe(404);
    await stale(admin.sid);
    expect((await merge()).status).toBe(403);
    expect((await stepUp(admin.auth, { password: PASSWORD })).status).toBe(400);
    expect((await stepUp(admin.auth, { code: totpCode(begun.body.secret, Date.now() + 30_000) })).status).toBe(200);
    expect((await merge()).status).toBe(404);
  });

  it('stops a session guessing: five wrong proofs in 15 minutes, then 429 even for the right one', async () => {
    const guesser = await createUser(t.app, 'admin', PASSWORD);
    for (let i = 0; i < 5; i++) expect((await stepUp(guesser.auth, { password: `wrong guess ${i}` })).status).toBe(400);
    const blocked = await stepUp(guesser.auth, { password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});
