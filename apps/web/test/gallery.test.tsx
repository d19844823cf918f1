import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../src/lib/i18n';
import GalleryPage from '../src/features/gallery/GalleryPage';
import ImageViewerPage from '../src/features/gallery/ImageViewerPage';
import { json, mockFetch, renderScreen } from './helpers';

/** Gallery items of test records (no real person or place). */
const item = (n: number) => ({
  _id: `img-${n}`,
  imageId: `img-${n}`,
  imageUrl: `/media/public/test-${n}.jpg`,
  variants: [],
  width: 400,
  height: 300,
  caption: n === 2 ? 'Test caption two' : null,
  graphic: false,
  recordId: `00000000-0000-4000-8000-00000000000${n}`,
  category: 'victims',
  title: `Test record ${n}`,
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The API of /images: `items` in order, paged by limit and offset, the total in X-Total-Count. */
function galleryApi(items: ReturnType<typeof item>[]) {
  return mockFetch((url) => {
    const one = /\/images\/([^/]+)$/.exec(url.pathname);
    if (one) return json(items.find((i) => i._id === one[1]) ?? {}, items.some((i) => i._id === one[1]) ? 200 : 404);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    return json(items.slice(offset, offset + limit), 200, { 'x-total-count': String(items.length) });
  });
}

describe('/images gallery', () => {
  it('shows the count in the title and a thumbnail per image, each opening the viewer', async () => {
    galleryApi([item(1), item(2), item(3)]);
    renderScreen(<GalleryPage />, { url: '/images' });
    expect(await screen.findByRole('heading', { name: 'Images (3)' })).toBeInTheDocument();
    const thumbs = screen.getAllByTestId('gallery-thumb');
    expect(thumbs.map((a) => a.getAttribute('href'))).toEqual(['/images/img-1', '/images/img-2', '/images/img-3']);
    expect(screen.getByRole('img', { name: 'Test record 2' })).toHaveAttribute('src', '/media/public/test-2.jpg');
  });

  it('says "No image found" when there is none', async () => {
    galleryApi([]);
    renderScreen(<GalleryPage />, { url: '/images' });
    expect(await screen.findByText('No image found')).toBeInTheDocument();
  });
});

describe('/images/{id} viewer', { timeout: 20_000 }, () => {
  it('shows n/total, hides the left arrow at the first image and the right at the last, and moves by arrow keys', async () => {
    galleryApi([item(1), item(2), item(3)]);
    const user = userEvent.setup();
    renderScreen(<ImageViewerPage />, { url: '/images/img-2', path: '/images/:id' });
    expect(await screen.findByText('Test caption two')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('viewer-position')).toHaveTextContent('2/3'));
    expect(screen.getByTestId('viewer-previous')).toHaveAttribute('href', '/images/img-1');
    expect(screen.getByTestId('viewer-next')).toHaveAttribute('href', '/images/img-3');
    expect(screen.getByRole('link', { name: 'From the record: Test record 2' })).toHaveAttribute('href', '/victims/00000000-0000-4000-8000-000000000002');
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(screen.getByTestId('viewer-position')).toHaveTextContent('3/3'));
    expect(screen.queryByTestId('viewer-next')).toBeNull();
    expect(screen.getByTestId('viewer-previous')).toHaveAttribute('href', '/images/img-2');
  });

  it('a single image shows no arrows and no "1/1"', async () => {
    galleryApi([item(1)]);
    renderScreen(<ImageViewerPage />, { url: '/images/img-1', path: '/images/:id' });
    expect(await screen.findByRole('img', { name: 'Test record 1' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Loading...')).toBeNull());
    // Wait for the neighbours' answer before asserting what it leaves out.
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('viewer-position')).toBeNull();
    expect(screen.queryByTestId('viewer-previous')).toBeNull();
    expect(screen.queryByTestId('viewer-next')).toBeNull();
  });
});
