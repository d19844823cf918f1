import { describe, expect, it } from 'vitest';
import { API_BASE, can, type Actor } from '@app/shared';
import { call } from '../helpers';
import { useTestApp, type User } from '../fixtures/app';

/**
 * A withheld testimony after a merge, as every kind of caller (issue 52 item 2), against the permissions table in
 * packages/shared: its details on every read path for `can.readWithheld` only (its author and staff, not the kept
 * record's owner), and lifting `withheld` for `can.liftWithheld` only (staff, not even the author). Test data only.
 */
const NOTE = 'Test witness M lives at test address 11';
const TESTIMONY = { kind: 'witness', title: 'Testimony of test witness M', note: NOTE, withheld: true };

describe('withheld testimony moved by a merge: every caller, every read, every lift', () => {
  const { t, author, owner, other, admin, superUser } = useTestApp({ author: 'contributor', owner: 'contributor', other: 'contributor', admin: 'admin', superUser: 'super' });
  const callers = () => [
    { name: 'anonymous', user: null as User | null },
    { name: 'testimony author', user: author },
    { name: "kept record's owner", user: owner },
    { name: 'other contributor', user: other },
    { name: 'admin', user: admin },
    { name: 'super', user: superUser },
  ];
  const actorOf = (user: User | null): Actor | null => (user ? { id: user.id, role: user.role as Actor['role'] } : null);

  const mergedPair = async (mark: string) => {
    const create = async (who: User, sources: object[]) => {
      const res = await call(t.app, {
        method: 'POST',
        url: `${API_BASE}/victims`,
        headers: who.auth,
        payload: { title: `Test ${mark} (test data)`, fullName: `Test ${mark}`, description: 'Test data, not a real person.', sources },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body._id as string;
    };
    const merged = await create(author, [TESTIMONY]);
    const kept = await create(owner, []);
    expect((await call(t.app, { method: 'POST', url: `${API_BASE}/duplicates/merge`, headers: admin.auth, payload: { keep: kept, merge: merged } })).status).toBe(200);
    return kept;
  };

  it('shows the details to the testimony author and staff only, on the record, the list, search and exports', async () => {
    const kept = await mergedPair('Withheld Reader Probe');
    const record = { userId: owner.id };
    const source = { ...TESTIMONY, kind: 'witness' as const, withheld: true as const, authorId: author.id };
    for (const { name, user } of callers()) {
      const headers = user?.auth ?? {};
      const mayRead = can.readWithheld(actorOf(user), record, source);
      const one = await call(t.app, { method: 'GET', url: `${API_BASE}/victims/${kept}`, headers });
      expect(one.status, name).toBe(200);
      expect(one.raw.body.includes(NOTE), `${name} reads the record`).toBe(mayRead);
      for (const url of ['/victims?limit=200', '/search?q=Withheld%20Reader%20Probe', '/export.csv?category=victims', '/export.ndjson?category=victims']) {
        const res = await call(t.app, { method: 'GET', url: `${API_BASE}${url}`, headers });
        // Lists and search show editors' views the same way as the record; exports never show it to anyone.
        const expected = url.startsWith('/export') ? false : mayRead;
        expect(res.raw.body.includes(NOTE), `${name} ${url}`).toBe(expected);
      }
    }
  });

  it('lets only staff lift withheld; the author may not, and the owner cannot even read it to try', async () => {
    for (const { name, user } of callers()) {
      if (!user) continue;
      const kept = await mergedPair(`Withheld Lift Probe ${name}`);
      // The attempt: the sources as this caller reads them, every one sent back without `withheld`.
      const shown = (await call(t.app, { method: 'GET', url: `${API_BASE}/victims/${kept}`, headers: user.auth })).body.sources as object[];
      const lifted = shown.map((s) => ({ ...s, withheld: false }));
      const res = await call(t.app, { method: 'PUT', url: `${API_BASE}/victims/${kept}/edit`, headers: user.auth, payload: { sources: lifted } });
      const mayEdit = can.modify(actorOf(user), { userId: owner.id });
      const mayLift = mayEdit && can.liftWithheld(actorOf(user));
      if (!mayEdit) expect(res.status, name).toBe(403);
      else if (mayLift) expect(res.status, name).toBe(200);
      else expect([400, 200], name).toContain(res.status);
      const anonymous = await call(t.app, { method: 'GET', url: `${API_BASE}/victims/${kept}` });
      expect(anonymous.raw.body.includes(NOTE), `${name}: public after the edit`).toBe(mayLift);
    }
    // The author on their own record reads it and may edit, yet may not lift it.
    const own = await call(t.app, { method: 'POST', url: `${API_BASE}/victims`, headers: author.auth, payload: { title: 'Test own testimony (test data)', description: 'Test data.', sources: [TESTIMONY] } });
    const refused = await call(t.app, { method: 'PUT', url: `${API_BASE}/victims/${own.body._id}/edit`, headers: author.auth, payload: { sources: [{ ...TESTIMONY, withheld: false }] } });
    expect(refused.status).toBe(400);
    expect(refused.body.sources).toMatch(/^Source 1 \(withheld\): /);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/victims/${own.body._id}` })).raw.body).not.toContain(NOTE);
  });
});
