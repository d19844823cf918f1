import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { API_BASE, CATEGORY_LIST, USERS_API_BASE } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { imageField, multipart, sampleFields, testImage } from './records-helpers';

/**
 * The users, audit and records routes say what they answer: a response schema for their success status and for each
 * refusal, read here from the OpenAPI document the routes' schemas make, so a route added without them fails. Probing
 * requests then check that every status a route really sends is one it declares, and that an answer serialised
 * through a schema keeps every field of the same data read without one (a response schema drops what it does not name).
 */

const AREAS = new RegExp(`^(${USERS_API_BASE}|${API_BASE}/(audit|news|images|trash|${CATEGORY_LIST.map((c) => c.slug).join('|')}))(/|$)`);

interface Operation {
  method: string;
  path: string;
  responses: Record<string, { content?: unknown }>;
  /** Takes multipart/form-data (record and image writes). */
  multipart: boolean;
}

const declares = (op: Operation, status: number) => Boolean(op.responses[String(status)]?.content);
const name = (op: Operation) => `${op.method} ${op.path}`;
/** Every route reads its query string and path (a NUL in them is refused); routes other than GET also read a body. */
const readsBody = (op: Operation) => op.method !== 'GET';

describe('response schemas of the users, audit and records routes', () => {
  let t: TestApp;
  let operations: Operation[];
  const auth: Record<string, Record<string, string>> = { anonymous: {} };
  /** Tokens of their own for sign-out, which ends the session of the token it is sent (the others probe on after it). */
  const signoutAuth: Record<string, Record<string, string>> = { anonymous: {} };
  /** A record of each category, owned by someone other than the probing contributor. */
  const recordIds = new Map<string, string>();
  /** An image of one of those records, for the images routes. */
  let imageId: string;
  let ownerAuth: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    for (const role of ['contributor', 'super'] as const) auth[role] = (await createUser(t.app, role)).auth;
    for (const role of ['contributor', 'super'] as const) signoutAuth[role] = (await createUser(t.app, role)).auth;
    ownerAuth = (await createUser(t.app, 'contributor')).auth;
    for (const [i, category] of CATEGORY_LIST.entries()) {
      const field = imageField(category);
      const files = field ? [{ field, filename: 'probe.png', type: 'image/png', data: await testImage(i) }] : [];
      const body = multipart(sampleFields(category, 'Probe'), files);
      const res = await call(t.app, { method: 'POST', url: `${API_BASE}/${category.slug}`, headers: { ...ownerAuth, ...body.headers }, payload: body.payload });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      recordIds.set(category.slug, res.body._id);
      if (category.inGallery) imageId ??= res.body.images[0].imageId;
    }
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    operations = [];
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      if (!AREAS.test(path)) continue;
      for (const [method, op] of Object.entries<any>(item)) {
        const tags: string[] = op.tags ?? [];
        // The captures of a record are the captures area's, under the record's path.
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method) || tags.includes('captures')) continue;
        const multipart = Boolean(op.requestBody?.content?.['multipart/form-data']);
        operations.push({ method: method.toUpperCase(), path, responses: op.responses ?? {}, multipart });
      }
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  it('declares a schema for a success status and for 400 on every route, and for 413 and 415 where it reads a body', () => {
    // Users (10), audit (4), news, images (5), trash (3) and every category's routes.
    expect(operations.length).toBeGreaterThan(18 + CATEGORY_LIST.length * 5);
    const missing: string[] = [];
    for (const op of operations) {
      if (!Object.keys(op.responses).some((status) => /^2\d\d$/.test(status) && declares(op, Number(status)))) missing.push(`${name(op)}: no success`);
      for (const status of readsBody(op) ? [400, 413, 415] : [400]) if (!declares(op, status)) missing.push(`${name(op)}: no ${status}`);
    }
    expect(missing).toEqual([]);
  });

  /**
   * The requests sent to `op`: as each role, with a NUL in the query, and (with a body) one of a type no route reads,
   * one too large and a form whose field is declared JSON but is not.
   */
  function probes(op: Operation): { what: string; request: InjectOptions; expect?: number }[] {
    const category = CATEGORY_LIST.find((c) => op.path.startsWith(`${API_BASE}/${c.slug}/`));
    const id = category ? recordIds.get(category.slug) : op.path.startsWith(`${API_BASE}/images/`) ? imageId : undefined;
    const url = op.path
      .replace('{id}', id ?? randomUUID())
      .replace('{imageId}', randomUUID())
      .replace('{token}', 'not-a-token');
    const method = op.method as InjectOptions['method'];
    const list: { what: string; request: InjectOptions; expect?: number }[] = [];
    const tokens = op.path.endsWith('/signout') ? signoutAuth : auth;
    for (const role of ['anonymous', 'contributor', 'super']) {
      const body = readsBody(op) ? { payload: '{}', headers: { ...tokens[role], 'content-type': 'application/json' } } : { headers: tokens[role] };
      list.push({ what: role, request: { method, url, ...body } });
    }
    list.push({ what: 'a NUL in the query', request: { method, url: `${url}?probe=%00`, headers: auth.contributor }, expect: 400 });
    // Not probed: a path value over the router's length limit, answered 414 by Fastify's router before any route runs.
    if (readsBody(op)) {
      list.push({
        what: 'a body of a type no route reads',
        request: { method, url, headers: { ...auth.contributor, 'content-type': 'application/xml' }, payload: '<probe/>' },
        expect: 415,
      });
      list.push({
        what: 'a body over the limit',
        request: { method, url, headers: { ...auth.contributor, 'content-type': 'application/json' }, payload: JSON.stringify({ title: 'x'.repeat(1_100_000) }) },
        expect: 413,
      });
    }
    if (op.multipart) {
      const boundary = 'probe-boundary';
      const payload = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\nContent-Type: application/json\r\n\r\n{not json\r\n--${boundary}--\r\n`;
      list.push({
        what: 'a form field declared as JSON that is not',
        request: { method, url, headers: { ...ownerAuth, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload },
        expect: 406,
      });
    }
    return list;
  }

  it('declares every status the routes answer to probing requests', async () => {
    const undeclared: string[] = [];
    let sent = 0;
    // Reads first, then changes (so reads see the records before a probe trashes them), and the trash last.
    const order = (op: Operation) => (op.method === 'GET' ? 0 : op.path.startsWith(`${API_BASE}/trash`) ? 2 : 1);
    for (const op of [...operations].sort((a, b) => order(a) - order(b))) {
      for (const probe of probes(op)) {
        const res = await t.app.inject({ remoteAddress: `10.9.${sent >> 8}.${sent & 255}`, ...probe.request });
        sent++;
        const what = `${name(op)} (${probe.what}) -> ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, what).toBeLessThan(500);
        if (probe.expect) expect(res.statusCode, what).toBe(probe.expect);
        if (!declares(op, res.statusCode)) undeclared.push(what);
        // A read asked again with its ETag: 304, no body.
        const etag = res.headers.etag;
        if (op.method === 'GET' && typeof etag === 'string') {
          const again = await t.app.inject({ ...probe.request, headers: { ...probe.request.headers, 'if-none-match': etag } });
          sent++;
          expect(again.statusCode, `${what}, asked again with its ETag`).toBe(304);
          if (!op.responses['304']) undeclared.push(`${name(op)} (${probe.what}, with its ETag) -> 304`);
        }
      }
    }
    expect(sent).toBeGreaterThan(operations.length * 4);
    expect(undeclared).toEqual([]);
  });

  it("keeps every field of a record, an image and the audit log in answers serialised through their schemas", async () => {
    for (const category of CATEGORY_LIST) {
      const created = multipart(sampleFields(category, 'Kept'), []);
      const res = await call(t.app, { method: 'POST', url: `${API_BASE}/${category.slug}`, headers: { ...ownerAuth, ...created.headers }, payload: created.payload });
      expect(res.status).toBe(201);
      // The read is sent as the record's kept JSON, made without a response schema.
      const read = await call(t.app, { method: 'GET', url: `${API_BASE}/${category.slug}/${res.body._id}`, headers: ownerAuth });
      expect(read.status).toBe(200);
      expect(res.body, category.slug).toEqual(read.body);
      const trashed = await call(t.app, { method: 'DELETE', url: `${API_BASE}/${category.slug}/${res.body._id}/delete`, headers: ownerAuth });
      expect(trashed.status).toBe(200);
      expect(trashed.body).toEqual({ ...read.body, updatedAt: trashed.body.updatedAt, deletedAt: expect.any(String), deletedBy: expect.any(String) });
      // Restored through the trash's routes, which answer records of any category.
      const restored = await call(t.app, { method: 'PUT', url: `${API_BASE}/trash/${res.body._id}/restore`, headers: auth.super });
      expect(restored.status).toBe(200);
      expect(restored.body).toEqual({ ...read.body, updatedAt: restored.body.updatedAt });
    }

    const gallery = CATEGORY_LIST.find((c) => c.inGallery)!;
    const withImage = multipart(sampleFields(gallery, 'Kept'), [{ field: imageField(gallery)!, filename: 'kept.png', type: 'image/png', data: await testImage(99) }]);
    const record = await call(t.app, { method: 'POST', url: `${API_BASE}/${gallery.slug}`, headers: { ...ownerAuth, ...withImage.headers }, payload: withImage.payload });
    const imageId: string = record.body.images[0].imageId;
    const edited = await call(t.app, { method: 'PUT', url: `${API_BASE}/images/${imageId}/edit`, headers: ownerAuth, payload: { caption: 'A kept caption' } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const image = await call(t.app, { method: 'GET', url: `${API_BASE}/images/${edited.body._id}`, headers: ownerAuth });
    expect(edited.body).toEqual(image.body);
    const graphic = await call(t.app, { method: 'PUT', url: `${API_BASE}/images/${edited.body._id}/graphic`, headers: ownerAuth, payload: { graphic: true } });
    expect(graphic.status).toBe(200);
    const file = (await call(t.app, { method: 'GET', url: `${API_BASE}/${gallery.slug}/${record.body._id}`, headers: ownerAuth })).body.images[0];
    // The editors' view: the file as every reader sees it, and its restricted metadata and processing note.
    expect(graphic.body).toEqual({ ...file, restricted: null, statusReason: null });

    const audit = await call(t.app, { method: 'GET', url: `${API_BASE}/audit?limit=5`, headers: auth.super });
    expect(audit.status).toBe(200);
    const [row] = await t.database.query<{ prev_hash: string; hash: string }>('select prev_hash, hash from audit_log where seq = $1', [audit.body[0].seq]);
    expect(audit.body[0]).toMatchObject({ prevHash: row!.prev_hash, hash: row!.hash });
  });
});
