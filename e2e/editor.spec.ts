import { expect, test, type Page } from './fixtures';
import { PICKER_CATEGORIES, uploadFields, type CategoryDef, type FieldDef } from '../packages/shared/src/index';
import en from '../apps/web/src/locales/en.json' with { type: 'json' };
import { addSource, apiSignIn, createAdmin, createContributor, SUPER, samplePngs, sampleMp4, useToken } from './editor-helpers';

const SOURCE = { kind: 'media', title: 'Sample source cited by the browser test (test only)', url: 'https://example.org/sample-source' } as const;

/** English label of a registry field, as the form shows it. */
function label(field: FieldDef): string {
  const [group, key] = field.label.split('.') as [keyof typeof en, string];
  return (en[group] as Record<string, string>)[key]!;
}

function sampleValue(field: FieldDef, title: string): string {
  switch (field.kind) {
    case 'markdown':
      return 'Sample description written by the browser test (test only).';
    case 'datetime':
    case 'date':
      return '2024-03-05T10:20:30';
    case 'quantity':
      return '12';
    case 'url':
      return 'https://example.org/sample';
    case 'urlList':
      return 'https://example.org/a, https://example.org/b';
    case 'coordinate':
      return field.axis === 'latitude' ? '11.5' : '37.5';
    default:
      return field.name === 'title' ? title : `Sample ${field.name}`;
  }
}

/** Fills the add form of `category` from the registry and submits it; returns the created record's id. */
async function createThroughDashboard(page: Page, category: CategoryDef, title: string): Promise<string> {
  await page.goto('/dashboard');
  await expect(page.getByText('You can add victims, massacres and displacements')).toBeVisible();
  await page.getByLabel('Category').selectOption({ label: category.pickerLabel });
  for (const field of category.fields) {
    // The sources are a group of inputs, filled through their own editor.
    if (field.kind === 'sources') {
      await addSource(page, SOURCE);
      continue;
    }
    const input = page.getByLabel(label(field), { exact: true });
    if (field.kind === 'image') await input.setInputFiles((await samplePngs(1))[0]!);
    else if (field.kind === 'images') await input.setInputFiles(await samplePngs(2));
    else if (field.kind === 'video') await input.setInputFiles(sampleMp4());
    else if (field.kind === 'region') await input.selectOption({ label: 'Amhara' });
    else if (field.kind === 'choice' && (await input.evaluate((el) => el.tagName)) === 'SELECT') await input.selectOption(field.options![0]!);
    else if (field.kind === 'choice') await input.fill(field.options![0]!);
    // Linking a person to an incident has a test of its own; here the optional link stays empty.
    else if (field.kind !== 'incident') await input.fill(sampleValue(field, title));
  }
  // Chosen images are previewed before sending.
  if (uploadFields(category).some((f) => f.kind !== 'video')) await expect(page.getByRole('list', { name: 'Chosen files' }).locator('img').first()).toBeVisible();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.accept();
  });
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/v1.0.0/${category.slug}`));
  await page.getByRole('button', { name: 'Submit' }).click();
  const res = await created;
  expect(res.status(), await res.text()).toBe(201);
  if (category.media === 'video') expect(dialogs).toContain('Uploading the video, check the video in the videos sections after some minutes');
  await expect(page).toHaveURL(new RegExp(`${category.route}$`));
  await expect(page.getByText(title).first()).toBeVisible();
  return ((await res.json()) as { _id: string })._id;
}

async function editTitle(page: Page, category: CategoryDef, id: string, oldTitle: string, newTitle: string) {
  await page.goto(`${category.route}/edit/${id}`);
  const title = page.getByLabel('Title', { exact: true });
  await expect(title).toHaveValue(oldTitle);
  await title.fill(newTitle);
  await page.getByRole('button', { name: 'Update' }).click();
  if (category.redirectDelayMs) await expect(page.getByText('Saved. Opening the video page in 3 seconds.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${category.route}/${id}$`), { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: newTitle })).toBeVisible();
  // The edit kept the source cited when the record was added.
  if (category.fields.some((f) => f.kind === 'sources')) await expect(page.getByTestId('record-sources').getByRole('link', { name: SOURCE.title })).toHaveAttribute('href', SOURCE.url);
}

const ROLES = ['contributor', 'admin', 'super'] as const;

for (const role of ROLES) {
  test.describe(`signed in as ${role}`, () => {
    let token = '';
    test.beforeAll(async ({ request }) => {
      if (role === 'super') token = await apiSignIn(request, SUPER.email, SUPER.password);
      else token = (role === 'admin' ? await createAdmin(request, role) : await createContributor(request, role)).token;
    });

    for (const category of PICKER_CATEGORIES) {
      test(`creates and edits a ${category.slug} record through the dashboard`, async ({ page }) => {
        await useToken(page, token);
        const title = `Sample ${category.slug} by ${role} ${Date.now()}`;
        const id = await createThroughDashboard(page, category, title);
        await editTitle(page, category, id, title, `${title} edited`);
      });
    }
  });
}
