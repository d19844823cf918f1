import { expect, test, appReady, type Page } from './fixtures';
import en from '../apps/web/src/locales/en.json' with { type: 'json' };
import { addSource, apiSignIn, SUPER, useToken } from './editor-helpers';

/**
 * The sources editor of the record form: a super cites two sources through it (a witness testimony withheld for the
 * witness's safety, and a media report), saves, and the record's page lists them numbered; visitors see the testimony
 * only as withheld. The form fits a phone's screen. Test data only: no real person or place.
 */
const WITNESS = { kind: 'witness', title: 'Test witness testimony (test only)', note: 'Test witness detail kept from the public (test only)', language: 'am', withheld: true } as const;
const REPORT = { kind: 'media', title: 'Test media report (test only)', publisher: 'Test Daily (test only)', date: '2021-03', url: 'https://example.org/test-report' } as const;

/** The page is no wider than the screen (a phone's 375 px), nor is anything in the form: the widths, and what overflows. */
async function widestOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const over = Array.from(document.querySelectorAll('.record-form, .record-form *')).filter((el) => el.getBoundingClientRect().right > width + 0.5);
    return [`scrollWidth ${document.documentElement.scrollWidth} of ${width}`, ...over.slice(0, 5).map((el) => `${el.tagName}.${el.className}`)];
  });
}

test('cite two sources through the editor, see them numbered, the withheld testimony withheld from visitors', async ({ page, browser, request }) => {
  const token = await apiSignIn(request, SUPER.email, SUPER.password);
  const title = `Test victim citing sources ${Date.now().toString(36)} (test only)`;
  await useToken(page, token);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/dashboard?category=victims');
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Description', { exact: true }).fill('Test data, not a real person.');
  await expect(page.getByText(en.sourceEditor.none)).toBeVisible();
  const first = await addSource(page, WITNESS);
  await addSource(page, REPORT);
  // The withheld box is a witness's only: choosing another kind hides it.
  await expect(first.getByLabel(en.sourceEditor.withheld)).toBeChecked();
  await expect(page.getByRole('group', { name: 'Source 2', exact: true }).getByLabel(en.sourceEditor.withheld)).toHaveCount(0);
  expect(await widestOverflow(page)).toEqual(['scrollWidth 375 of 375']);
  await page.screenshot({ path: test.info().outputPath('sources-form-375.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('group', { name: 'Sources', exact: true }).screenshot({ path: test.info().outputPath('sources-form-1280.png') });

  const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1.0.0/victims'));
  await page.getByRole('button', { name: 'Submit' }).click();
  const res = await created;
  expect(res.status(), await res.text()).toBe(201);
  const { _id: id, sources } = (await res.json()) as { _id: string; sources: unknown };
  expect(sources).toEqual([WITNESS, REPORT]);

  // Its editor reads both, numbered, the testimony marked as withheld from the public.
  await page.goto(`/victims/${id}`);
  const items = page.getByTestId('record-sources').getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText(WITNESS.title);
  await expect(items.nth(0)).toContainText(en.sources.withheldMark);
  await expect(items.nth(1).getByRole('link', { name: REPORT.title })).toHaveAttribute('href', REPORT.url);
  await expect(items.nth(1)).toContainText(REPORT.publisher);

  // A visitor sees that a testimony exists, nothing of it.
  const visitor = await browser.newPage();
  await visitor.goto(`/victims/${id}`);
  await appReady(visitor);
  const seen = visitor.getByTestId('record-sources').getByRole('listitem');
  await expect(seen).toHaveCount(2);
  await expect(seen.nth(0)).toHaveText(en.sources.withheld);
  await expect(visitor.getByTestId('record-sources')).not.toContainText(WITNESS.title);
  await expect(visitor.getByTestId('record-sources')).not.toContainText(WITNESS.note);
  await expect(seen.nth(1)).toContainText(REPORT.title);
  await visitor.close();

  // The edit form starts from the stored sources; a refused link shows beside its input, and the rest is kept.
  await page.goto(`/victims/edit/${id}`);
  const report = page.getByRole('group', { name: 'Source 2', exact: true });
  await expect(page.getByRole('group', { name: 'Source 1', exact: true }).getByLabel(en.sourceEditor.note)).toHaveValue(WITNESS.note);
  await report.getByLabel(en.sourceEditor.url).fill('ftp://example.org/not-a-web-link');
  await page.getByRole('button', { name: 'Update' }).click();
  const link = report.getByLabel(en.sourceEditor.url);
  await expect(link).toBeFocused();
  await expect(link).toHaveAccessibleDescription('Link must start with http:// or https://');
  await expect(report.getByLabel(en.sourceEditor.title)).toHaveValue(REPORT.title);
});
