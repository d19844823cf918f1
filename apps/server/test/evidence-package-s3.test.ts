import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { S3Storage } from '../src/modules/media/storage';
import { verifyPackage } from '../src/modules/evidence-package/verify';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { multipart, testImage } from './records-helpers';
import { startS3Server } from './s3-server';

/** STORAGE=s3: a record's evidence package streams its originals and copies from the bucket, and verifies. Test data. */

let s3: Awaited<ReturnType<typeof startS3Server>>;
let t: TestApp;
let dir: string;

beforeAll(async () => {
  s3 = await startS3Server(['package-test']);
  t = await createTestApp(s3.env('package-test'));
  dir = mkdtempSync(path.join(os.tmpdir(), 'evidence-package-s3-'));
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('packages originals and public copies read from S3', async () => {
  expect(t.app.media.storage).toBeInstanceOf(S3Storage);
  const admin = await createUser(t.app, 'admin');
  const body = multipart({ title: 'Test S3 package massacre (test data)', description: 'Test data.' }, [
    { field: 'files[]', filename: 'a.png', type: 'image/png', data: await testImage(1) },
    { field: 'files[]', filename: 'b.png', type: 'image/png', data: await testImage(2) },
  ]);
  const made = await call(t.app, { method: 'POST', url: `${API_BASE}/massacres`, headers: { ...admin.auth, ...body.headers }, payload: body.payload });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const res = await t.app.inject({ method: 'GET', url: `${API_BASE}/massacres/${made.body._id}/evidence-package`, headers: admin.auth });
  expect(res.statusCode).toBe(200);
  const file = path.join(dir, 'package.zip');
  writeFileSync(file, res.rawPayload);
  const report = await verifyPackage(file, { publicKeyPem: t.app.auditSigner.publicKeyPem, capturePublicKeyPem: null });
  expect(report.checks.filter((c) => !c.ok)).toEqual([]);
  expect(report.checks.map((c) => c.what).join('\n')).toMatch(/originals: all 2 are the files as uploaded/);
});
