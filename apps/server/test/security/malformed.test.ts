import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { API_BASE, CATEGORY_LIST } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from '../helpers';
import { imageField, multipart, sampleFields, testImage } from '../records-helpers';
import { dbState, type DbState } from './db-state';

/**
 * Malformed requests generated from the OpenAPI document over every route and method, as every
 * role. The server must answer each with < 500, every refused API request with a JSON body that names the problem,
 * and a refused request must leave the database as it was (row counts of every table and the audit chain's head).
 *
 * FUZZ_REQUESTS sets the total (default 10,240, spread evenly over the operations); FUZZ_SEED replays a run.
 */
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 10_240);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  query: { name: string; schema: Schema }[];
  bodies: { type: string; schema: Schema }[];
}

const TRAVERSAL = [
  '../../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%252f..%252fetc%252fpasswd',
  '....//....//etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%00',
  'a%00.jpg',
  '..%c0%af..%c0%afetc%c0%afpasswd',
  '%ff%fe',
  '/etc/passwd',
  'jwt-secret',
  '..%2fjwt-secret',
  '..%2f..%2fpostgres-password',
  '.',
  '..',
  '%2e',
  '%',
  '%zz',
  '0',
  '-1',
  '99999999999999999999999999',
  'null',
  'undefined',
  '{}',
  '[]',
  "' or 1=1 --",
  '1;select pg_sleep(1)',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'x'.repeat(5000),
];

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u0000',
  '\uffff',
  '<script>alert(1)</script>',
  '{"$gt":""}',
  "'; drop table users; --",
  '%s%s%s%n',
  '${7*7}',
  '__proto__',
  'constructor',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '9'.repeat(400),
  '2021-02-30T25:61:61',
  '0000-00-00',
  '+275760-09-13T00:00:00.000Z',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  'a'.repeat(70_000),
];

const nastyString = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 4 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.constantFrom(...TRAVERSAL), weight: 1 },
);

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: nastyString, weight: 5 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.constantFrom(-1, 0, 1e308, -1e308, 2 ** 53 + 1, 0.5, -0), weight: 1 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }), weight: 1 },
);

/** A value that satisfies `schema` as far as a simple reading goes: the starting point the mutations break. */
function plausible(schema: Schema | undefined, ids: string[]): unknown {
  if (!schema || Object.keys(schema).length === 0) return 'Fuzz test data (not real)';
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.anyOf) return plausible(schema.anyOf.find((s: Schema) => s.type !== 'null') ?? schema.anyOf[0], ids);
  if (schema.oneOf) return plausible(schema.oneOf[0], ids);
  switch (schema.type) {
    case 'string':
      if (schema.format === 'email') return 'fuzz-test@example.test';
      if (schema.format === 'uuid') return ids[0];
      if (schema.format === 'date-time') return '2021-03-04T05:06:07.000Z';
      if (schema.format === 'uri') return 'https://example.org/fuzz-test';
      return 'Fuzz test data '.padEnd(Math.max(schema.minLength ?? 0, 15), 'x').slice(0, schema.maxLength ?? 1000);
    case 'number':
    case 'integer':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [plausible(schema.items, ids)];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) out[key] = plausible(sub, ids);
      return out;
    }
    default:
      return 'Fuzz test data (not real)';
  }
}

const EXTRA_KEYS = ['__proto__', 'constructor', 'prototype', '_id', 'id', 'userId', 'approved', 'public', 'role', 'deletedAt', 'tokenVersion', 'x'];

