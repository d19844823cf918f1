import { describe, expect, it } from 'vitest';
import { API_BASE, CATEGORIES } from '@app/shared';
import { call } from './helpers';
import { useTestApp, type User } from './fixtures/app';
import { sampleFields } from './records-helpers';

/** People linked to incidents (issue 39 item 1): the link, its checks, and who may see it. Test data only. */
describe('people linked to incidents', () => {
  const { t, author, other, admin } = useTestApp({ author: 'contributor', other: 'contributor', admin: 'admin' });

  const post = (slug: string, body: Record<string, unknown>, who: User = author) =>
    call(t.app, { method: 'POST', url: `${API_BASE}/${slug}`, headers: who.auth, payload: { ...sampleFields(CATEGORIES[slug as keyof typeof CATEGORIES], 'Test'), ...body } });
  const get = (url: string, who?: User) => call(t.app, { method: 'GET', url: `${API_BASE}${url}`, headers: who?.auth ?? {} });
  const toggle = (slug: string, id: string) => call(t.app, { method: 'PUT', url: `${API_BASE}/${slug}/${id}/access`, headers: admin.auth });

  async function massacre(title = 'Test massacre (test data)') {
    const res = await post('massacres', { title, quantity: 40 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body._id as string;
  }

  it('links a victim to a massacre; the record JSON has incidentId and the incident', async () => {
    const incident = await massacre();
    const res = await post('victims', { title: 'Test victim one', incidentId: incident });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.incidentId).toBe(incident);
    const read = await get(`/victims/${res.body._id}`);
    expect(read.body.incidentId).toBe(incident);
    expect(read.body.incident).toMatchObject({ _id: incident, category: 'massacres', title: 'Test massacre (test data)', quantity: 40 });
  });

  it('refuses an unknown id, a category it may not link to, and a trashed incident, keyed incidentId', async () => {
    const blog = await post('blogs', { title: 'Test post' });
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const incidentId of [unknown, blog.body._id, 'not-an-id']) {
      const res = await post('victims', { incidentId });
      expect(res.status).toBe(400);
      expect(typeof res.body.incidentId).toBe('string');
    }
    const trashed = await massacre();
    await call(t.app, { method: 'DELETE', url: `${API_BASE}/massacres/${trashed}/delete`, headers: admin.auth });
    const res = await post('orphans', { incidentId: trashed });
    expect(res.status).toBe(400);
    expect(res.body.incidentId).toMatch(/trash/);
    // A massacre takes no incident: the field is not its own and is dropped.
    const own = await post('massacres', { incidentId: unknown });
    expect(own.status).toBe(201);
    expect(own.body.incidentId).toBeUndefined();
  });

  it('never tells an anonymous reader of a private incident, in the person, list or search', async () => {
    const incident = await massacre('Test hidden massacre zzqx');
    const person = await post('missings', { title: 'Test missing person linked', incidentId: incident });
    expect((await toggle('massacres', incident)).body.public).toBe(false);
    const anonymous = await get(`/missings/${person.body._id}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.incidentId).toBeNull();
    expect(anonymous.body.incident).toBeUndefined();
    expect(JSON.stringify(anonymous.body)).not.toContain(incident);
    const list = await get('/missings');
    expect(list.raw.body).not.toContain(incident);
    expect(list.raw.body).not.toContain('zzqx');
    const search = await get('/search?q=linked');
    expect(search.raw.body).not.toContain(incident);
    // A signed-in reader may read private records, so sees the link.
    const signedIn = await get(`/missings/${person.body._id}`, other);
    expect(signedIn.body.incidentId).toBe(incident);
    expect(signedIn.body.incident.title).toBe('Test hidden massacre zzqx');
    // Public again: everyone sees it.
    await toggle('massacres', incident);
    expect((await get(`/missings/${person.body._id}`)).body.incidentId).toBe(incident);
  });

  it('keeps the people of a trashed incident, their link shown as unavailable', async () => {
    const incident = await massacre('Test trashed massacre');
    const person = await post('victims', { title: 'Test victim of trashed', incidentId: incident });
    await call(t.app, { method: 'DELETE', url: `${API_BASE}/massacres/${incident}/delete`, headers: admin.auth });
    const anonymous = await get(`/victims/${person.body._id}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.incident).toEqual({ unavailable: true });
    expect(anonymous.body.incidentId).toBeNull();
    expect(JSON.stringify(anonymous.body)).not.toContain('Test trashed massacre');
    // Its editor keeps the stored link (an edit that does not touch it keeps it).
    const editor = await get(`/victims/${person.body._id}`, author);
    expect(editor.body.incidentId).toBe(incident);
    const edit = await call(t.app, { method: 'PUT', url: `${API_BASE}/victims/${person.body._id}/edit`, headers: author.auth, payload: { title: 'Test victim renamed', incidentId: incident } });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body.incidentId).toBe(incident);
  });

  it('audits a link like any other field', async () => {
    const incident = await massacre();
    const person = await post('displacements', { title: 'Test displaced group' });
    await call(t.app, { method: 'PUT', url: `${API_BASE}/displacements/${person.body._id}/edit`, headers: author.auth, payload: { incidentId: incident } });
    const rows = await t.database.query<{ changes: Record<string, { before: unknown; after: unknown }> }>(
      `select changes from audit_log where record_id = '${person.body._id}' and action = 'edit'`,
    );
    expect(rows.at(-1)!.changes.incidentId).toEqual({ before: null, after: incident });
  });

  it('lists an incident\'s people by category, paged, and finds them by the search\'s incident filter', async () => {
    const incident = await massacre('Test massacre with people');
    for (const [slug, title] of [['victims', 'Test victim A'], ['victims', 'Test victim B'], ['orphans', 'Test orphan C'], ['missings', 'Test missing D']] as const) {
      expect((await post(slug, { title, incidentId: incident })).status).toBe(201);
    }
    const first = await get(`/massacres/${incident}/people?limit=2`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.total).toBe(4);
    expect(first.body.counts).toEqual({ victims: 2, displacements: 0, orphans: 1, missings: 1 });
    expect(first.body.people).toHaveLength(2);
    const second = await get(`/massacres/${incident}/people?limit=2&offset=2`);
    expect([...first.body.people, ...second.body.people].map((p: { title: string }) => p.title).sort()).toEqual(['Test missing D', 'Test orphan C', 'Test victim A', 'Test victim B']);
    const found = await get(`/search?incident=${incident}`);
    expect(found.status).toBe(200);
    expect(found.body.total).toBe(4);
    expect(found.body.facets.category.find((f: { value: string }) => f.value === 'victims').count).toBe(2);
    const stats = await get(`/statistics?incident=${incident}`);
    expect(stats.status, JSON.stringify(stats.body)).toBe(200);
    expect(stats.body.total).toBe(4);
    // Private: the incident's people are not listed, searched or counted for the public, and its page answers 404.
    await toggle('massacres', incident);
    expect((await get(`/massacres/${incident}/people`)).status).toBe(404);
    expect((await get(`/search?incident=${incident}`)).body.total).toBe(0);
    expect((await get(`/statistics?incident=${incident}`)).body.total).toBe(0);
    expect((await get(`/massacres/${incident}/people`, other)).body.total).toBe(4);
    expect((await get(`/search?incident=${incident}`, other)).body.total).toBe(4);
    expect((await get(`/events/${incident}/people`)).status).toBe(404);
    expect((await get('/search?incident=nope')).status).toBe(400);
  });
});
