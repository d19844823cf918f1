import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { records } from '../src/db/schema';
import { S3Storage } from '../src/modules/media/storage';
import { runMediaVerify } from '../src/modules/media/verify-command';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { startS3Server } from './s3-server';

/** STORAGE=s3: uploads go to the bucket, and the app still serves the public copies at /media/public/. */

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
let s3: Awaited<ReturnType<typeof startS3Server>>;
let t: TestApp;

beforeAll(async () => {
  s3 = await startS3Server(['media-test']);
  t = await createTestApp(s3.env('media-test'));
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

it('stores originals and copies in the bucket and serves the copies through the app, with ranges', async () => {
  expect(t.app.media.storage).toBeInstanceOf(S3Storage);
  const admin = await createUser(t.app, 'admin');
  const [record] = await t.app.db.insert(records).values({ category: 'victims', title: 'Sample S3 test', userId: admin.id }).returning();
  const photo = await sharp({ create: { width: 700, height: 500, channels: 3, background: '#335577' } })
    .jpeg()
    .withExif({ IFD0: { Model: 'S3 Test Phone' } })
    .toBuffer();
  const row = await t.app.media.ingest(
    { field: 'image', filename: 'p.jpg', mimetype: 'image/jpeg', stream: Readable.from([photo]) },
    { recordId: record!.id, role: 'cover', position: 0, uploadedBy: admin.id, accept: 'image' },
  );
  // Nothing under the local media folder: it all went to the bucket.
  expect(existsSync(path.join(t.dataDir, 'media'))).toBe(false);
  const original = Buffer.concat(await (await t.app.media.storage.get(row.storageKey)).toArray());
  expect(sha256(original)).toBe(sha256(photo));

  const url = t.app.media.toDto(row).imageUrl;
  const full = await t.app.inject({ method: 'GET', url });
  expect(full.statusCode).toBe(200);
  expect(full.headers['content-type']).toBe('image/jpeg');
  expect((await sharp(full.rawPayload).metadata()).exif).toBeUndefined();
  const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-199' } });
  expect(part.statusCode).toBe(206);
  expect(part.headers['content-range']).toBe(`bytes 100-199/${full.rawPayload.length}`);
  expect(part.rawPayload.equals(full.rawPayload.subarray(100, 200))).toBe(true);
  expect((await t.app.inject({ method: 'GET', url: url.replace(/[a-f0-9]{64}/, 'b'.repeat(64)) })).statusCode).toBe(404);

  const verify = await call(t.app, { method: 'GET', url: `${API_BASE}/media/verify`, headers: admin.auth });
  expect(verify.body).toMatchObject({ checked: 1, ok: 1, missing: [], mismatched: [] });
  await t.app.media.storage.put(row.storageKey, Buffer.from('changed in the bucket'), 'image/jpeg');
  const lines: string[] = [];
  expect(await runMediaVerify(t.config, t.database, (l) => lines.push(l))).toBe(1);
  expect(lines.join('\n')).toContain(`CHANGED   media ${row.id}`);
});
