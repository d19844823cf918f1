import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { API_BASE, CATEGORIES } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { sampleFields } from './records-helpers';

const WITNESS = { kind: 'witness', title: 'Testimony of test witness L', note: 'Test witness note', withheld: true };

/** Reads of private records and withheld testimonies by accounts are logged (decisions.md §4). Test data only. */
describe('access log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('logs a private read and a shown testimony with account and session, not public reads; admins list and export, each account its own', async () => {
    const author = await createUser(t.app, 'contributor');
    const reader = await createUser(t.app, 'contributor');
    const admin = await createUser(t.app, 'admin');
    const massacres = CATEGORIES.massacres;
    const massacre = await call(t.app, { method: 'POST', url: `${API_BASE}/massacres`, headers: author.auth, payload: sampleFields(massacres, 'Access log') });
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/approve/${massacre.body._id}`, headers: admin.auth })).status).toBe(200);
    const toggled = await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${massacre.body._id}/access`, headers: admin.auth });
    expect(toggled.body.public).toBe(false);
    const blog = await call(t.app, { method: 'POST', url: `${API_BASE}/blogs`, headers: author.auth, payload: { ...sampleFields(CATEGORIES.blogs, 'Access log'), sources: [WITNESS] } });
    expect(blog.status).toBe(201);

    const read = (url: string, headers: Record<string, string> = {}) => call(t.app, { method: 'GET', url: `${API_BASE}${url}`, headers });
    expect((await read(`/massacres/${massacre.body._id}`, reader.auth)).status).toBe(200);
    // The author sees the testimony's details, another contributor does not; the public nothing private.
    expect((await read(`/blogs/${blog.body._id}`, author.auth)).body.sources[0].note).toBe('Test witness note');
    expect((await read(`/blogs/${blog.body._id}`, reader.auth)).status).toBe(200);
    expect((await read(`/massacres/${massacre.body._id}`)).status).toBe(404);

    const entries = await call(t.app, { method: 'GET', url: `${API_BASE}/access-log`, headers: admin.auth });
    expect(entries.status).toBe(200);
    const mine = (entries.body as { userId: string; recordId: string; kind: string; sessionId: string }[]).filter((e) => [author.id, reader.id].includes(e.userId));
    expect(mine.map((e) => [e.userId, e.recordId, e.kind, e.sessionId]).sort()).toEqual(
      [
        [reader.id, massacre.body._id, 'private', reader.sid],
        [author.id, blog.body._id, 'withheld', author.sid],
      ].sort(),
    );
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/access-log`, headers: reader.auth })).status).toBe(403);

    const own = await call(t.app, { method: 'GET', url: '/api/users/access-log', headers: reader.auth });
    expect(own.body.map((e: { recordId: string }) => e.recordId)).toEqual([massacre.body._id]);

    const csv = await t.app.inject({ method: 'GET', url: `${API_BASE}/access-log/export.csv`, headers: admin.auth });
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const rows = parse(csv.body, { columns: true }) as { user_id: string; kind: string }[];
    expect(rows.filter((r) => r.user_id === reader.id).map((r) => r.kind)).toEqual(['private']);
  });
});
