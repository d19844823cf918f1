import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_LIST } from '@app/shared';
import { createTestApp, type TestApp } from './helpers';

/**
 * Every page of the web app is served by a route declared for it (issue 41 item 4), not by the not-found handler:
 * the pages of the web router (apps/web/src/app/router.tsx) are the routes the server declares.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** The literal page paths of the web router, plus the ones it makes for each category. */
function routerPages(): string[] {
  const source = readFileSync(new URL('../../web/src/app/router.tsx', import.meta.url), 'utf8');
  const literal = [...source.matchAll(/\bpath: '([^']*)'/g)].map((m) => m[1]!).filter((p) => p !== '*');
  const categories = CATEGORY_LIST.flatMap((c) => [c.route, `${c.route}/:id`, `${c.route}/edit/:id`]);
  return ['/', ...literal.map((p) => `/${p}`), ...categories];
}

describe('pages of the web app', () => {
  it('each has a declared GET route', () => {
    const pages = routerPages();
    expect(pages.length).toBeGreaterThan(30);
    expect(pages.filter((url) => !t.app.hasRoute({ method: 'GET', url }))).toEqual([]);
  });

  it('an address that is no page still gets the HTML 404 page, and an unknown API address its JSON 404', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/no-such-page-here' });
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const api = await t.app.inject({ method: 'GET', url: '/api/v1.0.0/no-such-thing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ message: expect.stringMatching(/No such address/) });
  });
});
