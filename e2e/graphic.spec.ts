import { expect, test } from './fixtures';
import sharp from 'sharp';

const API = '/api/v1.0.0';
const SUPER = { email: 'e2e-super@example.test', password: 'e2e super password (test only)' };

test('an image flagged graphic is blurred on the public page until the reader chooses to see it', async ({ page, request }) => {
  const signin = await request.post('/api/users/signin', { data: SUPER });
  const headers = { authorization: `Bearer ${((await signin.json()) as { token: string }).token}` };
  const form = new FormData();
  form.append('title', 'Graphic image test record');
  form.append('description', 'Test record, not real data.');
  const png = await sharp({ create: { width: 80, height: 60, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();
  form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'graphic-test.png');
  const created = await request.post(`${API}/victims`, { headers, multipart: form });
  expect(created.status()).toBe(201);
  const record = (await created.json()) as { _id: string; images: { imageId: string }[] };
  const flag = await request.put(`${API}/images/${record.images[0]!.imageId}/graphic`, { headers, data: { graphic: true } });
  expect(flag.status(), await flag.text()).toBe(200);

  await page.goto(`/victims/${record._id}`);
  await expect(page.getByText('This image may be disturbing.')).toBeVisible();
  const hidden = page.locator('.graphic-guard-media img').first();
  await expect(hidden).toBeAttached();
  expect(await hidden.evaluate((img) => getComputedStyle(img.closest('.graphic-guard-media')!).filter)).toMatch(/blur/);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByText('This image may be disturbing.')).toHaveCount(0);
  await expect(page.locator('main img[alt*="Graphic image test record"]').first()).toBeVisible();
});
