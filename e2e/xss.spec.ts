import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { expect, test, type Page } from './fixtures';
import { apiSignIn, linkFromOutbox, SUPER, TEST_PASSWORD, uniqueEmail, useToken } from './editor-helpers';
import { CATEGORY_ROUTES } from '../packages/shared/src/index';

/**
 * Stored XSS in a real browser. The payloads of e2e/xss/payloads.txt (OWASP filter-evasion and
 * PortSwigger vectors, see the README beside it) go into every text field of every category, image captions and file
 * names, user names, a representative's note and a campaign letter; then every page that shows them is opened with
 * alert, confirm, prompt and print hooked and a global counter watched. Before any payload is stored, the site's own
 * pages are opened with the CSP's violation events recorded: an enforcing policy, and none raised by the site itself.
 * All content here is test data.
 */

const PAYLOADS = readFileSync(new URL('./xss/payloads.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '');
const API = '/api/v1.0.0';
const ROUTES: Record<string, string> = CATEGORY_ROUTES;
const IMAGE_FIELD: Record<string, string> = { victims: 'image', massacres: 'files[]', events: 'files[]' };

type Watch = { executions: string[]; violations: string[]; liveHandlers: number };

/** Hooks every frame of `page`: dialogs, print, the payloads' global counter, and CSP violation events. */
async function hook(page: Page, dialogs: string[]) {
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    const fired: string[] = [];
    const violations: string[] = [];
    w.__xssFired = fired;
    w.__cspViolations = violations;
    for (const name of ['alert', 'confirm', 'prompt', 'print']) {
      Object.defineProperty(window, name, { value: (...args: unknown[]) => void fired.push(`${name}(${args.map(String).join(',')})`), writable: false, configurable: false });
    }
    document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} in ${e.sourceFile || location.pathname}: ${e.sample}`));
  });
}

/** What ran, what the CSP refused, and how many elements carry an inline event handler attribute (none should). */
async function inspect(page: Page): Promise<Watch> {
  // Lazy images, animations and autofocus get a moment to fire.
  await page.waitForTimeout(150);
  return page.evaluate(() => {
    const w = window as unknown as { __xssFired: string[]; __cspViolations: string[]; __xss?: number };
    let liveHandlers = 0;
    for (const el of Array.from(document.querySelectorAll('*'))) {
      if (Array.from(el.attributes).some((a) => a.name.toLowerCase().startsWith('on'))) liveHandlers++;
    }
    const executions = [...w.__xssFired];
    if (w.__xss) executions.push(`window.__xss = ${w.__xss}`);
    return { executions, violations: [...w.__cspViolations], liveHandlers };
  });
}

/** Payloads packed into a field of `maxLength`, starting at `from`, separated by blank lines (one per line in Markdown). */
function pack(from: number, maxLength: number, label: string): { text: string; next: number } {
  let text = `${label} (test data) `;
  let i = from;
  while (i < from + PAYLOADS.length) {
    const candidate = `${text}\n\n${PAYLOADS[i % PAYLOADS.length]}`;
    if (candidate.length > maxLength) break;
    text = candidate;
    i++;
  }
  return { text, next: i };
}

test('no stored payload runs in any page that shows it, and the CSP is enforcing with no violation from the site', async ({ page, request }) => {
  test.setTimeout(15 * 60_000);
  expect(PAYLOADS.length).toBeGreaterThanOrEqual(100);
  const dialogs: string[] = [];
  await hook(page, dialogs);

  // The hooks see a call: otherwise "0 executions" would prove nothing.
  await page.goto('/about');
  await page.evaluate(() => window.alert('hook self-check'));
  expect((await inspect(page)).executions).toEqual(['alert(hook self-check)']);

  // 1. The site's own pages, before any payload exists: the policy is enforced and nothing violates it.
  const sitePages = ['/', '/about', '/images', '/reports', ...Object.values(ROUTES), '/signin', '/signup'];
  const ownViolations: string[] = [];
  for (const url of sitePages) {
    const response = await page.goto(url);
    const headers = response!.headers();
    expect(headers['content-security-policy'], url).toBeTruthy();
    expect(headers['content-security-policy-report-only'], url).toBeUndefined();
    const scriptSrc = /script-src ([^;]*)/.exec(headers['content-security-policy']!)?.[1] ?? '';
    expect(scriptSrc, url).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    const seen = await inspect(page);
    ownViolations.push(...seen.violations.map((v) => `${url}: ${v}`));
  }
  console.log(`xss: CSP enforcing on ${sitePages.length} site pages, ${ownViolations.length} violations raised by the site's own pages`);
  expect(ownViolations).toEqual([]);

  // 2. Payloads stored through the API.
  const superToken = await apiSignIn(request, SUPER.email, SUPER.password);
  const auth = { authorization: `Bearer ${superToken}` };
  const doc = (await (await request.get('/api/docs/json')).json()) as { paths: Record<string, Record<string, any>> };
  const visits: string[] = [];
  const created: { slug: string; id: string }[] = [];
  let cursor = 0;
  const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 90, g: 20, b: 20 } } }).png().toBuffer();

  for (const [slug, route] of Object.entries(ROUTES)) {
    const schema = doc.paths[`${API}/${slug}`]!.post!.requestBody.content['application/json'].schema as { properties: Record<string, any> };
    const textFields = Object.entries(schema.properties).filter(([name, s]) => name === 'title' || name === 'description' || (s.type === 'string' && !s.format && !s.enum && name !== 'files'));
    // Three records per category, each field holding a different run of payloads, the Markdown description all of them.
    for (let n = 0; n < 3; n++) {
      const fields: Record<string, string> = {};
      for (const [name, s] of textFields) {
        const max = name === 'description' ? 60_000 : name === 'title' ? 200 : Math.min(s.maxLength ?? 300, 2000);
        const packed = pack(cursor, max, `XSS ${slug} ${name}`);
        fields[name] = packed.text;
        cursor = packed.next % PAYLOADS.length;
      }
      const form: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = { ...fields };
      // The sources a record cites are shown on its page: their free text carries payloads too (JSON text in multipart).
      if (schema.properties.sources) {
        const text = (k: number) => pack((cursor + k) % PAYLOADS.length, 200, `XSS ${slug} source`).text;
        form.sources = JSON.stringify([{ kind: 'media', title: text(0), publisher: text(1), note: text(2) }]);
      }
      if (IMAGE_FIELD[slug]) form[IMAGE_FIELD[slug]!] = { name: `${PAYLOADS[(cursor + n) % PAYLOADS.length]!.slice(0, 120)}.png`, mimeType: 'image/png', buffer: png };
      let res = await request.post(`${API}/${slug}`, { headers: auth, multipart: form });
      if (res.status() === 400) {
        // A field whose own rules refuse payload text (a required URL): a plain test URL there, payloads everywhere else.
        const problems = (await res.json()) as Record<string, string>;
        // The link to an incident takes only a record's id: the optional link stays out.
        for (const name of Object.keys(problems)) {
          if (name === 'incidentId') delete form[name];
          else form[name] = 'https://example.org/xss-test-data';
        }
        res = await request.post(`${API}/${slug}`, { headers: auth, multipart: form });
      }
      expect(res.status(), `${slug}: ${await res.text()}`).toBe(201);
      const record = (await res.json()) as { _id: string; images?: { imageId?: string; _id?: string }[] };
      created.push({ slug, id: record._id });
      visits.push(`${route}/${record._id}`);
      if (n === 0) visits.push(`${route}/edit/${record._id}`);
      for (const image of record.images ?? []) {
        const imageId = image.imageId ?? image._id;
        if (!imageId) continue;
        const caption = pack(cursor, 1000, 'XSS caption');
        cursor = caption.next % PAYLOADS.length;
        const edited = await request.put(`${API}/images/${imageId}/edit`, { headers: auth, multipart: { caption: caption.text } });
        expect(edited.status(), await edited.text()).toBe(200);
        visits.push(`/images/${imageId}`, `/images/edit/${imageId}`);
      }
    }
    visits.push(route);
  }
  // Private and trashed ones too, for the signed-in views that show them.
  const privateOne = created.find((c) => c.slug === 'massacres')!;
  expect((await request.put(`${API}/massacres/${privateOne.id}/access`, { headers: auth })).status()).toBe(200);
  const trashed = created.find((c) => c.slug === 'victims')!;
  expect((await request.delete(`${API}/victims/${trashed.id}/delete`, { headers: auth })).status()).toBe(200);

  // A user whose names are payloads (shown in the users' admin list and the audit log).
  const email = uniqueEmail('xss-user');
  const signup = await request.post('/api/users/signup', {
    data: { firstName: PAYLOADS[0]!.slice(0, 100), lastName: PAYLOADS[41]!.slice(0, 100), email, password: TEST_PASSWORD, password2: TEST_PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  expect((await request.post(`/api/users${await linkFromOutbox(email, 'activation')}`)).status()).toBe(200);

  // A representative's note (shown by the campaign form) and a letter (shown on /reports once sent).
  const directory = (await (await request.get(`${API}/campaign/directory`)).json()) as { code: string; provinces: { name: string; representatives: { id: string; district: string; available: boolean }[] }[] }[];
  const canada = directory.find((c) => c.code === 'CA')!;
  const province = canada.provinces.find((p) => p.representatives.filter((r) => r.available).length > 0)!;
  const rep = province.representatives.find((r) => r.available)!;
  const note = await request.put(`${API}/representatives/${rep.id}`, { headers: auth, data: { note: pack(cursor, 500, 'XSS note').text } });
  expect(note.status(), await note.text()).toBe(200);
  const sender = uniqueEmail('xss-sender');
  const letter = await request.post(`${API}/reports`, {
    data: {
      email: sender,
      firstName: 'Samplefirst',
      lastName: 'Testsender',
      country: 'CA',
      province: province.name,
      district: rep.district,
      city: 'Testville',
      streetName: '1 Sample Street',
      zipcode: 'T3S 7T3',
      message: pack(0, 10_000, 'XSS letter').text,
    },
  });
  expect(letter.status(), await letter.text()).toBe(201);
  const confirmation = await (async () => {
    let link: string | null = null;
    await expect
      .poll(async () => {
        const { readdirSync, readFileSync: read } = await import('node:fs');
        const dir = `${process.env.E2E_DATA_DIR}/outbox`;
        for (const f of readdirSync(dir)) {
          const text = read(`${dir}/${f}`, 'utf8').replace(/=\r?\n/g, '');
          if (text.includes(sender)) link = /\/campaign\/confirm\/[A-Za-z0-9_-]+/.exec(text)?.[0] ?? link;
        }
        return link;
      }, { timeout: 15_000 })
      .not.toBeNull();
    return link!;
  })();
  expect((await request.post(`${API}${confirmation}`)).status()).toBe(200);
  await expect.poll(async () => (await (await request.get(`${API}/reports`)).text()).includes('XSS letter'), { timeout: 30_000 }).toBe(true);

  // 3. Every page that shows them, anonymous and then signed in as super (edit forms, admin lists, private records).
  const anonymousPages = ['/', '/images', '/reports', ...visits.filter((v) => !v.includes('/edit/'))];
  const signedInPages = [...visits, `${ROUTES.massacres}/${privateOne.id}`, '/admin/users', '/admin/audit', '/admin/trash', '/dashboard'];
  const executions: string[] = [];
  const injected: string[] = [];
  let opened = 0;
  const open = async (p: Page, url: string) => {
    await p.goto(url);
    opened++;
    const seen = await inspect(p);
    executions.push(...seen.executions.map((e) => `${url}: ${e}`));
    if (seen.liveHandlers) injected.push(`${url}: ${seen.liveHandlers} elements with on* attributes`);
  };
  for (const url of anonymousPages) await open(page, url);
  // The payloads reached the pages, shown as text.
  await page.goto(`${ROUTES.victims}/${created.find((c) => c.slug === 'victims' && c.id !== trashed.id)!.id}`);
  await expect(page.locator('main')).toContainText('XSS victims title (test data)');
  await expect(page.locator('main')).toContainText("javascript:alert('XSS')");
  const admin = await page.context().browser()!.newPage();
  await hook(admin, dialogs);
  await useToken(admin, superToken);
  for (const url of signedInPages) await open(admin, url);
  // The edit form's sources editor holds the payloads as its inputs' values, text like any other.
  const firstVictim = created.find((c) => c.slug === 'victims' && c.id !== trashed.id)!;
  await admin.goto(`${ROUTES.victims}/edit/${firstVictim.id}`);
  const source = admin.getByRole('group', { name: 'Source 1', exact: true });
  await expect(source.getByLabel('Source title')).toHaveValue(/^XSS victims source \(test data\)/);
  await expect(source.getByLabel('Note')).toHaveValue(/^XSS victims source \(test data\)/);
  await admin.close();

  console.log(
    `xss: ${PAYLOADS.length} payloads in ${created.length} records of ${Object.keys(ROUTES).length} categories, captions, file names, user names, a representative's note and a letter; ${opened} page views: ${executions.length + dialogs.length} executions, ${injected.length} pages with injected event-handler attributes`,
  );
  expect(dialogs).toEqual([]);
  expect(executions).toEqual([]);
  expect(injected).toEqual([]);
});
