import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, getCategory } from '@app/shared';
import { findFfmpeg } from '../src/modules/media/video';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { multipart, sampleFields } from './records-helpers';

/** Content changes reach the public cache through one event, and clear what they make stale, no more. */
describe('content changes and the public cache', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUser>>;
  const work = mkdtempSync(path.join(os.tmpdir(), 'content-changes-'));

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t.app, 'admin');
  });
  afterAll(async () => {
    await t.close();
    rmSync(work, { recursive: true, force: true });
  });

  const anonymous = async (url: string) => (await call(t.app, { method: 'GET', url })).body;

  it.runIf(findFfmpeg() !== null)('a video processed in the background is shown ready to anonymous readers at once', async () => {
    const file = path.join(work, 'sample.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=32x32:rate=5', '-pix_fmt', 'yuv420p', file]);
    const { videoUrl: _none, ...fields } = sampleFields(getCategory('videos')!, 'Content-change test');
    const body = multipart(fields, [{ field: 'image', filename: 'sample.mp4', type: 'video/mp4', data: readFileSync(file) }]);
    const created = await call(t.app, { method: 'POST', url: `${API_BASE}/videos`, headers: { ...admin.auth, ...body.headers }, payload: body.payload });
    expect(created.status).toBe(201);
    const url = `${API_BASE}/videos/${created.body._id}`;
    // Read (and cached) while the job waits.
    expect((await anonymous(url)).images[0].status).toBe('queued');
    expect((await anonymous(url)).images[0].status).toBe('queued');
    expect(await t.app.jobs.drain()).toBeGreaterThanOrEqual(1);
    const after = await anonymous(url);
    expect(after.images[0].status).toBe('ready');
    expect(after.images[0].imageUrl).toMatch(/^\/media\/public\/[a-f0-9]{64}\.mp4$/);
  });

  it('a delivered letter clears the reports and keeps every other entry', async () => {
    await anonymous(`${API_BASE}/massacres`);
    await anonymous(`${API_BASE}/reports`);
    await anonymous(`${API_BASE}/reports?limit=5`);
    const before = t.app.publicCache.stats();
    t.app.contentChanged({ area: 'reports' });
    expect(t.app.publicCache.stats().entries).toBe(before.entries - 2);
    await anonymous(`${API_BASE}/massacres`);
    expect(t.app.publicCache.stats().hits).toBe(before.hits + 1);

    t.app.contentChanged({ area: 'records', category: 'massacres' });
    expect(t.app.publicCache.stats().entries).toBe(0);
  });
});
