import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_BASE, CATEGORY_LIST } from '@app/shared';
import { AppError } from '../src/errors';
import { asClientError } from '../src/modules/records/body';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { imageField, multipart, sampleFields, testImage } from './records-helpers';

/**
 * A file store that refuses writes (a read-only or broken media folder): an upload is answered 503 with Retry-After,
 * as an outage the client may retry, never 400 "The form data is malformed", and the cause is logged with the
 * request's id.
 */

let t: TestApp;
const lines: Record<string, unknown>[] = [];
const category = CATEGORY_LIST.find((c) => imageField(c) === 'image')!;
const asRoot = process.getuid?.() === 0;

beforeAll(async () => {
  t = await createTestApp({}, { logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } } });
});
afterAll(async () => t?.close());

/**
 * Makes the media folder refuse the public copies: read-only, as an operator's mount would be. Root writes into a
 * read-only folder all the same, so as root (these tests often run so) `public` becomes a file where the folder
 * should be: the write fails as well (EEXIST from mkdir instead of EACCES). Returns how to undo it.
 */
function breakMediaFolder(): () => void {
  const publicDir = path.join(t.dataDir, 'media', 'public');
  if (asRoot) {
    rmSync(publicDir, { recursive: true, force: true });
    mkdirSync(path.dirname(publicDir), { recursive: true });
    writeFileSync(publicDir, 'a file where the folder should be (test)');
    return () => rmSync(publicDir, { force: true });
  }
  mkdirSync(publicDir, { recursive: true });
  chmodSync(publicDir, 0o555);
  return () => chmodSync(publicDir, 0o755);
}

async function upload(token: Record<string, string>, label: string) {
  const body = multipart(sampleFields(category, label), [{ field: 'image', filename: 'photo.png', type: 'image/png', data: await testImage(7) }]);
  return call(t.app, { method: 'POST', url: `${API_BASE}/${category.slug}`, headers: { ...token, ...body.headers }, payload: body.payload });
}

it('an upload to a store that refuses the write is a 503 with Retry-After, logged with its cause and request id', async () => {
  const admin = await createUser(t.app, 'admin');
  const repair = breakMediaFolder();
  let res: Awaited<ReturnType<typeof upload>>;
  try {
    res = await upload(admin.auth, 'Refused by storage (test)');
  } finally {
    repair();
  }
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('30');
  expect(res.body.message).toMatch(/^Files cannot be stored at the moment; nothing was changed/);
  const requestId = res.headers['x-request-id'];
  expect(requestId).toBeTruthy();
  const logged = lines.find((l) => l.reqId === requestId && l.level === 50);
  expect(logged, JSON.stringify(lines)).toBeDefined();
  expect((logged!.err as { code?: string }).code).toMatch(asRoot ? /^(EEXIST|ENOTDIR)$/ : /^EACCES$/);
  // Nothing was kept: the record's transaction was rolled back.
  const list = await call(t.app, { method: 'GET', url: `${API_BASE}/${category.slug}?q=${encodeURIComponent('Refused by storage')}`, headers: admin.auth });
  expect(JSON.stringify(list.body)).not.toContain('Refused by storage (test)');

  // Repaired, the same upload is stored.
  expect((await upload(admin.auth, 'Stored after the repair (test)')).status).toBe(201);
});

it('a failed write of a file is never read as a malformed form (its temporary name ends in .part)', () => {
  const refused = Object.assign(new Error("EACCES: permission denied, open '/data/media/public/ab.webp.123.1700000000000.part'"), {
    code: 'EACCES',
    errno: -13,
    syscall: 'open',
  });
  const answer = asClientError(refused);
  expect(answer).toBeInstanceOf(AppError);
  expect((answer as AppError).statusCode).toBe(503);
  expect((answer as AppError).headers['retry-after']).toBe('30');
  expect((answer as AppError).cause).toBe(refused);
  // A form that is broken still is one.
  expect((asClientError(new Error('Unexpected end of form')) as AppError).statusCode).toBe(400);
  // A client's connection dropping mid-upload is not the store's failure either.
  const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' });
  expect(asClientError(reset)).toBe(reset);
});
