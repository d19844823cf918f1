import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { API_BASE } from '@app/shared';
import { auditLog, importRows, jobs, records } from '../src/db/schema';
import { call } from './helpers';
import { useTestApp } from './fixtures/app';
import { checkFile, commaCsv, commitAndRun } from './imports-helpers';

/** Writing an import (issue 57 items 3 and 4): the job, its progress, resuming, cancelling, idempotence, the trash. */
describe('import commit', () => {
  const { t, author, other, admin } = useTestApp({ author: 'contributor', other: 'contributor', admin: 'admin' });

  const sampleRows = (n: number, tag: string) => [
    ['title', 'fullName', 'region', 'happenedOn', 'description'],
    ...Array.from({ length: n }, (_, i) => [`Sample ${tag} victim ${i}`, `Sample ${tag} Person ${i} ${'abcdefghij'[i % 10]}${'klmnopqrst'[Math.floor(i / 10) % 10]}${'uvwxyzabcd'[Math.floor(i / 100) % 10]}`, 'Amhara', '2021-03-04', 'Sample description (test data)']),
  ];
  const liveRecordsOf = async (importId: string) =>
    Number(
      (
        await t.app.db
          .select({ n: sql<number>`count(*)` })
          .from(importRows)
          .innerJoin(records, eq(records.id, importRows.recordId))
          .where(and(eq(importRows.importId, importId), sql`${records.deletedAt} is null`))
      )[0]!.n,
    );

  it('writes the valid rows as a job, each record audited as a create and linked to the import', async () => {
    const rows = sampleRows(5, 'Commit');
    rows.push(['', 'Sample no title', 'Amhara', '2021-03-04', 'x']);
    const checked = await checkFile(t.app, author.auth, commaCsv(rows), 'victims');
    expect(checked.body).toMatchObject({ rows: 6, valid: 5, errorCount: 1 });
    const progress = await commitAndRun(t.app, author.auth, checked.body.id, { duplicates: 'create' });
    expect(progress).toMatchObject({ status: 'done', done: 6, total: 6, created: 5, skipped: 0, failed: 1 });
    const linked = await t.app.db.select().from(importRows).where(eq(importRows.importId, checked.body.id));
    expect(linked).toHaveLength(5);
    const made = await t.app.db.select().from(records).where(sql`${records.id} in ${linked.map((l) => l.recordId)}`);
    expect(made.map((r) => r.userId)).toEqual(Array(5).fill(author.id));
    expect(made.map((r) => r.region)).toEqual(Array(5).fill('amhara'));
    const audits = await t.app.db.select().from(auditLog).where(and(eq(auditLog.action, 'create'), sql`${auditLog.recordId} in ${linked.map((l) => l.recordId)}`));
    expect(audits).toHaveLength(5);
    const list = await call(t.app, { method: 'GET', url: `${API_BASE}/victims?limit=200`, headers: author.auth });
    expect(list.body.map((r: { title: string }) => r.title)).toEqual(expect.arrayContaining(['Sample Commit victim 0', 'Sample Commit victim 4']));
    // Only its owner and staff see an import.
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/imports/${checked.body.id}`, headers: other.auth })).status).toBe(404);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/imports/${checked.body.id}`, headers: admin.auth })).status).toBe(200);
    expect((await call(t.app, { method: 'POST', url: `${API_BASE}/imports/${checked.body.id}/commit`, headers: author.auth, payload: {} })).status).toBe(409);
  });

  it('creates nothing new from the same file again, and says so', async () => {
    const file = commaCsv(sampleRows(4, 'Again'));
    const first = await checkFile(t.app, author.auth, file, 'victims');
    expect(first.body.alreadyImported).toBe(0);
    // The sample names are alike (and like other tests' samples): written whatever the duplicate check says.
    expect(await commitAndRun(t.app, author.auth, first.body.id, { duplicates: 'create' })).toMatchObject({ created: 4 });
    const second = await checkFile(t.app, author.auth, file, 'victims');
    expect(second.body).toMatchObject({ rows: 4, valid: 4, alreadyImported: 4 });
    // The same rows are also likely duplicates of the records just made; choosing to create them still makes none.
    expect(await commitAndRun(t.app, author.auth, second.body.id, { duplicates: 'create' })).toMatchObject({ status: 'done', created: 0, skipped: 4 });
  });

  it('skips or links the rows found to be duplicates, as chosen', async () => {
    const base = await call(t.app, { method: 'POST', url: `${API_BASE}/victims`, headers: author.auth, payload: { title: 'Sample Linkable Person Wwqq', fullName: 'Sample Linkable Person Wwqq', description: 'x', happenedOn: '2021-03-04' } });
    const file = commaCsv([['title', 'fullName', 'happenedOn', 'description'], ['Sample Linkable Person Wwqq', 'Sample Linkable Person Wwqq', '2021-03-04', 'Sample other description']]);
    const checked = await checkFile(t.app, author.auth, file, 'victims');
    expect(checked.body.duplicates).toHaveLength(1);
    expect(await commitAndRun(t.app, author.auth, checked.body.id, { duplicates: 'skip', decisions: { 2: 'link' } })).toMatchObject({ created: 0, skipped: 1 });
    const [link] = await t.app.db.select().from(importRows).where(eq(importRows.importId, checked.body.id));
    expect(link).toMatchObject({ recordId: base.body._id, outcome: 'linked' });
  });

  it('goes on where it stopped after the job died mid-way, writing each row once', async () => {
    const checked = await checkFile(t.app, author.auth, commaCsv(sampleRows(250, 'Resume')), 'victims');
    expect(checked.body.valid).toBe(250);
    let stops = 1;
    t.app.importJobs.afterProgress = (done) => {
      if (done >= 100 && stops-- > 0) throw new Error('Sample crash of the worker (test)');
    };
    try {
      await call(t.app, { method: 'POST', url: `${API_BASE}/imports/${checked.body.id}/commit`, headers: author.auth, payload: { duplicates: 'create' } });
      await t.app.jobs.drain();
      const stopped = (await call(t.app, { method: 'GET', url: `${API_BASE}/imports/${checked.body.id}`, headers: author.auth })).body;
      expect(stopped).toMatchObject({ status: 'queued', created: 100, lastError: 'Sample crash of the worker (test)' });
      expect(await liveRecordsOf(checked.body.id)).toBe(100);
      // The retry is due later; make it due now, as time would.
      await t.app.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.state, 'queued'));
      await t.app.jobs.drain();
    } finally {
      t.app.importJobs.afterProgress = undefined;
    }
    const done = (await call(t.app, { method: 'GET', url: `${API_BASE}/imports/${checked.body.id}`, headers: author.auth })).body;
    expect(done).toMatchObject({ status: 'done', done: 250, created: 250, failed: 0 });
    expect(await liveRecordsOf(checked.body.id)).toBe(250);
    const titles = await t.app.db.select({ n: sql<number>`count(distinct ${records.title})`, all: sql<number>`count(*)` }).from(records).where(sql`${records.title} like 'Sample Resume victim %'`);
    expect(Number(titles[0]!.all)).toBe(250);
    expect(Number(titles[0]!.n)).toBe(250);
  });

  it('stops when cancelled, and moves every record of an import to the trash in one step', async () => {
    const checked = await checkFile(t.app, author.auth, commaCsv(sampleRows(3, 'Cancel')), 'victims');
    const queued = await call(t.app, { method: 'POST', url: `${API_BASE}/imports/${checked.body.id}/commit`, headers: author.auth, payload: {} });
    expect(queued.body.status).toBe('queued');
    expect((await call(t.app, { method: 'POST', url: `${API_BASE}/imports/${checked.body.id}/cancel`, headers: author.auth })).body.status).toBe('cancelled');
    await t.app.jobs.drain();
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/imports/${checked.body.id}`, headers: author.auth })).body).toMatchObject({ status: 'cancelled', created: 0 });
    // Committed again, it runs.
    expect(await commitAndRun(t.app, author.auth, checked.body.id, { duplicates: 'create' })).toMatchObject({ status: 'done', created: 3 });
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/imports/${checked.body.id}`, headers: other.auth })).status).toBe(404);
    const trashed = await call(t.app, { method: 'DELETE', url: `${API_BASE}/imports/${checked.body.id}`, headers: author.auth });
    expect(trashed.body).toEqual({ trashed: 3 });
    expect(await liveRecordsOf(checked.body.id)).toBe(0);
    const list = await call(t.app, { method: 'GET', url: `${API_BASE}/victims?limit=200`, headers: author.auth });
    expect(list.body.some((r: { title: string }) => r.title.startsWith('Sample Cancel victim'))).toBe(false);
    const trash = await call(t.app, { method: 'GET', url: `${API_BASE}/trash?limit=200`, headers: admin.auth });
    expect(trash.body.filter((r: { title: string }) => r.title.startsWith('Sample Cancel victim'))).toHaveLength(3);
    // Trashed, the rows are no longer imported: the file may be brought in again.
    expect((await checkFile(t.app, author.auth, commaCsv(sampleRows(3, 'Cancel')), 'victims')).body.alreadyImported).toBe(0);
  });

  it('saves a mapping under a name and lists it', async () => {
    const saved = await call(t.app, { method: 'POST', url: `${API_BASE}/imports/mappings`, headers: author.auth, payload: { category: 'victims', name: 'Sample village list', mapping: { title: { column: 'Name' }, description: { value: 'From the sample list' } } } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const listed = await call(t.app, { method: 'GET', url: `${API_BASE}/imports/mappings?category=victims`, headers: author.auth });
    expect(listed.body).toEqual([expect.objectContaining({ name: 'Sample village list', mapping: { title: { column: 'Name' }, description: { value: 'From the sample list' } } })]);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/imports/mappings?category=victims`, headers: other.auth })).body).toEqual([]);
  });
});
