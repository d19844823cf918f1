import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, type SearchResponse } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from './helpers';

/**
 * GET /search. Every record here is invented test data (made-up names and places), labelled as such in its text.
 */
const LABEL = 'Test data, not a real record.';

describe('search', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUser>>;
  const ids: Record<string, string> = {};

  async function create(name: string, category: string, fields: Record<string, string>) {
    const res = await call(t.app, { method: 'POST', url: `${API_BASE}/${category}`, headers: admin.auth, payload: { ...fields } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids[name] = res.body._id;
    return res.body._id as string;
  }

  const search = async (query: string, headers: Record<string, string> = {}) => {
    const res = await call(t.app, { method: 'GET', url: `${API_BASE}/search?${query}`, headers });
    return { ...res, body: res.body as SearchResponse };
  };
  const hitIds = (body: SearchResponse) => body.hits.map((hit) => hit.record._id);
  const facet = (body: SearchResponse, name: keyof SearchResponse['facets'], value: string) =>
    body.facets[name].find((f) => f.value === value)?.count ?? 0;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t.app, 'admin');
    await create('amharic', 'victims', {
      title: 'Invented victim Zelalem Quorvath (test data)',
      fullName: 'Zelalem Tirun Quorvath',
      description: `${LABEL} የሙከራ መረጃ። ቃልኪዳንፍሬ ብቻ`,
      region: 'amhara',
      victimizer: 'Invented group Alpha',
      killingType: 'Invented type One',
      happenedOn: '2021-03-04T05:06:07',
    });
    await create('phrase', 'massacres', {
      title: 'Invented massacre at Tarvel Ridge (test data)',
      caseNum: 'TEST-SEARCH-1',
      quantity: '3',
      description: `${LABEL} Witnesses described the blue lantern crossing before dawn.`,
      region: 'afar',
      victimizer: 'Invented group Alpha',
      killingType: 'Invented type Two',
      happenedOn: '2022-07-01T00:00:00',
    });
    await create('scrambled', 'massacres', {
      title: 'Invented massacre at Orvin Hollow (test data)',
      caseNum: 'TEST-SEARCH-2',
      quantity: '2',
      description: `${LABEL} The lantern was blue and nobody was crossing.`,
      victimizer: 'Invented group Beta',
      happenedOn: '2022-08-01T00:00:00',
    });
    // Each one an anonymous visitor must never find: private, trashed, unapproved and private. All carry the word
    // "sharedmarker", as does one visible record, so the counts show whether they leaked.
    await create('visible', 'victims', { title: 'Invented visible victim (test data)', fullName: 'Invented Visible', description: `${LABEL} sharedmarker`, region: 'tigray' });
    const hidden = await create('private', 'massacres', {
      title: 'Invented private massacre (test data)',
      caseNum: 'TEST-SEARCH-P',
      quantity: '1',
      description: `${LABEL} sharedmarker privateonly`,
      region: 'oromia',
      victimizer: 'Invented group Hidden',
    });
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/approve/${hidden}`, headers: admin.auth })).status).toBe(200);
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${hidden}/access`, headers: admin.auth })).status).toBe(200);
    const unapprovedPrivate = await create('unapprovedPrivate', 'events', {
      title: 'Invented unapproved private event (test data)',
      description: `${LABEL} sharedmarker unapprovedonly`,
      region: 'oromia',
    });
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/events/${unapprovedPrivate}/access`, headers: admin.auth })).status).toBe(200);
    const trashed = await create('trashed', 'victims', {
      title: 'Invented trashed victim (test data)',
      fullName: 'Invented Trashed',
      description: `${LABEL} sharedmarker trashedonly`,
      region: 'oromia',
    });
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/victims/${trashed}/delete`, headers: admin.auth })).status).toBe(200);
    for (let i = 0; i < 7; i++) {
      await create(`paged${i}`, 'links', { title: `Invented paged link ${i} (test data)`, description: `${LABEL} pagingword`, linkURL: `https://example.org/test-${i}` });
    }
  });
  afterAll(async () => t.close());

  it('finds an Amharic-script word, also one written before Ge\'ez punctuation', async () => {
    for (const word of ['ቃልኪዳንፍሬ', 'መረጃ']) {
      const { status, body } = await search(`q=${encodeURIComponent(word)}`);
      expect(status).toBe(200);
      expect(hitIds(body)).toEqual([ids.amharic]);
      expect(body.hits[0]!.snippet.filter((part) => part.match).map((part) => part.text)).toEqual([word]);
    }
  });

  it('finds a name misspelt by one letter, and not by an unrelated word', async () => {
    // A five-letter name with one letter wrong shares only half its trigrams with the right one.
    for (const misspelt of ['Quorvth', 'Quarvath', 'Zelalam Quorvath', 'Tiron']) {
      const { body } = await search(`q=${encodeURIComponent(misspelt)}`);
      expect(hitIds(body), misspelt).toContain(ids.amharic);
    }
    expect(hitIds((await search('q=Xyzzyplugh')).body)).toEqual([]);
  });

  it('finds a quoted phrase only where its words stand together, and ranks closer matches first', async () => {
    const phrase = await search(`q=${encodeURIComponent('"blue lantern crossing"')}`);
    expect(hitIds(phrase.body)).toEqual([ids.phrase]);
    expect(phrase.body.hits[0]!.snippet.some((part) => part.match && part.text.toLowerCase().includes('lantern'))).toBe(true);
    const words = await search('q=blue+lantern+crossing');
    expect(hitIds(words.body)).toEqual([ids.phrase, ids.scrambled]);
  });

  it('snippets are plain text pieces: a record cannot inject markup or a highlight', async () => {
    const { body } = await search('q=lantern');
    for (const hit of body.hits) {
      for (const part of hit.snippet) {
        expect(Object.keys(part).sort()).toEqual(['match', 'text']);
        expect(part.text).not.toMatch(/[\uE000\uE001]/);
      }
    }
  });

  it('counts facets of what it finds', async () => {
    const { body } = await search('q=invented&category=massacres&category=victims');
    expect(body.total).toBe(4);
    expect(facet(body, 'category', 'massacres')).toBe(2);
    expect(facet(body, 'category', 'victims')).toBe(2);
    expect(facet(body, 'region', 'amhara')).toBe(1);
    expect(facet(body, 'region', 'unknown')).toBe(1);
    expect(facet(body, 'victimizer', 'Invented group Alpha')).toBe(2);
    expect(facet(body, 'killingType', 'Invented type Two')).toBe(1);
    expect(facet(body, 'year', '2022')).toBe(2);
    expect(facet(body, 'confirmed', 'false')).toBe(4);
    const filtered = await search('victimizer=Invented+group+Alpha&region=afar');
    expect(hitIds(filtered.body)).toEqual([ids.phrase]);
    const dated = await search('from=2022-07-15&to=2022-12-31');
    expect(hitIds(dated.body)).toEqual([ids.scrambled]);
    const unknownRegion = await search('region=unknown&category=massacres');
    expect(hitIds(unknownRegion.body)).toEqual([ids.scrambled]);
  });

  describe('what anonymous visitors never find', () => {
    for (const [name, word] of [
      ['private', 'privateonly'],
      ['trashed', 'trashedonly'],
      ['unapprovedPrivate', 'unapprovedonly'],
    ] as const) {
      it(`a ${name} record, by its own word or in counts`, async () => {
        const own = await search(`q=${word}`);
        expect(own.status).toBe(200);
        expect(own.body.total).toBe(0);
        expect(hitIds(own.body)).not.toContain(ids[name]);
        const shared = await search('q=sharedmarker');
        expect(hitIds(shared.body)).toEqual([ids.visible]);
        expect(shared.body.total).toBe(1);
        expect(facet(shared.body, 'region', 'oromia')).toBe(0);
        const all = await search('limit=50');
        expect(hitIds(all.body)).not.toContain(ids[name]);
        expect(all.body.facets.region.find((f) => f.value === 'oromia')).toBeUndefined();
      });
    }

    it('signed-in editors find private ones (and still not trashed ones)', async () => {
      const editor = await createUser(t.app, 'contributor');
      const { body } = await search('q=sharedmarker', editor.auth);
      expect(hitIds(body).sort()).toEqual([ids.visible, ids.private, ids.unapprovedPrivate].sort());
      expect(facet(body, 'region', 'oromia')).toBe(2);
    });
  });

  it('keyset paging returns every match once, with words and without', async () => {
    for (const query of ['q=pagingword&limit=3', 'category=links&limit=2', 'q=invented&limit=4']) {
      const first = await search(query);
      const seen: string[] = [];
      let body = first.body;
      for (let pages = 0; pages < 20; pages++) {
        seen.push(...hitIds(body));
        if (!body.nextCursor) break;
        body = (await search(`${query}&cursor=${body.nextCursor}`)).body;
      }
      expect(new Set(seen).size, query).toBe(seen.length);
      expect(seen.length, query).toBe(first.body.total);
    }
  });

  it('normalised parameters share one cache entry: order, repeats and spacing', async () => {
    const entries = () => t.app.publicCache.stats().entries;
    const first = await call(t.app, { method: 'GET', url: `${API_BASE}/search?q=invented&region=afar&region=amhara` });
    expect(first.status).toBe(200);
    const after = entries();
    for (const url of [
      `${API_BASE}/search?region=amhara&q=invented&region=afar`,
      `${API_BASE}/search?region=afar&region=amhara&region=afar&q=invented`,
      `${API_BASE}/search?q=%20invented%20&region=amhara&region=afar&_b=123`,
      `${API_BASE}/search?q=invented&region=amhara&region=afar&limit=20`,
    ]) {
      const res = await call(t.app, { method: 'GET', url });
      expect(res.status).toBe(200);
      expect(res.raw.body).toBe(first.raw.body);
    }
    expect(entries()).toBe(after);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/search?q=invented&region=afar` })).status).toBe(200);
    expect(entries()).toBe(after + 1);
  });

  it('the search page is cached per search: one entry per normalised search, none for a bad one', async () => {
    const stats = () => t.app.publicCache.stats();
    const page = (url: string) => call(t.app, { method: 'GET', url });
    const first = await page('/search?q=invented&region=afar');
    expect(first.status).toBe(200);
    const before = stats();
    const again = await page('/search?region=afar&q=%20invented&utm_source=x');
    expect(again.raw.body).toBe(first.raw.body);
    expect(stats().entries).toBe(before.entries);
    expect((await page('/search?q=lantern')).status).toBe(200);
    expect(stats().entries).toBeGreaterThan(before.entries);
    const entries = stats().entries;
    expect((await page('/search?from=not-a-date')).status).toBe(200);
    expect(stats().entries).toBe(entries);
  });

  it('a change of records clears cached searches', async () => {
    const before = await search('q=latecomer');
    expect(before.body.total).toBe(0);
    await create('late', 'victims', { title: 'Invented latecomer victim (test data)', description: LABEL });
    expect(hitIds((await search('q=latecomer')).body)).toEqual([ids.late]);
  });

  it('a snippet follows an edit of its record (snippets are kept until records change)', async () => {
    const id = await create('edited', 'victims', { title: 'Invented edited victim (test data)', description: `${LABEL} snipword before the edit` });
    const shown = async () => {
      // Signed in: never answered from the response cache, so the snippet is the search's own each time.
      const { body } = await search('q=snipword', admin.auth);
      expect(hitIds(body)).toEqual([id]);
      return body.hits[0]!.snippet.map((part) => part.text).join('');
    };
    expect(await shown()).toContain('snipword before the edit');
    expect(await shown()).toContain('snipword before the edit');
    const edit = await call(t.app, { method: 'PUT', url: `${API_BASE}/victims/${id}/edit`, headers: admin.auth, payload: { description: `${LABEL} snipword after the edit` } });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(await shown()).toContain('snipword after the edit');
  });

  it('bad parameters: 400 with the field named', async () => {
    const cases: [string, string][] = [
      ['category=nonsense', 'category'],
      ['region=atlantis', 'region'],
      ['from=2021-02-30', 'from'],
      ['from=yesterday', 'from'],
      ['from=2022-01-01&to=2021-01-01', 'to'],
      ['confirmed=maybe', 'confirmed'],
      ['limit=0', 'limit'],
      ['limit=500', 'limit'],
      ['limit=abc', 'limit'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['cursor=notacursor', 'cursor'],
      // A rank belongs to a search with words; without words there is nothing to rank.
      [`cursor=${Buffer.from(JSON.stringify({ rank: '0.5', id: '00000000-0000-4000-8000-000000000000' })).toString('base64url')}`, 'cursor'],
    ];
    for (const [query, field] of cases) {
      for (const headers of [{}, admin.auth]) {
        const res = await call(t.app, { method: 'GET', url: `${API_BASE}/search?${query}`, headers });
        expect(res.status, query).toBe(400);
        expect(Object.keys(res.body), query).toContain(field);
      }
    }
  });

  it('is in the OpenAPI document', async () => {
    const doc = await call(t.app, { method: 'GET', url: '/api/docs/json' });
    const operation = doc.body.paths[`${API_BASE}/search`]?.get;
    expect(operation).toBeDefined();
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['q', 'category', 'region', 'cursor', 'limit']));
  });
});
