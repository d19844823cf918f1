import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { API_BASE, CATEGORIES, CATEGORY_LIST, INCIDENT_CATEGORIES, can, dataFields, isDateKind, type Actor, type CategoryDef } from '@app/shared';
import { CAPTURED_FIELDS } from '../../src/modules/captures/service';
import { JwtService } from '../../src/services/jwt';
import { call, createTestApp, createUser, type TestApp } from '../helpers';
import { imageField, multipart, sampleFields, testImage } from '../records-helpers';

/** The categories whose records cite links that are captured, each with its captures routes. */
const CAPTURING = CATEGORY_LIST.filter((c) => dataFields(c).some((f) => (CAPTURED_FIELDS as readonly string[]).includes(f.name)));

/**
 * Every route x every kind of caller, against the permissions table in packages/shared (`can`),
 * and records that must stay unseen (private, unapproved and private, trashed) probed through every read path.
 * Test data only.
 */

type User = Awaited<ReturnType<typeof createUser>>;
type Caller = { name: string; headers: Record<string, string>; actor: Actor | null; tokenValid: boolean };
type Ctx = { record: { _id: string; images?: { _id?: string; imageId?: string }[] }; category: CategoryDef };

/** How a route decides: `can` applied to the caller and (for owner rules) a record the first contributor owns. */
type Rule = (actor: Actor | null, record: { userId: string | null }) => boolean;

interface WriteRoute {
  method: 'POST' | 'PUT' | 'DELETE' | 'GET';
  /** The OpenAPI path this row covers. */
  path: string;
  rule: Rule;
  /** Fresh state for one probe: a record of `category` owned by the first contributor (trashed when asked). */
  needs?: { category: CategoryDef; withImage?: boolean; trashed?: boolean };
  url: (ctx: Ctx) => string;
  body?: (ctx: Ctx) => unknown;
  /** Answers that also mean "let through" (past the permission check, refused for another reason). */
  alsoAllowed?: number[];
  /** An answer past the permission check that shares a refusal's status (told apart by its message). */
  pastCheck?: (res: { status: number; body: any }) => boolean;
}

