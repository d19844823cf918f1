import { readFileSync } from 'node:fs';
import { apiSignIn, samplePngs, sampleMp4, SUPER } from './editor-helpers';
import { expect, test, type APIRequestContext } from './fixtures';

/**
 * Issue 38 item 11 on what the server really answers: a video card shows the poster the media worker made from the
 * uploaded file, and a record with one image shows it without "1/1" or arrows. Records made here are test data.
 */

/** Creates a record with one file in the multipart field `image` (the spec's field for a video too). */
async function createWithFile(request: APIRequestContext, slug: string, title: string, file: { path: string; mimeType: string }) {
  const token = await apiSignIn(request, SUPER.email, SUPER.password);
  const res = await request.post(`/api/v1.0.0/${slug}`, {
    multipart: { title, description: 'Test data.', image: { name: file.path.split('/').at(-1)!, mimeType: file.mimeType, buffer: readFileSync(file.path) } },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { _id: string };
}

test('a video card shows the poster made from the uploaded video, not the "No image" placeholder', async ({ page, request }) => {
  const title = 'Test video with a poster (test data)';
  const video = await createWithFile(request, 'videos', title, { path: sampleMp4(), mimeType: 'video/mp4' });
  // The media worker makes the poster once the upload is stored.
  let poster = '';
  await expect
    .poll(
      async () => {
        const record = (await (await request.get(`/api/v1.0.0/videos/${video._id}`)).json()) as { images: { posterUrl: string | null }[] };
        poster = record.images[0]?.posterUrl ?? '';
        return poster;
      },
      { timeout: 30_000 },
    )
    .toMatch(/^\/media\//);
  await page.goto('/videos');
  const card = page.getByTestId('record-card').filter({ hasText: title });
  const image = card.getByRole('img', { name: title });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(card).not.toContainText('No image');
});

test('a record with one image shows it without a "1/1" counter or arrows', async ({ page, request }) => {
  const [png] = await samplePngs(1);
  const record = await createWithFile(request, 'victims', 'Test victim with one image (test data)', { path: png!, mimeType: 'image/png' });
  await page.goto(`/victims/${record._id}`);
  await expect(page.getByRole('main').getByRole('img', { name: /Test victim with one image/ })).toBeVisible();
  await expect(page.getByTestId('carousel-counter')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Next|Previous)$/ })).toHaveCount(0);
});
