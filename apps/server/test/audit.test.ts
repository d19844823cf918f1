import { beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CATEGORIES } from '@app/shared';
import { call } from './helpers';
import { useTestApp } from './fixtures/app';
import { sampleFields } from './records-helpers';

describe('audit log routes', () => {
  const { t, contributor, admin } = useTestApp({ contributor: 'contributor', admin: 'admin' });
  let recordId: string;
  /** Entries other areas write at start-up (e.g. the campaign directory import). */
  let baseline: number;

  beforeAll(async () => {
    const [row] = await t.database.query<{ n: number }>('select count(*)::int as n from audit_log');
    baseline = row!.n;
    const created = await call(t.app, { method: 'POST', url: `${API_BASE}/victims`, headers: contributor.auth, payload: sampleFields(CATEGORIES.victims) });
    recordId = created.body._id;
    await call(t.app, { method: 'PUT', url: `${API_BASE}/victims/${recordId}/edit`, headers: contributor.auth, payload: { title: 'Edited' } });
    await call(t.app, { method: 'PUT', url: `${API_BASE}/victims/approve/${recordId}`, headers: admin.auth });
    await call(t.app, { method: 'POST', url: `${API_BASE}/links`, headers: admin.auth, payload: sampleFields(CATEGORIES.links) });
  });

  it('is for admin and super only', async () => {
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/audit` })).status).toBe(401);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/audit` , headers: contributor.auth })).status).toBe(403);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/audit/verify`, headers: contributor.auth })).status).toBe(403);
  });

  it('lists entries newest first with a total, filtered by record and by actor', async () => {
    const all = await call(t.app, { method: 'GET', url: `${API_BASE}/audit`, headers: admin.auth });
    expect(all.status).toBe(200);
    expect(Number(all.headers['x-total-count'])).toBe(baseline + 4);
    expect(all.body.slice(0, 4).map((e: { action: string }) => e.action)).toEqual(['create', 'approve', 'edit', 'create']);

    const byRecord = await call(t.app, { method: 'GET', url: `${API_BASE}/audit?recordId=${recordId}`, headers: admin.auth });
    expect(byRecord.headers['x-total-count']).toBe('3');
    const approve = byRecord.body[0];
    expect(approve).toMatchObject({ action: 'approve', actorId: admin.id, actorRole: 'admin', category: 'victims', recordId });
    // "Who" by name (issue 52 item 20): the account's name as it is now, beside its id.
    expect(approve.actorName).toBe(`${admin.firstName} ${admin.lastName}`);
    expect(byRecord.body[2].actorName).toBe(`${contributor.firstName} ${contributor.lastName}`);
    expect(approve.changes.approved).toEqual({ before: false, after: true });
    expect(byRecord.body[1].changes.title).toEqual({ before: sampleFields(CATEGORIES.victims).title, after: 'Edited' });

    const byActor = await call(t.app, { method: 'GET', url: `${API_BASE}/audit?actorId=${contributor.id}&limit=1`, headers: admin.auth });
    expect(byActor.headers['x-total-count']).toBe('2');
    expect(byActor.body).toHaveLength(1);
    expect(byActor.body[0].action).toBe('edit');

    const bad = await call(t.app, { method: 'GET', url: `${API_BASE}/audit?recordId=nope`, headers: admin.auth });
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('recordId');
  });

  it('verifies the hash chain, and reports a row changed in SQL', async () => {
    const ok = await call(t.app, { method: 'GET', url: `${API_BASE}/audit/verify`, headers: admin.auth });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, entries: baseline + 4, firstBrokenSeq: null, reason: null });

    const [target] = await t.database.query<{ seq: number }>("select seq from audit_log where action = 'edit'");
    await t.database.query(`update audit_log set changes = '{"title": {"before": "x", "after": "y"}}'::jsonb where seq = $1`, [target!.seq]);
    const broken = await call(t.app, { method: 'GET', url: `${API_BASE}/audit/verify`, headers: admin.auth });
    expect(broken.status).toBe(200);
    expect(broken.body.ok).toBe(false);
    expect(Number(broken.body.firstBrokenSeq)).toBe(Number(target!.seq));
  });

  it('logs no published-date change for an edit that sends it back to the second, as the form does (issue 52 item 20)', async () => {
    const { createdAt: _sent, ...fields } = sampleFields(CATEGORIES.victims, 'Second');
    const id = (await call(t.app, { method: 'POST', url: `${API_BASE}/victims`, headers: contributor.auth, payload: fields })).body._id as string;
    // Stored to the microsecond, as the database's now() does; the form's value is the same instant to the second.
    await t.database.query(`update records set created_at = '2021-03-04T05:06:07.654321Z' where id = $1`, [id]);
    const edit = (payload: Record<string, string>) => call(t.app, { method: 'PUT', url: `${API_BASE}/victims/${id}/edit`, headers: contributor.auth, payload });
    const lastChanges = async () => (await call(t.app, { method: 'GET', url: `${API_BASE}/audit?recordId=${id}&limit=1`, headers: admin.auth })).body[0].changes;

    expect((await edit({ createdAt: '2021-03-04T05:06:07+00:00', title: 'Second edited' })).status).toBe(200);
    expect(Object.keys(await lastChanges())).toEqual(['title']);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/victims/${id}` })).body.createdAt).toBe('2021-03-04T05:06:07.654Z');

    expect((await edit({ createdAt: '2021-03-04T05:06:08+00:00' })).status).toBe(200);
    expect((await lastChanges()).createdAt).toEqual({ before: '2021-03-04T05:06:07.654Z', after: '2021-03-04T05:06:08.000Z' });
  });
});
