import { describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { useTestApp } from './fixtures/app';

describe('keyset paging', () => {
  const { t } = useTestApp();

  // PostgreSQL stores microseconds; a cursor rounded to a JavaScript Date's milliseconds skipped every record of the
  // same millisecond as a page's last one. One statement gives all of these one created_at.
  it('reaches every record once, also those created in one instant', async () => {
    await t.database.query(
      `insert into records (category, title, description, sample) select 'orphans', 'Paging test ' || n, 'Test data, not real.', true from generate_series(1, 120) n`,
    );
    await t.database.query(`insert into records (category, title, description, sample) values ('orphans', 'Paging test later', 'Test data, not real.', true)`);
    const seen: string[] = [];
    let url = `${API_BASE}/orphans?limit=50`;
    for (let pages = 0; url && pages < 10; pages++) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      seen.push(...(res.json() as { _id: string }[]).map((r) => r._id));
      const next = res.headers['x-next-cursor'];
      url = typeof next === 'string' ? `${API_BASE}/orphans?limit=50&cursor=${next}` : '';
    }
    expect(seen).toHaveLength(121);
    expect(new Set(seen).size).toBe(121);
  });

  it('refuses a cursor that is not one it made', async () => {
    const forged = Buffer.from('2024-01-01 00:00|not-an-id').toString('base64url');
    const res = await t.app.inject({ method: 'GET', url: `${API_BASE}/orphans?cursor=${forged}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('cursor');
  });
});
