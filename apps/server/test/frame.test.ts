import { describe, expect, it } from 'vitest';
import { call } from './helpers';
import { useTestApp } from './fixtures/app';
import { seedSampleContent, SAMPLE_PER_CATEGORY } from '../src/seed/sample';
import { CATEGORY_LIST, REGION_CODES, SAMPLE_LABEL, hasPlace } from '@app/shared';

describe('server frame', () => {
  const { t } = useTestApp();

  it('reports database status on /health', async () => {
    const res = await call(t.app, { method: 'GET', url: '/health' });
    expect(res.status).toBe(200);
    expect(res.body.database.status).toBe('ok');
  });

  it('answers unknown API paths with a JSON 404 and client routes with the HTML shell', async () => {
    const api = await call(t.app, { method: 'GET', url: '/api/v1.0.0/nothing-here/at/all' });
    expect(api.status).toBe(404);
    expect(api.body.message).toMatch(/No such address/);
    const page = await t.app.inject({ method: 'GET', url: '/about' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('og:title');
    expect(page.body).toContain('id="app-config"');
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('inserts labelled sample content once, into an empty database only', async () => {
    const { db, media, audit, log } = t.app;
    const first = await seedSampleContent({ db, media, audit, log });
    expect(first.seeded).toBe(true);
    expect(first.password).toMatch(/^[\w-]{16}$/);
    const rows = await t.database.query<{ category: string; subtitle: string; n: number }>(
      'select category, subtitle, count(*)::int as n from records group by category, subtitle',
    );
    expect(rows).toHaveLength(CATEGORY_LIST.length);
    for (const row of rows) {
      expect(row.subtitle).toBe(SAMPLE_LABEL);
      expect(row.n).toBe(SAMPLE_PER_CATEGORY);
    }
    // A fresh site's map and statistics are not empty: every sample record of a category with a place has a region.
    const placed = CATEGORY_LIST.filter(hasPlace).map((c) => `'${c.slug}'`).join(', ');
    const regions = await t.database.query<{ region: string | null }>(`select region from records where category in (${placed})`);
    expect(regions.length).toBeGreaterThan(0);
    for (const { region } of regions) expect(REGION_CODES).toContain(region);
    expect(new Set(regions.map((r) => r.region)).size).toBeGreaterThanOrEqual(5);
    expect((await seedSampleContent({ db, media, audit, log })).seeded).toBe(false);
    // Seeding makes every sample picture: about 30 s on a busy 2-core machine.
  }, 120_000);
});
