import { describe, expect, it } from 'vitest';
import { API_BASE, WITHHELD_SOURCE, type DuplicatePair } from '@app/shared';
import { scanQueue } from '../src/modules/duplicates/scan';
import { call } from './helpers';
import { useTestApp, type User } from './fixtures/app';

/**
 * A merge never widens who reads a withheld testimony (issue 52 item 2): it keeps its author and staff as its readers on
 * the kept record, whoever owns that record; only staff may lift `withheld`; and a merged confirmation is kept (item 20).
 * Every record and testimony here is made-up test data.
 */
const TESTIMONY = { kind: 'witness', title: 'Testimony of test witness K', note: 'Test witness K lives at test address 9', withheld: true };
const REPORT = { kind: 'media', title: 'Test report on test person', url: 'https://example.org/test-merge-report' };

describe('merging a record with a withheld testimony', () => {
  const { t, authorA, ownerB, admin } = useTestApp({ authorA: 'contributor', ownerB: 'contributor', admin: 'admin' });

  const person = async (who: User, fullName: string, sources: object[]) => {
    const res = await call(t.app, {
      method: 'POST',
      url: `${API_BASE}/victims`,
      headers: who.auth,
      payload: { title: `${fullName} (test data)`, fullName, description: 'Test data, not a real person.', sources },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body._id as string;
  };
  const read = (id: string, who?: User) => call(t.app, { method: 'GET', url: `${API_BASE}/victims/${id}`, headers: who?.auth ?? {} });
  const edit = (id: string, who: User, payload: object) => call(t.app, { method: 'PUT', url: `${API_BASE}/victims/${id}/edit`, headers: who.auth, payload });
  const merge = async (keep: string, merged: string) => {
    const res = await call(t.app, { method: 'POST', url: `${API_BASE}/duplicates/merge`, headers: admin.auth, payload: { keep, merge: merged } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const storedTestimony = async (id: string) => ((await read(id, admin)).body.sources as { title: string; withheld?: boolean; authorId?: string }[]).find((s) => s.title === TESTIMONY.title);

  it("keeps the testimony readable by its author and staff only, and the kept record's owner cannot publish it", async () => {
    const fromA = await person(authorA, 'Test Gemechu Withheld', [TESTIMONY]);
    const ofB = await person(ownerB, 'Test Gemechu Witheld', [REPORT]);
    // The merge screen's pair says what each record holds, so what a merge moves (the testimony among it).
    await scanQueue(t.app.db);
    const pairs = (await call(t.app, { method: 'GET', url: `${API_BASE}/duplicates?limit=200`, headers: admin.auth })).body as DuplicatePair[];
    const pair = pairs.find((p) => [p.first._id, p.second._id].sort().join() === [fromA, ofB].sort().join())!;
    const sideA = pair.first._id === fromA ? pair.first : pair.second;
    expect(sideA.holds).toEqual({ files: 0, sources: 1, withheldSources: 1, confirmed: false });
    await merge(ofB, fromA);

    // The kept record's owner, other readers and the public see the placeholder; its author and staff the details.
    for (const who of [ownerB, undefined]) {
      const res = await read(ofB, who);
      expect(res.status).toBe(200);
      expect(res.raw.body).not.toContain('test address 9');
      expect(res.body.sources).toContainEqual(WITHHELD_SOURCE);
    }
    for (const who of [authorA, admin]) {
      expect((await read(ofB, who)).body.sources).toContainEqual(expect.objectContaining({ note: TESTIMONY.note, withheld: true }));
    }

    // B saves what B was shown, drops the placeholder, or unticks it: the testimony stays, withheld, with its reader.
    const shown = (await read(ofB, ownerB)).body.sources as object[];
    for (const sources of [shown, [REPORT], shown.map((s) => ({ ...s, withheld: false }))]) {
      const res = await edit(ofB, ownerB, { sources });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await storedTestimony(ofB)).toMatchObject({ ...TESTIMONY, authorId: authorA.id });
      expect((await read(ofB)).raw.body).not.toContain('test address 9');
      expect((await read(ofB, ownerB)).raw.body).not.toContain('test address 9');
    }

    // Staff editing the record send the testimony back as they read it: it keeps its author as its reader.
    const asStaff = (await read(ofB, admin)).body.sources as object[];
    expect((await edit(ofB, admin, { sources: asStaff, title: 'Test Gemechu (test data, edited)' })).status).toBe(200);
    expect((await read(ofB, ownerB)).raw.body).not.toContain('test address 9');
    expect((await read(ofB, authorA)).raw.body).toContain('test address 9');

    // The audit log says what moved and who reads the testimony now.
    const audit = await call(t.app, { method: 'GET', url: `${API_BASE}/audit?recordId=${ofB}`, headers: admin.auth });
    const entry = (audit.body as { action: string; changes: Record<string, { after: unknown }> }[]).find((e) => e.action === 'merge')!;
    expect(entry.changes.withheldReaders!.after).toEqual([authorA.id]);
  });

  it("lets only staff lift withheld: a contributor is refused, keyed sources, even on their own record", async () => {
    const id = await person(authorA, 'Test Lifting Person', [TESTIMONY, REPORT]);
    const lifted = [{ ...TESTIMONY, withheld: false }, REPORT];
    const refused = await edit(id, authorA, { sources: lifted });
    expect(refused.status).toBe(400);
    expect(refused.body.sources).toMatch(/^Source 1 \(withheld\): /);
    // Reworded too, it is still the same testimony (its note).
    const reworded = await edit(id, authorA, { sources: [{ ...TESTIMONY, title: 'Test testimony retitled', withheld: undefined }] });
    expect(reworded.status).toBe(400);
    expect((await read(id)).raw.body).not.toContain('test address 9');
    expect(await storedTestimony(id)).toMatchObject({ withheld: true });
    // The author may still change it while it stays withheld.
    expect((await edit(id, authorA, { sources: [{ ...TESTIMONY, date: '2021-03' }, REPORT] })).status).toBe(200);
    // An admin may lift it.
    const byStaff = await edit(id, admin, { sources: lifted });
    expect(byStaff.status, JSON.stringify(byStaff.body)).toBe(200);
    expect((await read(id)).raw.body).toContain('test address 9');
  });

  it('keeps the person confirmed when a confirmed record is merged into one not confirmed', async () => {
    const confirmed = await person(authorA, 'Test Confirmed Person', []);
    const unconfirmed = await person(ownerB, 'Test Confirmed Persson', []);
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/victims/approve/${confirmed}`, headers: admin.auth })).status).toBe(200);
    expect((await read(unconfirmed)).body.approved).toBe(false);
    await merge(unconfirmed, confirmed);
    expect((await read(unconfirmed)).body.approved).toBe(true);
    const audit = await call(t.app, { method: 'GET', url: `${API_BASE}/audit?recordId=${unconfirmed}`, headers: admin.auth });
    const entry = (audit.body as { action: string; changes: Record<string, unknown> }[]).find((e) => e.action === 'merge')!;
    expect(entry.changes.approved).toEqual({ before: false, after: true });
  });
});
