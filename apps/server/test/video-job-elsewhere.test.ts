import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_BASE, getCategory } from '@app/shared';
import { findFfmpeg } from '../src/modules/media/video';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { multipart, sampleFields } from './records-helpers';

/**
 * A video job is run by whichever process claims it: often a worker or another server, whose data folder has never
 * staged an upload. Here the staging folder is removed between the upload and the job, as it is missing there.
 */
let t: TestApp;
const work = mkdtempSync(path.join(os.tmpdir(), 'video-elsewhere-'));
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

it.runIf(findFfmpeg() !== null)('processes a video in a process whose staging folder does not exist yet', async () => {
  const admin = await createUser(t.app, 'admin');
  const file = path.join(work, 'clip.mp4');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=32x32:rate=5', '-pix_fmt', 'yuv420p', file]);
  const { videoUrl: _none, ...fields } = sampleFields(getCategory('videos')!, 'Video elsewhere test');
  const body = multipart(fields, [{ field: 'image', filename: 'clip.mp4', type: 'video/mp4', data: readFileSync(file) }]);
  const created = await call(t.app, { method: 'POST', url: `${API_BASE}/videos`, headers: { ...admin.auth, ...body.headers }, payload: body.payload });
  expect(created.status).toBe(201);
  rmSync(path.join(t.dataDir, 'tmp'), { recursive: true, force: true });
  expect(await t.app.jobs.drain()).toBe(1);
  const after = (await call(t.app, { method: 'GET', url: `${API_BASE}/videos/${created.body._id}` })).body;
  expect(after.images[0].status).toBe('ready');
  expect(after.images[0].imageUrl).toMatch(/\.mp4$/);
});