const base64url = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** Read paths over the whole collection that can show a record: search (by the record's mark) and the exports. */
const SEARCH_AND_EXPORT: { name: string; url: (c: CategoryDef, id: string, mark: string) => string }[] = [
  { name: 'search', url: (_c, _id, mark) => `${API_BASE}/search?q=${encodeURIComponent(mark)}` },
  { name: 'search in the category', url: (c) => `${API_BASE}/search?category=${c.slug}&limit=50` },
  // The incident picker's suggestions: the start of the mark's last word (a prefix query, not a whole word).
  { name: 'incident suggestions', url: (_c, _id, mark) => `${API_BASE}/incidents/suggest?q=${encodeURIComponent(mark.slice(0, -2))}&limit=10` },
  { name: 'CSV export', url: (c) => `${API_BASE}/export.csv?category=${c.slug}` },
  { name: 'NDJSON export', url: (c) => `${API_BASE}/export.ndjson?category=${c.slug}` },
  { name: 'map points', url: (c) => `${API_BASE}/statistics/points?category=${c.slug}` },
];
let exportCaller = 0;

describe('access control matrix: every route as every caller, unseen records through every read', () => {
  let t: TestApp;
  let owner: User;
  let other: User;
  let admin: User;
  let superUser: User;
  let callers: Caller[];
  const figures = { probes: 0, readProbes: 0 };

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://access-test.example.test' });
    owner = await createUser(t.app, 'contributor');
    other = await createUser(t.app, 'contributor');
    admin = await createUser(t.app, 'admin');
    superUser = await createUser(t.app, 'super');
    const pending = await createUser(t.app, 'pending');
    const signedOut = await createUser(t.app, 'admin');
    await t.app.sessions.revoke(signedOut.id, signedOut.sid);
    const afterReset = await createUser(t.app, 'admin');
    // What a password reset does to the account's earlier tokens (tested end to end in abuse.test.ts).
    await t.database.query('update users set token_version = token_version + 1 where id = $1', [afterReset.id]);
    const secret = t.config.jwtSecret;
    const expired = await new JwtService(secret, -120).sign(superUser);
    const otherKey = await new JwtService('another signing key, not the site one'.padEnd(40, '!'), 3600).sign(superUser);
    const claims = { id: superUser.id, role: 'super', name: 'Test User', tv: 0, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 };
    const algNone = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const actor = (u: User): Actor => ({ id: u.id, role: u.role as Actor['role'] });
    callers = [
      { name: 'anonymous', headers: {}, actor: null, tokenValid: false },
      { name: 'owner (contributor)', headers: owner.auth, actor: actor(owner), tokenValid: true },
      { name: 'another contributor', headers: other.auth, actor: actor(other), tokenValid: true },
      { name: 'admin', headers: admin.auth, actor: actor(admin), tokenValid: true },
      { name: 'super', headers: superUser.auth, actor: actor(superUser), tokenValid: true },
      // Signed in, not yet approved by an admin: answered as an anonymous reader everywhere (decisions.md §4).
      { name: 'pending account', headers: pending.auth, actor: actor(pending), tokenValid: true },
      { name: 'admin token of an ended session', headers: signedOut.auth, actor: null, tokenValid: false },
      { name: 'admin token after password reset', headers: afterReset.auth, actor: null, tokenValid: false },
      { name: 'expired super token', headers: bearer(expired), actor: null, tokenValid: false },
      { name: 'super token signed with another key', headers: bearer(otherKey), actor: null, tokenValid: false },
      { name: 'alg none super token', headers: bearer(algNone), actor: null, tokenValid: false },
    ];
  });
  afterAll(async () => t?.close());

  async function createRecord(category: CategoryDef, by: User, fields: Record<string, string> = {}, withImage = false) {
    const field = imageField(category);
    const files = withImage && field ? [{ field, filename: 'access-test.png', type: 'image/png', data: await testImage(Math.floor(Math.random() * 200)) }] : [];
    const body = multipart({ ...sampleFields(category, 'Access test'), ...fields }, files);
    const res = await call(t.app, { method: 'POST', url: `${API_BASE}/${category.slug}`, headers: { ...by.auth, ...body.headers }, payload: body.payload });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Ctx['record'];
  }

  const del = (category: CategoryDef, id: string) => call(t.app, { method: 'DELETE', url: `${API_BASE}/${category.slug}/${id}/delete`, headers: admin.auth });

  function writeRoutes(): WriteRoute[] {
    const rows: WriteRoute[] = [];
    const victims = CATEGORIES.victims;
    for (const category of CATEGORY_LIST) {
      const p = `${API_BASE}/${category.slug}`;
      rows.push({ method: 'POST', path: `${p}`, rule: (a) => can.create(a), url: () => p, body: () => sampleFields(category, 'Access test') });
      rows.push({ method: 'PUT', path: `${p}/{id}/edit`, rule: can.modify, needs: { category }, url: (c) => `${p}/${c.record._id}/edit`, body: () => ({ ...sampleFields(category, 'Edited access test') }) });
      rows.push({ method: 'DELETE', path: `${p}/{id}/delete`, rule: can.modify, needs: { category }, url: (c) => `${p}/${c.record._id}/delete` });
      if (category.approvable) rows.push({ method: 'PUT', path: `${p}/approve/{id}`, rule: (a) => can.approve(a), needs: { category }, url: (c) => `${p}/approve/${c.record._id}` });
      if (category.hasAccessToggle) rows.push({ method: 'PUT', path: `${p}/{id}/access`, rule: (a) => can.toggleAccess(a), needs: { category }, url: (c) => `${p}/${c.record._id}/access` });
      if (category.media === 'images') {
        rows.push({ method: 'DELETE', path: `${p}/{id}/image/{imageId}/delete`, rule: can.modify, needs: { category, withImage: true }, url: (c) => `${p}/${c.record._id}/image/${imageIdOf(c)}/delete` });
      }
    }
    for (const category of CAPTURING) {
      const p = `${API_BASE}/${category.slug}`;
      // 400 is past the check: a sample record of a category whose only cited links are its sources cites none.
      rows.push({ method: 'POST', path: `${p}/{id}/captures`, rule: can.modify, needs: { category }, url: (c) => `${p}/${c.record._id}/captures`, body: () => ({}), alsoAllowed: [409, 400] });
      rows.push({ method: 'PUT', path: `${p}/{id}/captures/settings`, rule: (a) => can.toggleAccess(a), needs: { category }, url: (c) => `${p}/${c.record._id}/captures/settings`, body: () => ({ publicDownload: true }) });
    }
    for (const category of CATEGORY_LIST.filter((c) => c.checksDuplicates)) {
      const p = `${API_BASE}/${category.slug}/duplicates`;
      rows.push({ method: 'GET', path: p, rule: (a) => can.create(a), url: () => `${p}?name=Access%20test` });
    }
    const staff = (a: Actor | null) => a?.role === 'admin' || a?.role === 'super';
    const noSuchPeople = () => ({ keep: randomUUID(), merge: randomUUID() });
    rows.push({ method: 'GET', path: `${API_BASE}/duplicates`, rule: staff, url: () => `${API_BASE}/duplicates` });
    // Made-up ids: staff get as far as finding no such record (404); everyone else is refused before.
    rows.push({ method: 'POST', path: `${API_BASE}/duplicates/merge`, rule: staff, url: () => `${API_BASE}/duplicates/merge`, body: noSuchPeople, alsoAllowed: [404] });
    rows.push({
      method: 'POST',
      path: `${API_BASE}/duplicates/dismiss`,
      rule: staff,
      url: () => `${API_BASE}/duplicates/dismiss`,
      body: () => ({ first: randomUUID(), second: randomUUID() }),
      alsoAllowed: [404],
    });
    const img = `${API_BASE}/images`;
    rows.push({ method: 'PUT', path: `${img}/{id}/edit`, rule: can.modify, needs: { category: victims, withImage: true }, url: (c) => `${img}/${imageIdOf(c)}/edit`, body: () => ({ caption: 'Access test caption' }) });
    rows.push({ method: 'DELETE', path: `${img}/{id}/delete`, rule: can.modify, needs: { category: victims, withImage: true }, url: (c) => `${img}/${imageIdOf(c)}/delete` });
    rows.push({ method: 'PUT', path: `${img}/{id}/graphic`, rule: can.modify, needs: { category: victims, withImage: true }, url: (c) => `${img}/${imageIdOf(c)}/graphic`, body: () => ({ graphic: true }) });
    rows.push({ method: 'GET', path: `${API_BASE}/trash`, rule: (a) => can.restore(a), url: () => `${API_BASE}/trash` });
    rows.push({ method: 'PUT', path: `${API_BASE}/trash/{id}/restore`, rule: (a) => can.restore(a), needs: { category: victims, trashed: true }, url: (c) => `${API_BASE}/trash/${c.record._id}/restore` });
    rows.push({ method: 'DELETE', path: `${API_BASE}/trash/{id}`, rule: (a) => can.purge(a), needs: { category: victims, trashed: true }, url: (c) => `${API_BASE}/trash/${c.record._id}` });
    for (const path of ['/audit', '/audit/verify', '/audit/export']) rows.push({ method: 'GET', path: `${API_BASE}${path}`, rule: (a) => can.readAudit(a), url: () => `${API_BASE}${path}` });
    rows.push({ method: 'POST', path: `${API_BASE}/audit/checkpoints`, rule: (a) => can.readAudit(a), url: () => `${API_BASE}/audit/checkpoints` });
    rows.push({ method: 'GET', path: `${API_BASE}/media/verify`, rule: (a) => can.readAudit(a), url: () => `${API_BASE}/media/verify` });
    rows.push({ method: 'GET', path: '/api/users/', rule: (a) => can.manageUsers(a), url: () => '/api/users/' });
    rows.push({ method: 'GET', path: '/api/users/me', rule: (a) => Boolean(a), url: () => '/api/users/me' });
    // A pending account manages its own sessions too (it can sign in).
    rows.push({ method: 'GET', path: '/api/users/sessions', rule: (a) => Boolean(a), url: () => '/api/users/sessions' });
    rows.push({ method: 'DELETE', path: '/api/users/sessions', rule: (a) => Boolean(a), url: () => '/api/users/sessions' });
    rows.push({ method: 'DELETE', path: '/api/users/sessions/{id}', rule: (a) => Boolean(a), url: () => `/api/users/sessions/${randomUUID()}`, alsoAllowed: [404] });
    // Two factors and step-up: every signed-in account (pending too) may enrol; wrong codes are told apart (400, 409).
    rows.push({ method: 'POST', path: '/api/users/2fa/totp', rule: (a) => Boolean(a), url: () => '/api/users/2fa/totp', alsoAllowed: [409] });
    rows.push({ method: 'POST', path: '/api/users/2fa/totp/confirm', rule: (a) => Boolean(a), url: () => '/api/users/2fa/totp/confirm', body: () => ({ code: '000000' }), alsoAllowed: [400, 409] });
    rows.push({ method: 'POST', path: '/api/users/step-up', rule: (a) => Boolean(a), url: () => '/api/users/step-up', body: () => ({ password: 'not the password' }), alsoAllowed: [400] });
    rows.push({
      method: 'POST',
      path: '/api/users/{id}/2fa/reset',
      rule: (a) => can.manageUsers(a),
      needs: { category: victims },
      url: (c) => `/api/users/${(c as Ctx & { spareUser: string }).spareUser}/2fa/reset`,
      body: () => ({ code: '000000' }),
      alsoAllowed: [400],
    });
    for (const path of ['/access-log', '/access-log/export.csv']) rows.push({ method: 'GET', path: `${API_BASE}${path}`, rule: (a) => can.readAudit(a), url: () => `${API_BASE}${path}` });
    rows.push({ method: 'GET', path: '/api/users/access-log', rule: (a) => Boolean(a), url: () => '/api/users/access-log' });
    rows.push({ method: 'GET', path: '/api/users/pending', rule: (a) => can.approveAccounts(a), url: () => '/api/users/pending' });
    for (const verb of ['approve', 'decline']) {
      // The spare account is a contributor, not pending: staff get as far as being told so (409).
      rows.push({
        method: 'POST',
        path: `/api/users/{id}/${verb}`,
        rule: (a) => can.approveAccounts(a),
        needs: { category: victims },
        url: (c) => `/api/users/${(c as Ctx & { spareUser: string }).spareUser}/${verb}`,
        alsoAllowed: [409],
      });
    }
    rows.push({
      method: 'POST',
      path: '/api/users/invite',
      rule: (a) => can.approveAccounts(a),
      url: () => '/api/users/invite',
      body: () => ({ email: `invitee-${randomUUID()}@example.test`, firstName: 'Test', lastName: 'Invitee' }),
    });
    rows.push({
      method: 'PUT',
      path: '/api/users/{id}/role',
      rule: (a) => can.manageUsers(a),
      needs: { category: victims },
      url: (c) => `/api/users/${(c as Ctx & { spareUser: string }).spareUser}/role`,
      body: () => ({ role: 'admin' }),
    });
    // Evidence packages: staff only (made-up ids: staff get as far as finding no such record).
    for (const category of CATEGORY_LIST) {
      const p = `${API_BASE}/${category.slug}/{id}/evidence-package`;
      const at = () => p.replace('{id}', randomUUID());
      rows.push({ method: 'GET', path: p, rule: staff, url: at, alsoAllowed: [404] });
      rows.push({ method: 'POST', path: `${p}/link`, rule: staff, url: () => `${at()}/link`, alsoAllowed: [404] });
    }
    rows.push({
      method: 'POST',
      path: `${API_BASE}/mirrors`,
      rule: staff,
      url: () => `${API_BASE}/mirrors`,
      body: () => ({ name: 'Access test mirror (test data)', url: `https://mirror-${randomUUID()}.example.test/`, fingerprint: 'a'.repeat(64) }),
    });
    rows.push({ method: 'DELETE', path: `${API_BASE}/mirrors/{id}`, rule: staff, url: () => `${API_BASE}/mirrors/${randomUUID()}`, alsoAllowed: [404] });
    // Testimony review: reviewers (admins unless withdrawn, supers). The first staff caller makes the intake key.
    const t7 = `${API_BASE}/testimonies`;
    const locked = (res: { status: number; body: any }) => res.status === 403 && /Unlock the intake key/.test(String(res.body?.message));
    const review = (method: WriteRoute['method'], path: string, url: () => string, body?: () => unknown, alsoAllowed: number[] = []) =>
      rows.push({ method, path: `${t7}${path}`, rule: staff, url, ...(body ? { body } : {}), alsoAllowed: [404, ...alsoAllowed], pastCheck: locked });
    review('GET', '', () => t7);
    review('GET', '/key', () => `${t7}/key`);
    review('POST', '/key', () => `${t7}/key`, () => ({ passphrase: 'access test passphrase, test data only' }), [409]);
    review('POST', '/unlock', () => `${t7}/unlock`, () => ({ passphrase: 'not the passphrase of anyone here' }), [400]);
    review('POST', '/lock', () => `${t7}/lock`);
    review('POST', '/key/share', () => `${t7}/key/share`, () => ({ userId: randomUUID(), passphrase: 'access test passphrase, test data only' }));
    review('GET', '/{id}', () => `${t7}/${randomUUID()}`);
    review('GET', '/{id}/files/{fileId}', () => `${t7}/${randomUUID()}/files/${randomUUID()}`);
    review('POST', '/{id}/messages', () => `${t7}/${randomUUID()}/messages`, () => ({ text: 'Access test question (test data)' }));
    review('PUT', '/{id}/status', () => `${t7}/${randomUUID()}/status`, () => ({ status: 'in-review' }));
    rows.push({
      method: 'PUT',
      path: '/api/users/{id}/reviewer',
      rule: (a) => can.manageUsers(a),
      needs: { category: victims },
      url: (c) => `/api/users/${(c as Ctx & { spareUser: string }).spareUser}/reviewer`,
      body: () => ({ reviewer: true }),
    });
    // Imports: every approved account imports (its own imports; staff's reach everyone's, in imports-*.test.ts).
    const im = `${API_BASE}/imports`;
    const importer = (method: WriteRoute['method'], path: string, url: () => string, body?: () => unknown, alsoAllowed: number[] = []) =>
      rows.push({ method, path: `${im}${path}`, rule: (a) => can.create(a), url, ...(body ? { body } : {}), alsoAllowed: [404, ...alsoAllowed] });
    importer('POST', '', () => im, undefined, [400, 415]);
    importer('GET', '', () => im);
    importer('GET', '/{id}', () => `${im}/${randomUUID()}`);
    importer('DELETE', '/{id}', () => `${im}/${randomUUID()}`);
    importer('GET', '/{id}/problems', () => `${im}/${randomUUID()}/problems`);
    importer('GET', '/{id}/problems.csv', () => `${im}/${randomUUID()}/problems.csv`);
    importer('GET', '/mappings', () => `${im}/mappings?category=${victims.slug}`);
    importer('POST', '/mappings', () => `${im}/mappings`, () => ({ category: victims.slug, name: `Access test mapping ${randomUUID()}`, mapping: {} }), [400]);
    importer('POST', '/{id}/commit', () => `${im}/${randomUUID()}/commit`, () => ({ duplicates: 'skip' }));
    importer('POST', '/{id}/cancel', () => `${im}/${randomUUID()}/cancel`);
    rows.push({ method: 'PUT', path: `${API_BASE}/representatives/{id}`, rule: (a) => can.manageDirectory(a), url: () => `${API_BASE}/representatives/${representativeId}`, body: () => ({ note: 'Access test note (test data)' }) });
    rows.push({
      method: 'PUT',
      path: `${API_BASE}/campaign/defaults/{country}`,
      rule: (a) => can.manageDirectory(a),
      url: () => `${API_BASE}/campaign/defaults/CA`,
      body: () => ({ message: 'Access test default letter, test data only, please ignore it.' }),
    });
    return rows;
  }

  let representativeId = '';
  const imageIdOf = (c: Ctx) => {
    const image = c.record.images?.[0];
    return image?._id ?? image?.imageId ?? 'missing-image';
  };

  /** Operations anyone may call: account and campaign forms, public reads. Listed so the coverage check knows them. */
  const PUBLIC_OPERATIONS = new Set([
    ...CATEGORY_LIST.flatMap((c) => [`GET ${API_BASE}/${c.slug}`, `GET ${API_BASE}/${c.slug}/{id}`]),
    ...CAPTURING.map((c) => `GET ${API_BASE}/${c.slug}/{id}/captures`),
    ...INCIDENT_CATEGORIES.map((slug) => `GET ${API_BASE}/${slug}/{id}/people`),
    `GET ${API_BASE}/export/incidents.csv`,
    `GET ${API_BASE}/export/people.csv`,
    `GET ${API_BASE}/captures/{captureId}/{file}`,
    `HEAD ${API_BASE}/captures/{captureId}/{file}`,
    `GET ${API_BASE}/news`,
    `GET ${API_BASE}/search`,
    `GET ${API_BASE}/incidents/suggest`,
    `GET ${API_BASE}/export.csv`,
    `GET ${API_BASE}/export.ndjson`,
    `GET ${API_BASE}/datapackage.json`,
    `GET ${API_BASE}/statistics`,
    `GET ${API_BASE}/statistics/points`,
    `GET ${API_BASE}/images`,
    `GET ${API_BASE}/images/{id}`,
    `GET ${API_BASE}/audit/checkpoints`,
    `GET ${API_BASE}/campaign/directory`,
    `GET ${API_BASE}/mirrors`,
    // A witness has no account: the challenge, the sending and the receipt's reading are open to all (testimony.test.ts).
    `GET ${API_BASE}/testimonies/challenge`,
    `POST ${API_BASE}/testimonies`,
    `POST ${API_BASE}/testimonies/receipt`,
    `GET ${API_BASE}/reports`,
    `POST ${API_BASE}/reports`,
    `GET ${API_BASE}/campaign/confirm/{token}`,
    `POST ${API_BASE}/campaign/confirm/{token}`,
    ...['signup', 'user/activation/{token}', 'resend-activation', 'signin', 'signin/2fa', 'forgotpassword', 'resetpassword/{token}'].map((p) => `POST /api/users/${p}`),
    'GET /api/users/signout',
  ]);

  it('covers every operation of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const guarded = new Set(writeRoutes().map((r) => `${r.method} ${r.path}`));
    const missing: string[] = [];
    for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(item)) {
        const key = `${method.toUpperCase()} ${path}`;
        if (!guarded.has(key) && !PUBLIC_OPERATIONS.has(key)) missing.push(key);
      }
    }
    expect(missing, 'operations with no row in the access matrix: add them to writeRoutes or PUBLIC_OPERATIONS').toEqual([]);
  });

  it('never shows private, unapproved-and-private or trashed records to those who may not read them, on any read path', async () => {
    const marker = () => `ACCESS-TEST-${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
    const massacres = CATEGORIES.massacres;
    const events = CATEGORIES.events;
    const victims = CATEGORIES.victims;
    type Probe = { state: string; category: CategoryDef; id: string; mark: string; imageUrls: string[]; readers: 'signed-in' | 'nobody' };
    const probes: Probe[] = [];
    const imageUrlsOf = (rec: any): string[] => JSON.stringify(rec).match(/\/media\/public\/[^"?\\]+(\?v=[^"\\]+)?/g) ?? [];

    for (const category of [massacres, events]) {
      const mark = marker();
      const rec = await createRecord(category, owner, { title: `${mark} private test record`, description: `${mark} test data` }, true);
      expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/${category.slug}/approve/${rec._id}`, headers: admin.auth })).status).toBe(200);
      const toggled = await call(t.app, { method: 'PUT', url: `${API_BASE}/${category.slug}/${rec._id}/access`, headers: admin.auth });
      expect(toggled.body.public).toBe(false);
      probes.push({ state: 'private', category, id: rec._id, mark, imageUrls: imageUrlsOf(toggled.body), readers: 'signed-in' });

      const mark2 = marker();
      const rec2 = await createRecord(category, owner, { title: `${mark2} unapproved private test record`, description: `${mark2} test data` }, true);
      const hidden = await call(t.app, { method: 'PUT', url: `${API_BASE}/${category.slug}/${rec2._id}/access`, headers: admin.auth });
      expect(hidden.body).toMatchObject({ public: false, approved: false });
      probes.push({ state: 'unapproved and private', category, id: rec2._id, mark: mark2, imageUrls: imageUrlsOf(hidden.body), readers: 'signed-in' });
    }
    for (const category of [victims, massacres]) {
      const mark = marker();
      const rec = await createRecord(category, owner, { title: `${mark} trashed test record`, description: `${mark} test data` }, true);
      const seen = await call(t.app, { method: 'GET', url: `${API_BASE}/${category.slug}/${rec._id}`, headers: admin.auth });
      expect((await del(category, rec._id)).status).toBe(200);
      probes.push({ state: 'trashed', category, id: rec._id, mark, imageUrls: imageUrlsOf(seen.body), readers: 'nobody' });
    }
    // A public record through the same paths: the probe must be able to see what is there.
    const controlMark = marker();
    // Dated after every other test record, so it is on the first page of lists sorted by date.
    const recent = Object.fromEntries(dataFields(victims).filter((f) => isDateKind(f.kind)).map((f) => [f.name, '2026-11-01T00:00:00']));
    const control = await createRecord(victims, owner, { ...recent, title: `${controlMark} public test record`, description: `${controlMark} test data` }, true);
    const controlUrls = imageUrlsOf(control);
    expect(controlUrls.length).toBeGreaterThan(0);

    const readPaths = (category: CategoryDef, id: string, mark: string) => [
      { name: 'list', url: `${API_BASE}/${category.slug}?limit=200`, api: true },
      { name: 'detail', url: `${API_BASE}/${category.slug}/${id}`, api: true },
      { name: 'news', url: `${API_BASE}/news?limit=200`, api: true },
      { name: 'gallery', url: `${API_BASE}/images?limit=200`, api: true },
      { name: 'feed', url: '/feed.xml', api: false },
      { name: 'list feed', url: `${category.route}/feed.xml`, api: false },
      { name: 'sitemap', url: '/sitemap.xml', api: false },
      { name: 'page with link preview', url: `${category.route}/${id}`, api: false },
      { name: 'list page', url: category.route, api: false },
      ...SEARCH_AND_EXPORT.map((p) => ({ name: p.name, url: p.url(category, id, mark), api: true })),
    ];

    const leaks: string[] = [];
    const misses: string[] = [];
    const read = async (url: string, headers: Record<string, string>) => {
      figures.readProbes++;
      // Anonymous exports are limited per address: each export probe comes from its own, so none is answered 429.
      const remoteAddress = url.includes('/export.') ? `198.18.${Math.floor(++exportCaller / 250)}.${exportCaller % 250}` : undefined;
      const res = await t.app.inject({ method: 'GET', url, headers: { ...headers, 'accept-encoding': 'identity' }, remoteAddress });
      if (url.includes('/export.') || url.includes('/search?') || url.includes('/suggest?')) expect(res.statusCode, url).toBe(200);
      return { status: res.statusCode, body: res.body };
    };

    for (const caller of callers) {
      const signedIn = caller.tokenValid;
      for (const probe of probes) {
        for (const path of readPaths(probe.category, probe.id, probe.mark)) {
          // Pages, feeds and the sitemap are what a browser or crawler gets (no Authorization header): anonymous.
          if (!path.api && signedIn) continue;
          const res = await read(path.url, caller.headers);
          expect(res.status, `${path.url} as ${caller.name}`).toBeLessThan(500);
          const shows = res.body.includes(probe.mark);
          const may = probe.readers === 'signed-in' && can.readPrivate(caller.actor);
          if (shows && !may) leaks.push(`${probe.state} ${probe.category.slug} shown by ${path.name} (${path.url}) to ${caller.name}`);
          if (!shows && may && (path.name === 'detail' || path.name === 'incident suggestions')) misses.push(`${probe.state} ${probe.category.slug} not shown by ${path.name} (${path.url}) to ${caller.name}: ${res.status} ${res.body.slice(0, 300)}`);
        }
        // Image copies: the plain URL (what an anonymous visitor could guess or keep) must not serve them, nor, once
        // the record is trashed, the links an admin was given before (access-control-links.test.ts has the rest).
        for (const url of probe.imageUrls) {
          const plain = url.split('?')[0]!;
          const res = await read(plain, caller.headers);
          const mayRead = probe.readers === 'signed-in' && can.readPrivate(caller.actor);
          if (res.status !== (mayRead ? 200 : 404)) leaks.push(`${probe.state} ${probe.category.slug} image ${plain} answered ${res.status} to ${caller.name}`);
          if (probe.readers === 'nobody' && url !== plain && (await read(url, caller.headers)).status !== 404) {
            leaks.push(`${probe.state} ${probe.category.slug} image's signed link ${url} still answered to ${caller.name}`);
          }
        }
      }
      for (const path of readPaths(victims, control._id, controlMark)) {
        if (!path.api && signedIn) continue;
        if (['news', 'gallery', 'list', 'detail', 'list feed', 'feed', 'search', 'CSV export', 'NDJSON export'].includes(path.name)) {
          const res = await read(path.url, caller.headers);
          if (!res.body.includes(controlMark)) misses.push(`public control record not shown by ${path.name} to ${caller.name}`);
        }
      }
      const image = await read(controlUrls[0]!.split('?')[0]!, caller.headers);
      if (image.status !== 200) misses.push(`public control image answered ${image.status} to ${caller.name}`);
    }
    console.log(
      `access: ${figures.readProbes} read probes of ${probes.length} hidden records (private, unapproved and private, trashed) over ${readPaths(victims, 'x', 'x').length} read paths and image URLs x ${callers.length} callers: ${leaks.length} leaks, ${misses.length} misses`,
    );
    expect(leaks).toEqual([]);
    expect(misses).toEqual([]);
  }, 300_000);
  it('answers every guarded route x caller as the permissions table says', async () => {
    representativeId = (await t.database.query<{ id: string }>('select id from representatives limit 1'))[0]!.id;
    const mismatches: string[] = [];
    const rows = writeRoutes();
    for (const row of rows) {
      for (const caller of callers) {
        let ctx = { record: { _id: 'none' }, category: CATEGORIES.victims } as Ctx & { spareUser?: string };
        if (row.needs) {
          const record = await createRecord(row.needs.category, owner, {}, row.needs.withImage);
          if (row.needs.trashed) expect((await del(row.needs.category, record._id)).status).toBe(200);
          ctx = { record, category: row.needs.category, spareUser: (await createUser(t.app, 'contributor')).id };
        }
        const body = row.body?.(ctx);
        const res = await call(t.app, {
          method: row.method,
          url: row.url(ctx),
          headers: caller.headers,
          ...(body !== undefined ? { payload: body as object } : {}),
        });
        figures.probes++;
        const allowed = caller.tokenValid && row.rule(caller.actor, { userId: owner.id });
        const expected = allowed ? '2xx' : caller.tokenValid ? '403' : '401';
        const got = (res.status >= 200 && res.status < 300) || row.alsoAllowed?.includes(res.status) || row.pastCheck?.(res) ? '2xx' : String(res.status);
        if (got !== expected) mismatches.push(`${row.method} ${row.path} as ${caller.name}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
    }
    console.log(`access: ${figures.probes} probes (${rows.length} guarded routes x ${callers.length} callers), ${mismatches.length} differ from the permissions table`);
    expect(mismatches).toEqual([]);
  }, 300_000);

});
