import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from '../helpers';
import { multipart } from '../records-helpers';
import { dbState } from './db-state';

/**
 * PostgreSQL text cannot hold U+0000: a NUL character that reached a query failed the request with a 500 (found by
 * the malformed-request suite: POST /victims with {"title":"\u0000"}). Every way a string enters must refuse it
 * with a 400 naming the field, before anything is written.
 */
describe('NUL characters in input', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    auth = (await createUser(t.app, 'admin')).auth;
  });
  afterAll(async () => t?.close());

  it('refuses a NUL in a JSON record body with a field error and writes nothing', async () => {
    const before = await dbState(t.database);
    const res = await call(t.app, {
      method: 'POST',
      url: `${API_BASE}/victims`,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"title":"Test data \\u0000","description":"a\\u0000b"}',
    });
    expect(res.status).toBe(400);
    expect(res.body.title).toMatch(/NUL/);
    expect(await dbState(t.database)).toEqual(before);
  });

  it('refuses a NUL in a multipart field, a nested JSON value and a query parameter', async () => {
    const form = multipart({ title: 'Test data \u0000', description: 'test' });
    const viaForm = await call(t.app, { method: 'POST', url: `${API_BASE}/blogs`, headers: { ...auth, ...form.headers }, payload: form.payload });
    expect(viaForm.status).toBe(400);
    expect(viaForm.body.title).toMatch(/NUL/);

    const nested = await call(t.app, {
      method: 'POST',
      url: '/api/users/signup',
      headers: { 'content-type': 'application/json' },
      payload: '{"firstName":"Test","lastName":"x\\u0000","email":"nul-test@example.test","password":"a long test password","password2":"a long test password"}',
    });
    expect(nested.status).toBe(400);
    expect(nested.body.lastName).toMatch(/NUL/);

    const query = await call(t.app, { method: 'GET', url: `${API_BASE}/victims?cursor=a%00b` });
    expect(query.status).toBe(400);
    expect(query.body.cursor).toMatch(/NUL/);

    // A parameter named __proto__ cannot name the problem under its own name (the body came back as {}).
    const proto = await call(t.app, { method: 'GET', url: `${API_BASE}/victims?__proto__=%00` });
    expect(proto.status).toBe(400);
    expect(proto.body).toEqual({ message: expect.stringMatching(/NUL/) });
  });
});