/** Serialises an object as JSON keeping keys such as `__proto__` as plain keys (an object literal would not). */
function jsonOf(entries: [string, unknown][]): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`;
}

/** One structural mutation of a plausible body: missing, wrong-typed and extra fields, or not an object at all. */
function mutatedBody(schema: Schema, ids: string[]): fc.Arbitrary<string> {
  const base = plausible(schema, ids);
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return nastyValue.map((v) => JSON.stringify(v) ?? 'null');
  const keys = Object.keys(base);
  const entries = Object.entries(base as Record<string, unknown>);
  const mutation = fc.oneof(
    keys.length ? fc.constantFrom(...keys).map((k) => jsonOf(entries.filter(([key]) => key !== k))) : fc.constant('{}'),
    keys.length
      ? fc.tuple(fc.constantFrom(...keys), nastyValue).map(([k, v]) => jsonOf(entries.map(([key, old]) => [key, key === k ? v : old])))
      : nastyValue.map((v) => JSON.stringify(v) ?? 'null'),
    fc.tuple(fc.constantFrom(...EXTRA_KEYS), nastyValue).map(([k, v]) => jsonOf([...entries, [k, v]])),
    fc.array(fc.tuple(fc.constantFrom(...keys, ...EXTRA_KEYS), nastyValue), { minLength: 1, maxLength: 5 }).map((pairs) => jsonOf([...entries, ...pairs])),
    nastyValue.map((v) => JSON.stringify(v) ?? 'null'),
  );
  return mutation;
}

/** Every byte percent-encoded, so lone surrogates and NUL reach the server as their UTF-8 bytes (or U+FFFD). */
function percentEncode(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

interface Payload {
  kind: string;
  contentType?: string;
  body?: string | Buffer;
}

const deepJson = fc.integer({ min: 500, max: 200_000 }).chain((depth) =>
  fc.constantFrom('[', '{"a":').map((open) => (open === '[' ? '['.repeat(depth) + ']'.repeat(depth) : open.repeat(depth) + '1' + '}'.repeat(depth))),
);

const rawPayloads: fc.Arbitrary<Payload> = fc.oneof(
  { arbitrary: fc.constant<Payload>({ kind: 'none' }), weight: 2 },
  { arbitrary: fc.constant<Payload>({ kind: 'empty json', contentType: 'application/json', body: '' }), weight: 1 },
  { arbitrary: deepJson.map<Payload>((body) => ({ kind: 'deep json', contentType: 'application/json', body })), weight: 1 },
  {
    // Over the 1 MB body limit, and just under it (a huge string that the schema's length limits must refuse).
    arbitrary: fc.constantFrom(1024 * 1024 + 10, 1000 * 1000).map<Payload>((n) => ({ kind: 'huge json', contentType: 'application/json', body: `{"title":"${'A'.repeat(n)}","description":"x"}` })),
    weight: 1,
  },
  {
    // Invalid UTF-8 (lone continuation bytes, an overlong slash, an encoded surrogate), NUL characters and NUL bytes.
    arbitrary: fc
      .constantFrom(
        Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
        Buffer.from('{"title":"\\u0000","description":"a\\u0000b"}'),
        Buffer.from([0, 0, 0, 0]),
      )
      .map<Payload>((body) => ({ kind: 'bad bytes', contentType: 'application/json', body })),
    weight: 1,
  },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=nope', 'application/json; charset=utf-16', 'application/json; charset=nonsense', 'image/png', ';;;', 'application/*', 'a'.repeat(2000)),
        fc.constantFrom('{"title":"x"}', 'title=x&title=y&__proto__[x]=1', '--nope\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n--nope--', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', '\u0000\u0000'),
      )
      .map<Payload>(([contentType, body]) => ({ kind: 'wrong content type', contentType, body })),
    weight: 2,
  },
);

function queryArb(op: Operation): fc.Arbitrary<string> {
  const declared = op.query.map((q) => q.name);
  const names = [...declared, 'limit', 'offset', 'cursor', 'x', '__proto__', 'limit[]', 'limit[$gt]', 'a'.repeat(300)];
  const pair = fc.tuple(fc.constantFrom(...names), fc.oneof(nastyValue.map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '')), fc.constantFrom('-1', '0', '1e9', '1.5', '99999999999999999999', 'Infinity', '', 'true', '%', '%zz', '%00')));
  return fc.oneof(
    { arbitrary: fc.constant(''), weight: 2 },
    {
      arbitrary: fc.array(pair, { minLength: 1, maxLength: 6 }).map((pairs) =>
        pairs.map(([k, v]) => (v.startsWith('%') ? `${percentEncode(k)}=${v}` : `${percentEncode(k)}=${percentEncode(v)}`)).join('&'),
      ),
      weight: 4,
    },
    // Duplicates of one declared parameter, and a query far over any sensible length.
    { arbitrary: fc.constantFrom(...(declared.length ? declared : ['limit'])).map((k) => `${k}=1&${k}=2&${k}=abc`), weight: 1 },
    { arbitrary: fc.constant(`limit=${'9'.repeat(5000)}&${'x=1&'.repeat(1000)}`), weight: 1 },
  );
}

describe('malformed requests over every OpenAPI route: no 5xx, refusals in JSON, nothing changed', () => {
  let t: TestApp;
  let operations: Operation[];
  const auth: Record<string, Record<string, string>> = { anonymous: {} };
  let ids: string[] = [];
  const figures = { requests: 0, answers5xx: 0, byStatus: new Map<number, number>(), refused: 0, accepted: 0 };

  beforeAll(async () => {
    t = await createTestApp();
    for (const role of ['contributor', 'admin', 'super'] as const) auth[role] = (await createUser(t.app, role)).auth;
    // Ids that exist, so generated requests reach the handlers past the "not found" checks: a record of every
    // category (with an image where it takes one), a gallery image, a spare user, a representative.
    const owner = await createUser(t.app, 'contributor');
    for (const category of CATEGORY_LIST) {
      const field = imageField(category);
      const files = field ? [{ field, filename: 'fuzz.png', type: 'image/png', data: await testImage(ids.length) }] : [];
      const body = multipart(sampleFields(category, 'Fuzz'), files);
      const res = await call(t.app, { method: 'POST', url: `${API_BASE}/${category.slug}`, headers: { ...owner.auth, ...body.headers }, payload: body.payload });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body._id);
      for (const image of res.body.images ?? []) if (image?._id) ids.push(image._id);
    }
    const spare = await createUser(t.app, 'contributor');
    ids.push(spare.id);
    const reps = await t.database.query<{ id: string }>('select id from representatives limit 2');
    ids.push(...reps.map((r) => r.id));
    const gallery = await t.database.query<{ id: string }>('select id from media limit 3');
    ids.push(...gallery.map((r) => r.id));
    ids = [...new Set(ids)];

    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    operations = [];
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (!['get', 'head', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const params: any[] = op.parameters ?? [];
        operations.push({
          method: method.toUpperCase(),
          path,
          pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
          query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
          bodies: Object.entries<any>(op.requestBody?.content ?? {}).map(([type, c]) => ({ type, schema: c.schema ?? {} })),
        });
      }
    }
    // Read paths outside the API document that take a name from the URL.
    for (const path of ['/media/public/{name}', '/sitemap.xml', '/feed.xml', '/massacres/feed.xml', '/victims/{id}', '/massacres/{id}']) {
      operations.push({ method: 'GET', path, pathParams: path.includes('{') ? [path.includes('{name}') ? 'name' : 'id'] : [], query: [], bodies: [] });
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  function requestArb(op: Operation): fc.Arbitrary<InjectOptions & { role: string; kind: string }> {
    const pathValue = fc.oneof(
      { arbitrary: fc.constantFrom(...ids), weight: 3 },
      { arbitrary: fc.uuid(), weight: 1 },
      { arbitrary: fc.constantFrom(...TRAVERSAL), weight: 3 },
      { arbitrary: nastyString.map(percentEncode), weight: 2 },
    );
    const params = fc.tuple(...op.pathParams.map(() => pathValue));
    const bodyArb: fc.Arbitrary<Payload> = op.bodies.length
      ? fc.oneof(
          {
            arbitrary: fc.constantFrom(...op.bodies).chain((b) =>
              b.type === 'multipart/form-data'
                ? fc
                    .tuple(mutatedBody(b.schema, ids), fc.option(fc.tuple(fc.constantFrom('image', 'files[]', 'files', 'x'), fc.constantFrom('../../x.jpg', 'a\u0000.png', 'pic.jpg', '', '%00.png'), fc.uint8Array({ maxLength: 64 }))))
                    .map<Payload>(([json, file]) => {
                      let fields: Record<string, string> = {};
                      try {
                        const parsed = JSON.parse(json);
                        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
                          for (const [k, v] of Object.entries(parsed)) fields[k] = typeof v === 'string' ? v : JSON.stringify(v);
                        } else fields = { title: json };
                      } catch {
                        fields = { title: json };
                      }
                      const files = file ? [{ field: file[0], filename: file[1], type: 'image/jpeg', data: Buffer.from(file[2]) }] : [];
                      const m = multipart(fields, files);
                      return { kind: 'multipart', contentType: m.headers['content-type'], body: m.payload };
                    })
                : mutatedBody(b.schema, ids).map<Payload>((body) => ({ kind: 'json', contentType: 'application/json', body })),
            ),
            weight: 6,
          },
          { arbitrary: rawPayloads, weight: 4 },
        )
      : fc.oneof({ arbitrary: fc.constant<Payload>({ kind: 'none' }), weight: 3 }, { arbitrary: rawPayloads, weight: 1 });
    return fc
      .record({
        role: fc.oneof({ arbitrary: fc.constantFrom('anonymous', 'contributor', 'admin', 'super'), weight: 12 }, { arbitrary: fc.constantFrom('garbage', 'huge'), weight: 1 }),
        params,
        query: op.method === 'GET' || op.query.length ? queryArb(op) : fc.constantFrom('', 'x=1&x=2'),
        payload: bodyArb,
        ip: fc.ipV4(),
      })
      .map(({ role, params: values, query, payload, ip }) => {
        let url = op.path;
        op.pathParams.forEach((name, i) => (url = url.replace(`{${name}}`, values[i]!)));
        if (query) url += `?${query}`;
        const headers: Record<string, string> =
          role === 'garbage' ? { authorization: 'Bearer not.a.token' } : role === 'huge' ? { authorization: `Bearer ${'a'.repeat(8000)}.b.c` } : { ...auth[role] };
        if (payload.contentType) headers['content-type'] = payload.contentType;
        return { method: op.method as InjectOptions['method'], url, headers, payload: payload.body, remoteAddress: ip, role, kind: payload.kind };
      });
  }

  it(`answers ${TOTAL.toLocaleString('en')} generated requests without a 5xx, refusals in JSON, nothing changed by a refusal`, async () => {
    const perOperation = Math.max(1, Math.ceil(TOTAL / operations.length));
    let state: DbState = await dbState(t.database);
    const started = Date.now();
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(requestArb(op), async ({ role, kind, ...request }) => {
          const res = await t.app.inject(request);
          figures.requests++;
          figures.byStatus.set(res.statusCode, (figures.byStatus.get(res.statusCode) ?? 0) + 1);
          const what = `${request.method} ${String(request.url).slice(0, 200)} as ${role} (${kind}) -> ${res.statusCode} ${res.body.slice(0, 300)}`;
          if (res.statusCode >= 500) figures.answers5xx++;
          expect(res.statusCode, what).toBeLessThan(500);
          const after = await dbState(t.database);
          if (res.statusCode >= 400) {
            figures.refused++;
            expect(after, `a refused request changed the database: ${what}`).toEqual(state);
            // Dot segments are resolved before routing (as any HTTP client does), so "/api/x/../../etc" is a page address.
            const resolved = new URL(request.url as string, 'http://localhost').pathname;
            if (resolved.startsWith('/api/') && request.method !== 'HEAD') {
              expect(res.headers['content-type'], what).toMatch(/application\/json/);
              const body = res.json();
              expect(typeof body === 'object' && body !== null && Object.values(body).some((v) => typeof v === 'string' && v.trim().length > 0), `no named problem: ${what}`).toBe(true);
            }
          } else {
            figures.accepted++;
            if (request.method === 'GET' || request.method === 'HEAD') expect(after, `a read changed the database: ${what}`).toEqual(state);
          }
          state = after;
        }),
        { numRuns: perOperation, seed: SEED, endOnFailure: true },
      );
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const statuses = [...figures.byStatus.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`).join(' ');
    console.log(
      `malformed: ${figures.requests} requests over ${operations.length} operations x 4 roles in ${seconds} s, ${figures.answers5xx} answers >= 500, ${figures.refused} refused (JSON body, database unchanged), ${figures.accepted} accepted; statuses ${statuses}`,
    );
    expect(figures.requests).toBeGreaterThanOrEqual(TOTAL);
    expect(figures.answers5xx).toBe(0);
  }, 900_000);
});
