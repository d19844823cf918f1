import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_BASE, CATEGORY_LIST, dataFields, isDateKind, type CategoryDef } from '@app/shared';
import { call } from './helpers';
import { useTestApp, type User } from './fixtures/app';
import { imageField, multipart, sampleFields, testImage } from './records-helpers';

describe('records API, every category', () => {
  const { t, owner, other, admin, superUser } = useTestApp({ owner: 'contributor', other: 'contributor', admin: 'admin', superUser: 'super' });
  let seed = 1;

  const url = (path: string) => `${API_BASE}${path}`;

  async function createMultipart(category: CategoryDef, user: User, overrides: Record<string, string> = {}) {
    const field = imageField(category);
    const files = field ? [{ field, filename: 'sample.png', type: 'image/png', data: await testImage(seed++) }] : [];
    const body = multipart({ ...sampleFields(category), ...overrides }, files);
    return call(t.app, { method: 'POST', url: url(`/${category.slug}`), headers: { ...user.auth, ...body.headers }, payload: body.payload });
  }

  async function auditFor(recordId: string) {
    return t.database.query<{ action: string; actor_id: string; changes: Record<string, { before: unknown; after: unknown }> }>(
      'select action, actor_id, changes from audit_log where record_id = $1 order by seq',
      [recordId],
    );
  }

  for (const category of CATEGORY_LIST) {
    describe(category.slug, () => {
      it('creates (multipart and JSON), lists with count and links, reads one, edits, trashes and restores', async () => {
        const created = await createMultipart(category, owner);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const record = created.body;
        expect(record._id).toMatch(/^[0-9a-f-]{36}$/);
        expect(record.category).toBe(category.slug);
        expect(record.userId).toBe(owner.id);
        expect(record.approved).toBe(false);
        expect(record.public).toBe(true);
        expect(record).not.toHaveProperty('deletedAt');
        const sample = sampleFields(category);
        for (const field of dataFields(category)) {
          const sent = sample[field.name]!;
          if (isDateKind(field.kind)) expect(record[field.name]).toBe(new Date(`${sent}Z`).toISOString());
          else if (field.kind === 'quantity' || field.kind === 'coordinate') expect(record[field.name]).toBe(Number(sent));
          else if (field.kind === 'sources') expect(record[field.name]).toEqual(JSON.parse(sent));
          else if (field.kind === 'incident') expect(record[field.name]).toBeNull();
          else expect(record[field.name]).toBe(sent);
        }
        if (imageField(category)) {
          expect(record.images).toHaveLength(1);
          expect(record.imageUrl).toBe(record.images[0].imageUrl);
          expect(record.imageUrl.length).toBeGreaterThan(1);
        } else {
          expect(record.images).toEqual([]);
          expect(record.imageUrl).toBe('');
        }

        // JSON create; createdAt defaults to now.
        const before = Date.now();
        const json = await call(t.app, {
          method: 'POST',
          url: url(`/${category.slug}`),
          headers: owner.auth,
          payload: { ...sampleFields(category, 'Json'), createdAt: '' },
        });
        expect(json.status).toBe(201);
        expect(new Date(json.body.createdAt).getTime()).toBeGreaterThanOrEqual(before - 1000);

        // List: newest first (JSON record has the newer createdAt), total header, Link pages.
        const list = await call(t.app, { method: 'GET', url: url(`/${category.slug}?limit=1`) });
        expect(list.status).toBe(200);
        expect(list.headers['x-total-count']).toBe('2');
        expect(list.body).toHaveLength(1);
        expect(list.body[0]._id).toBe(json.body._id);
        expect(list.headers.link).toContain('rel="next"');
        expect(list.headers.link).toContain('offset=1');
        expect(list.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
        const second = await call(t.app, { method: 'GET', url: url(`/${category.slug}?limit=1&offset=1`) });
        expect(second.body[0]._id).toBe(record._id);
        expect(second.headers.link).toContain('rel="prev"');
        expect(second.headers.link).not.toContain('rel="next"');
        // Keyset paging from the cursor of the first page.
        const byCursor = await call(t.app, {
          method: 'GET',
          url: url(`/${category.slug}?limit=1&cursor=${list.headers['x-next-cursor']}`),
        });
        expect(byCursor.body.map((r: { _id: string }) => r._id)).toEqual([record._id]);

        // One record, with a validator the client can send back.
        const one = await call(t.app, { method: 'GET', url: url(`/${category.slug}/${record._id}`) });
        expect(one.status).toBe(200);
        expect(one.body._id).toBe(record._id);
        expect(one.headers.etag).toBeTruthy();
        const again = await t.app.inject({
          method: 'GET',
          url: url(`/${category.slug}/${record._id}`),
          headers: { 'if-none-match': String(one.headers.etag) },
        });
        expect(again.statusCode).toBe(304);
        expect(again.body).toBe('');

        // Edit: only the title and a new file; other fields are kept.
        const field = imageField(category);
        const files = field ? [{ field: field === 'image' ? 'image' : 'files', filename: 'new.png', type: 'image/png', data: await testImage(seed++) }] : [];
        const editBody = multipart({ title: 'Edited sample title' }, files);
        const edited = await call(t.app, {
          method: 'PUT',
          url: url(`/${category.slug}/${record._id}/edit`),
          headers: { ...owner.auth, ...editBody.headers },
          payload: editBody.payload,
        });
        expect(edited.status).toBe(200);
        expect(edited.body.title).toBe('Edited sample title');
        expect(edited.body.description).toBe(record.description);
        if (category.media === 'image') {
          expect(edited.body.images).toHaveLength(1);
          expect(edited.body.images[0].imageId).not.toBe(record.images[0].imageId);
          const old = await t.database.query<{ removed_at: Date | null }>('select removed_at from media where id = $1', [record.images[0].imageId]);
          expect(old[0]!.removed_at).not.toBeNull();
        } else if (category.media === 'images') {
          expect(edited.body.images.map((i: { imageId: string }) => i.imageId)).toEqual([record.images[0].imageId, expect.any(String)]);
        }
        // Reads are fresh at once: the old validator no longer matches.
        const stale = await t.app.inject({ method: 'GET', url: url(`/${category.slug}/${record._id}`), headers: { 'if-none-match': String(one.headers.etag) } });
        expect(stale.statusCode).toBe(200);
        expect(stale.json().title).toBe('Edited sample title');

        // Someone else's record: 403 for a contributor, fine for an admin.
        const foreign = await call(t.app, {
          method: 'PUT',
          url: url(`/${category.slug}/${record._id}/edit`),
          headers: other.auth,
          payload: { title: 'Not mine' },
        });
        expect(foreign.status).toBe(403);
        expect(foreign.body.message).toMatch(/records you created/);
        const foreignDelete = await call(t.app, { method: 'DELETE', url: url(`/${category.slug}/${record._id}/delete`), headers: other.auth });
        expect(foreignDelete.status).toBe(403);
        const byAdmin = await call(t.app, {
          method: 'PUT',
          url: url(`/${category.slug}/${record._id}/edit`),
          headers: admin.auth,
          payload: { subtitle: 'Edited by an admin' },
        });
        expect(byAdmin.status).toBe(200);
        expect(byAdmin.body.title).toBe('Edited sample title');
        expect(byAdmin.body.subtitle).toBe('Edited by an admin');

        // Delete moves to the trash: gone from reads, listed in the trash, restorable.
        expect((await call(t.app, { method: 'DELETE', url: url(`/${category.slug}/${record._id}/delete`) })).status).toBe(401);
        const trashed = await call(t.app, { method: 'DELETE', url: url(`/${category.slug}/${record._id}/delete`), headers: owner.auth });
        expect(trashed.status).toBe(200);
        expect(trashed.body.deletedBy).toBe(owner.id);
        expect((await call(t.app, { method: 'GET', url: url(`/${category.slug}/${record._id}`) })).status).toBe(404);
        const listed = await call(t.app, { method: 'GET', url: url(`/${category.slug}`) });
        expect(listed.headers['x-total-count']).toBe('1');
        expect((await call(t.app, { method: 'GET', url: url('/trash'), headers: owner.auth })).status).toBe(403);
        const trash = await call(t.app, { method: 'GET', url: url('/trash'), headers: admin.auth });
        expect(trash.status).toBe(200);
        expect(trash.body.map((r: { _id: string }) => r._id)).toContain(record._id);
        expect((await call(t.app, { method: 'PUT', url: url(`/trash/${record._id}/restore`), headers: owner.auth })).status).toBe(403);
        const restored = await call(t.app, { method: 'PUT', url: url(`/trash/${record._id}/restore`), headers: admin.auth });
        expect(restored.status).toBe(200);
        expect((await call(t.app, { method: 'GET', url: url(`/${category.slug}/${record._id}`) })).status).toBe(200);

        // Every write is in the audit log, with what changed.
        const entries = await auditFor(record._id);
        expect(entries.map((e) => e.action)).toEqual(['create', 'edit', 'edit', 'delete', 'restore']);
        expect(entries[0]!.actor_id).toBe(owner.id);
        expect(entries[0]!.changes.title).toEqual({ before: null, after: sample.title });
        expect(entries[1]!.changes.title).toEqual({ before: sample.title, after: 'Edited sample title' });
        expect(entries[1]!.changes).not.toHaveProperty('description');
        if (imageField(category)) expect(entries[1]!.changes).toHaveProperty('images');
        expect(entries[2]!.actor_id).toBe(admin.id);
        expect(entries[3]!.changes.deletedBy).toEqual({ before: null, after: owner.id });
      });

      it('applies approve, access and purge permissions by role', async () => {
        const { body: record } = await createMultipart(category, owner);
        const approveUrl = url(`/${category.slug}/approve/${record._id}`);
        if (category.approvable) {
          expect((await call(t.app, { method: 'PUT', url: approveUrl })).status).toBe(401);
          expect((await call(t.app, { method: 'PUT', url: approveUrl, headers: owner.auth })).status).toBe(403);
          const approved = await call(t.app, { method: 'PUT', url: approveUrl, headers: admin.auth });
          expect(approved.status).toBe(200);
          expect(approved.body.approved).toBe(true);
          expect(approved.body.approvedAt).toBeTruthy();
          const row = await t.database.query<{ approved_by: string }>('select approved_by from records where id = $1', [record._id]);
          expect(row[0]!.approved_by).toBe(admin.id);
        } else {
          expect((await call(t.app, { method: 'PUT', url: approveUrl, headers: admin.auth })).status).toBe(404);
        }

        const accessUrl = url(`/${category.slug}/${record._id}/access`);
        if (category.hasAccessToggle) {
          expect((await call(t.app, { method: 'PUT', url: accessUrl })).status).toBe(401);
          expect((await call(t.app, { method: 'PUT', url: accessUrl, headers: owner.auth })).status).toBe(403);
          const anonBefore = await call(t.app, { method: 'GET', url: url(`/${category.slug}`) });
          const hidden = await call(t.app, { method: 'PUT', url: accessUrl, headers: superUser.auth });
          expect(hidden.status).toBe(200);
          expect(hidden.body.public).toBe(false);
          // Anonymous readers no longer see it; signed-in readers do.
          const anonList = await call(t.app, { method: 'GET', url: url(`/${category.slug}`) });
          expect(anonList.body.map((r: { _id: string }) => r._id)).not.toContain(record._id);
          expect(Number(anonList.headers['x-total-count'])).toBe(Number(anonBefore.headers['x-total-count']) - 1);
          expect(anonList.headers.etag).not.toBe(anonBefore.headers.etag);
          expect((await call(t.app, { method: 'GET', url: url(`/${category.slug}/${record._id}`) })).status).toBe(404);
          const signedIn = await call(t.app, { method: 'GET', url: url(`/${category.slug}`), headers: other.auth });
          expect(signedIn.body.map((r: { _id: string }) => r._id)).toContain(record._id);
          expect(signedIn.headers['cache-control']).toBe('private, no-cache');
          expect((await call(t.app, { method: 'GET', url: url(`/${category.slug}/${record._id}`), headers: other.auth })).status).toBe(200);
          const shown = await call(t.app, { method: 'PUT', url: accessUrl, headers: admin.auth });
          expect(shown.body.public).toBe(true);
        } else {
          expect((await call(t.app, { method: 'PUT', url: accessUrl, headers: admin.auth })).status).toBe(404);
        }

        // Purge: only super, only from the trash; files keep their originals with no record.
        const trashed = await call(t.app, { method: 'DELETE', url: url(`/${category.slug}/${record._id}/delete`), headers: admin.auth });
        expect(trashed.status).toBe(200);
        expect((await call(t.app, { method: 'DELETE', url: url(`/trash/${record._id}`), headers: owner.auth })).status).toBe(403);
        expect((await call(t.app, { method: 'DELETE', url: url(`/trash/${record._id}`), headers: admin.auth })).status).toBe(403);
        const purged = await call(t.app, { method: 'DELETE', url: url(`/trash/${record._id}`), headers: superUser.auth });
        expect(purged.status).toBe(200);
        expect(await t.database.query('select id from records where id = $1', [record._id])).toHaveLength(0);
        for (const image of record.images as { imageId: string }[]) {
          const rows = await t.database.query<{ record_id: string | null }>('select record_id from media where id = $1', [image.imageId]);
          expect(rows[0]!.record_id).toBeNull();
        }
        const entries = await auditFor(record._id);
        expect(entries.at(-1)!.action).toBe('purge');
        expect(entries.at(-1)!.changes.title).toEqual({ before: record.title, after: null });
      });
    });
  }

  it('answers 401 to anonymous writes and 404 to unknown categories and bad ids', async () => {
    expect((await call(t.app, { method: 'POST', url: url('/victims'), payload: sampleFields(CATEGORY_LIST[0]!) })).status).toBe(401);
    expect((await call(t.app, { method: 'GET', url: url('/unicorns') })).status).toBe(404);
    expect((await call(t.app, { method: 'POST', url: url('/unicorns'), headers: owner.auth, payload: {} })).status).toBe(404);
    expect((await call(t.app, { method: 'GET', url: url('/victims/not-a-uuid') })).status).toBe(404);
    expect((await call(t.app, { method: 'PUT', url: url('/victims/123/edit'), headers: owner.auth, payload: {} })).status).toBe(404);
    expect((await call(t.app, { method: 'GET', url: url('/victims/00000000-0000-4000-8000-000000000000') })).status).toBe(404);
    // A record read under another category's path does not exist there.
    const { body } = await createMultipart(CATEGORY_LIST.find((c) => c.slug === 'links')!, owner);
    expect((await call(t.app, { method: 'GET', url: url(`/blogs/${body._id}`) })).status).toBe(404);
  });

  it('limits page size and refuses bad paging values', async () => {
    const big = await call(t.app, { method: 'GET', url: url('/victims?limit=100000') });
    expect(big.status).toBe(200);
    expect((await call(t.app, { method: 'GET', url: url('/victims?limit=0') })).status).toBe(400);
    expect((await call(t.app, { method: 'GET', url: url('/victims?offset=-1') })).status).toBe(400);
    const badCursor = await call(t.app, { method: 'GET', url: url('/victims?cursor=bm9wZQ') });
    expect(badCursor.status).toBe(400);
    expect(badCursor.body).toHaveProperty('cursor');
  });

  it('serves news (every category, newest first) and the derived image gallery', async () => {
    const victims = CATEGORY_LIST.find((c) => c.slug === 'victims')!;
    const events = CATEGORY_LIST.find((c) => c.slug === 'events')!;
    // Newer than every record made so far, yet within the minutes of clock skew a published date may lead now by.
    const soon = (ms: number) => new Date(Date.now() + ms).toISOString();
    const { body: victim } = await createMultipart(victims, owner, { createdAt: soon(60_000) });
    const { body: event } = await createMultipart(events, owner, { createdAt: soon(120_000) });
    const news = await call(t.app, { method: 'GET', url: url('/news?limit=2') });
    expect(news.status).toBe(200);
    expect(news.body.map((r: { _id: string }) => r._id)).toEqual([event._id, victim._id]);
    expect(Number(news.headers['x-total-count'])).toBeGreaterThan(2);

    const gallery = await call(t.app, { method: 'GET', url: url('/images?limit=200') });
    expect(gallery.status).toBe(200);
    const first = gallery.body[0];
    expect(first).toMatchObject({ _id: victim.images[0].imageId, imageId: victim.images[0].imageId, recordId: victim._id, category: 'victims', title: victim.title });
    expect(first.imageUrl).toBe(victim.imageUrl);
    expect(first).toHaveProperty('variants');
    expect(first).toHaveProperty('width');
    // Events are not in the gallery.
    expect(gallery.body.map((i: { recordId: string }) => i.recordId)).not.toContain(event._id);
    expect(Number(gallery.headers['x-total-count'])).toBe(gallery.body.length);

    // One image: caption edited by its owner, then taken off the record.
    const imageId = victim.images[0].imageId;
    expect((await call(t.app, { method: 'PUT', url: url(`/images/${imageId}/edit`), headers: other.auth, payload: { caption: 'x' } })).status).toBe(403);
    const captioned = await call(t.app, { method: 'PUT', url: url(`/images/${imageId}/edit`), headers: owner.auth, payload: { caption: 'Sample caption' } });
    expect(captioned.status).toBe(200);
    expect(captioned.body.caption).toBe('Sample caption');
    const replacement = multipart({}, [{ field: 'image', filename: 'r.png', type: 'image/png', data: await testImage(seed++) }]);
    const replaced = await call(t.app, { method: 'PUT', url: url(`/images/${imageId}/edit`), headers: { ...owner.auth, ...replacement.headers }, payload: replacement.payload });
    expect(replaced.status).toBe(200);
    expect(replaced.body.imageId).not.toBe(imageId);
    expect(replaced.body.caption).toBe('Sample caption');
    const removed = await call(t.app, { method: 'DELETE', url: url(`/images/${replaced.body.imageId}/delete`), headers: owner.auth });
    expect(removed.status).toBe(200);
    expect(removed.body.images).toEqual([]);
    expect(removed.body.imageUrl).toBe('');
    expect((await call(t.app, { method: 'GET', url: url(`/images/${replaced.body.imageId}`) })).status).toBe(404);

    // An event's image off its record via the category route; the original stays in storage.
    const eventImage = event.images[0].imageId;
    const wrongRecord = await call(t.app, { method: 'DELETE', url: url(`/events/${victim._id}/image/${eventImage}/delete`), headers: owner.auth });
    expect(wrongRecord.status).toBe(404);
    const gone = await call(t.app, { method: 'DELETE', url: url(`/events/${event._id}/image/${eventImage}/delete`), headers: owner.auth });
    expect(gone.status).toBe(200);
    expect(gone.body.images).toEqual([]);
    const [row] = await t.database.query<{ removed_at: Date | null; storage_key: string }>('select removed_at, storage_key from media where id = $1', [eventImage]);
    expect(row!.removed_at).not.toBeNull();
    expect(await t.app.media.storage.size(row!.storage_key)).toBeGreaterThan(0);
    const [entry] = await t.database.query<{ action: string; subject: string }>(
      "select action, subject from audit_log where record_id = $1 and action = 'image.delete'",
      [event._id],
    );
    expect(entry).toEqual({ action: 'image.delete', subject: `media:${eventImage}` });
  });

  it('takes a video file in the field image for videos, and replaces it on edit', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'records-video-'));
    const file = path.join(dir, 'sample.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=32x32:rate=5', '-pix_fmt', 'yuv420p', file]);
    const videos = CATEGORY_LIST.find((c) => c.slug === 'videos')!;
    const { videoUrl: _none, ...fields } = sampleFields(videos);
    const body = multipart(fields, [{ field: 'image', filename: 'sample.mp4', type: 'video/mp4', data: readFileSync(file) }]);
    const created = await call(t.app, { method: 'POST', url: url('/videos'), headers: { ...owner.auth, ...body.headers }, payload: body.payload });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.videoUrl).toBeNull();
    expect(created.body.images).toHaveLength(1);
    expect(created.body.images[0].kind).toBe('video');
    // An image is not a video.
    const wrong = multipart({}, [{ field: 'image', filename: 'a.png', type: 'image/png', data: await testImage(seed++) }]);
    const refused = await call(t.app, { method: 'PUT', url: url(`/videos/${created.body._id}/edit`), headers: { ...owner.auth, ...wrong.headers }, payload: wrong.payload });
    expect(refused.status).toBe(400);
    expect(refused.body).toHaveProperty('image');
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes an OpenAPI document generated from the schemas', async () => {
    const doc = await call(t.app, { method: 'GET', url: '/api/docs/json' });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    for (const category of CATEGORY_LIST) expect(doc.body.paths).toHaveProperty(`${API_BASE}/${category.slug}`);
    const post = doc.body.paths[`${API_BASE}/massacres`].post;
    const schema = post.requestBody.content['multipart/form-data'].schema;
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['caseNum', 'evidence', 'files']));
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(page.statusCode);
  });
});
