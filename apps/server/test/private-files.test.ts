import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { API_BASE, CATEGORY_LIST } from '@app/shared';
import { LocalStorage } from '../src/modules/media/storage';
import { stageUpload } from '../src/modules/media/upload-staging';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { imageField, multipart, sampleFields, testImage } from './records-helpers';

/**
 * What the public never reads directly - originals (with their GPS data), staging, captures, keys, the outbox - is
 * the site's user's alone: files 0600 in folders 0700 (issue 51 item 6); the public copies stay readable.
 */

const category = CATEGORY_LIST.find((c) => imageField(c) === 'image')!;
const folders: string[] = [];
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const modeOf = (file: string) => statSync(file).mode & 0o777;
function tempFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'private-files-'));
  folders.push(dir);
  return dir;
}
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
const foldersUnder = (dir: string) => [
  dir,
  ...readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => path.join(e.parentPath, e.name)),
];

it('an uploaded original is 0600 in folders 0700; its public copies are 0644', async () => {
  const dataDir = tempFolder();
  t = await createTestApp({ DATA_DIR: dataDir });
  const admin = await createUser(t.app, 'admin');
  // /ready first: its check of the staging folder makes the folder when it is not there yet.
  expect((await call(t.app, { method: 'GET', url: '/ready' })).status).toBe(200);
  const body = multipart(sampleFields(category, 'Modes'), [{ field: 'image', filename: 'photo.png', type: 'image/png', data: await testImage(9) }]);
  const res = await call(t.app, { method: 'POST', url: `${API_BASE}/${category.slug}`, headers: { ...admin.auth, ...body.headers }, payload: body.payload });
  expect(res.status).toBe(201);

  const originals = path.join(dataDir, 'media', 'originals');
  expect(filesUnder(originals)).toHaveLength(1);
  for (const file of filesUnder(originals)) expect(modeOf(file).toString(8)).toBe('600');
  for (const folder of foldersUnder(originals)) expect(modeOf(folder).toString(8)).toBe('700');
  expect(modeOf(path.join(dataDir, 'tmp', 'uploads')).toString(8)).toBe('700');
  expect(modeOf(path.join(dataDir, 'tmp')).toString(8)).toBe('700');
  const copies = filesUnder(path.join(dataDir, 'media', 'public'));
  expect(copies.length).toBeGreaterThan(0);
  for (const file of copies) expect(modeOf(file).toString(8)).toBe('644');
  // The copies are still served to anyone.
  const key = path.relative(path.join(dataDir, 'media'), copies[0]!).split(path.sep).join('/');
  expect((await call(t.app, { method: 'GET', url: `/media/${key}` })).status).toBe(200);
});

it('a staged upload is 0600, and a capture stored locally is 0600 in folders 0700', async () => {
  const dir = tempFolder();
  const staged = await stageUpload(
    { field: 'image', filename: 'photo.png', mimetype: 'image/png', stream: Readable.from([await testImage(2)]) },
    'image',
    path.join(dir, 'staged.upload'),
    { maxImageBytes: 1024 * 1024, maxVideoBytes: 1024 * 1024 },
  );
  expect(modeOf(staged.path).toString(8)).toBe('600');

  const storage = new LocalStorage(path.join(dir, 'media'));
  const capture = 'originals/captures/ab/abcdef00-0000-4000-8000-000000000000/snapshot.mhtml';
  await storage.put(capture, Buffer.from('a capture (test)'));
  expect(modeOf(path.join(dir, 'media', capture)).toString(8)).toBe('600');
  for (const folder of foldersUnder(path.join(dir, 'media', 'originals'))) expect(modeOf(folder).toString(8)).toBe('700');
  // The media folder itself is made as before: only originals/ is closed.
  expect(modeOf(path.join(dir, 'media')).toString(8)).toBe('755');
});

it('at start, the folders and keys an earlier version left open are closed to other users', async () => {
  const dataDir = tempFolder();
  chmodSync(dataDir, 0o755);
  for (const folder of ['media/originals/ab', 'media/public', 'tmp/uploads', 'outbox']) mkdirSync(path.join(dataDir, folder), { recursive: true, mode: 0o755 });
  for (const key of ['jwt-secret', 'postgres-password']) writeFileSync(path.join(dataDir, key), 'a key (test)\n', { mode: 0o644 });
  t = await createTestApp({ DATA_DIR: dataDir });
  await t.app.ready();
  for (const folder of ['media/originals', 'tmp', 'tmp/uploads', 'outbox']) expect(modeOf(path.join(dataDir, folder)).toString(8), folder).toBe('700');
  for (const key of ['jwt-secret', 'postgres-password']) expect(modeOf(path.join(dataDir, key)).toString(8), key).toBe('600');
  expect(modeOf(path.join(dataDir, 'media', 'public')).toString(8)).toBe('755');
  // The data folder: no one else lists it; the embedded PostgreSQL server, run as `postgres` when the site runs as
  // root, must still pass through it to its own folder.
  const embeddedAsOtherUser = !t.config.DATABASE_URL && process.getuid?.() === 0;
  expect(modeOf(dataDir).toString(8)).toBe(embeddedAsOtherUser ? '711' : '700');
});
