import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATEGORIES, type MediaDto } from '@app/shared';
import '../src/lib/i18n';
import { session } from '../src/lib/session';
import { Carousel } from '../src/components/Carousel';
import DetailPage from '../src/features/records/DetailPage';
import EditPage from '../src/features/records/EditPage';
import ImageEditPage from '../src/features/gallery/ImageEditPage';
import { MassacreTable } from '../src/features/records/MassacreTable';
import { RecordCard } from '../src/features/records/RecordCard';
import { testRecord } from './fixtures';
import { json, mockFetch, renderScreen, signIn } from './helpers';

/** Test records only: labelled as test data, naming no real person or place. */
const ID = '00000000-0000-4000-8000-0000000000a1';
const media = (over: Partial<MediaDto>): MediaDto => ({
  imageId: 'm1',
  imageUrl: '/media/public/test.jpg',
  kind: 'image',
  width: 400,
  height: 300,
  variants: [],
  sha256: 'a'.repeat(64),
  caption: null,
  graphic: false,
  status: 'ready',
  ...over,
});

afterEach(() => {
  cleanup();
  session.clear();
  vi.unstubAllGlobals();
});

describe('private records are marked for signed-in readers', () => {
  const secret = testRecord({ _id: ID, category: 'massacres', title: 'Test private massacre', public: false, caseNum: 'TEST-9' });
  const open = testRecord({ _id: '00000000-0000-4000-8000-0000000000a2', category: 'massacres', title: 'Test public massacre', public: true, caseNum: 'TEST-8' });

  it('on cards and in the massacres table: a lock and the word Private, on private records only', () => {
    signIn('someone', 'contributor');
    renderScreen(
      <>
        <RecordCard category={CATEGORIES.massacres} record={secret} />
        <RecordCard category={CATEGORIES.massacres} record={open} />
        <MassacreTable records={[secret, open]} />
      </>,
    );
    const marks = screen.getAllByTestId('private-mark');
    expect(marks).toHaveLength(2);
    for (const mark of marks) {
      expect(mark).toHaveTextContent('Private');
      expect(mark.querySelector('svg')).not.toBeNull();
    }
    expect(within(screen.getAllByTestId('record-card')[0]!).getByTestId('private-mark')).toBeInTheDocument();
    expect(within(screen.getAllByTestId('record-card')[1]!).queryByTestId('private-mark')).toBeNull();
    expect(within(screen.getByRole('table')).getAllByRole('row')[1]).toHaveTextContent('TEST-9 Private');
  });

  it('signed out, no mark (anonymous readers never receive private records)', () => {
    renderScreen(<RecordCard category={CATEGORIES.massacres} record={secret} />);
    expect(screen.queryByTestId('private-mark')).toBeNull();
  });

  it('on the detail page, beside the date', async () => {
    signIn('someone', 'contributor');
    mockFetch(() => json(secret));
    renderScreen(<DetailPage />, { url: `/massacres/${ID}`, path: '/massacres/:id' });
    expect(await screen.findByTestId('private-mark')).toHaveTextContent('Private');
  });
});

describe('the detail page', () => {
  it("always shows the record's title, however many words it has", async () => {
    const title = 'Test record with a title of many more than five words';
    mockFetch(() => json(testRecord({ _id: ID, category: 'victims', title })));
    renderScreen(<DetailPage />, { url: `/victims/${ID}`, path: '/victims/:id' });
    const heading = await screen.findByRole('heading', { level: 1, name: title });
    expect(heading).not.toHaveClass('visually-hidden');
  });

  it('an address that cannot name a record is a 404 page with a way back to the list, without asking the API', async () => {
    const fetchMock = mockFetch(() => json({}, 500));
    renderScreen(<DetailPage />, { url: '/victims/not-a-record', path: '/victims/:id' });
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Victims' })).toHaveAttribute('href', '/victims');
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('an unknown record is a 404 page, not a jump to the list', async () => {
    mockFetch(() => json({ message: 'Not found' }, 404));
    renderScreen(<DetailPage />, { url: `/victims/${ID}`, path: '/victims/:id' });
    expect(await screen.findByText(/There is no record at this address/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Victims' })).toBeInTheDocument();
  });
});

describe('media on cards and detail pages', () => {
  it("a video card shows the video's poster, not the placeholder", () => {
    const video = testRecord({
      _id: ID,
      category: 'videos',
      title: 'Test video',
      imageUrl: '/media/public/poster-wide.jpg',
      images: [media({ kind: 'video', imageUrl: '/media/public/test.mp4', posterUrl: '/media/public/poster-wide.jpg', variants: [{ url: '/media/public/poster-320.jpg', width: 320, format: 'jpeg' } as never] })],
    });
    renderScreen(<RecordCard category={CATEGORIES.videos} record={video} />);
    const card = screen.getByTestId('record-card');
    expect(within(card).getByRole('img', { name: 'Test video' })).toHaveAttribute('src', '/media/public/poster-wide.jpg');
    expect(card).not.toHaveTextContent('No image');
  });

  it('one image shows no "1/1" counter and no arrows; several show n/total', () => {
    const { unmount } = renderScreen(<Carousel items={['one']} label="Images" render={(item) => <p>{item}</p>} />);
    expect(screen.getByText('one')).toBeInTheDocument();
    expect(screen.queryByTestId('carousel-counter')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    unmount();
    renderScreen(<Carousel items={['one', 'two']} label="Images" render={(item) => <p>{item}</p>} />);
    expect(screen.getByTestId('carousel-counter')).toHaveTextContent('1/2');
  });
});

describe('missing people are labelled as missing', () => {
  it('"Number of people kidnapped or missing" and "Date of kidnapping or disappearance" on the card', () => {
    const missing = testRecord({ _id: ID, category: 'missings', title: 'Test missing record', quantity: 4, happenedOn: '2021-01-05T10:00:00.000Z' });
    renderScreen(<RecordCard category={CATEGORIES.missings} record={missing} />);
    expect(screen.getByText('Number of people kidnapped or missing')).toBeInTheDocument();
    expect(screen.getByText('Date of kidnapping or disappearance')).toBeInTheDocument();
    expect(screen.queryByText(/displaced|Displacement/)).toBeNull();
  });
});

describe("another editor's record", () => {
  it('its edit address says so before any typing and shows no form', async () => {
    signIn('contributor-1', 'contributor');
    mockFetch(() => json(testRecord({ _id: ID, category: 'events', title: 'Test event of another editor', userId: 'someone-else' })));
    renderScreen(<EditPage />, { url: `/events/edit/${ID}`, path: '/events/edit/:id' });
    expect(await screen.findByTestId('edit-refused')).toHaveTextContent('You can only change records you created.');
    expect(screen.queryByLabelText('Title')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
    expect(screen.getByRole('link', { name: /Back to “Test event of another editor”/ })).toHaveAttribute('href', `/events/${ID}`);
  });

  it('the owner gets the form', async () => {
    signIn('owner-1', 'contributor');
    mockFetch(() => json(testRecord({ _id: ID, category: 'events', title: 'Test event of the owner', userId: 'owner-1' })));
    renderScreen(<EditPage />, { url: `/events/edit/${ID}`, path: '/events/edit/:id' });
    await waitFor(() => expect(screen.getByLabelText('Title')).toHaveValue('Test event of the owner'));
    expect(screen.queryByTestId('edit-refused')).toBeNull();
  });
});

describe("another editor's image", () => {
  const IMAGE = '00000000-0000-4000-8000-0000000000c1';
  /** GET /images/{id} and the record it belongs to, owned by `owner`. */
  const imageApi = (owner: string) =>
    mockFetch((url) =>
      url.pathname.endsWith(`/images/${IMAGE}`)
        ? json({ _id: IMAGE, imageId: IMAGE, imageUrl: '/media/public/test.jpg', variants: [], width: 400, height: 300, caption: null, graphic: false, recordId: ID, category: 'victims', title: 'Test victim with an image' })
        : json(testRecord({ _id: ID, category: 'victims', title: 'Test victim with an image', userId: owner })),
    );

  it('its edit address says so before any typing and shows no form', async () => {
    signIn('contributor-1', 'contributor');
    imageApi('someone-else');
    renderScreen(<ImageEditPage />, { url: `/images/edit/${IMAGE}`, path: '/images/edit/:id' });
    expect(await screen.findByTestId('edit-refused')).toHaveTextContent('You can only change records you created.');
    expect(screen.queryByLabelText('Caption')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
  });

  it('the owner of its record gets the form', async () => {
    signIn('owner-1', 'contributor');
    imageApi('owner-1');
    renderScreen(<ImageEditPage />, { url: `/images/edit/${IMAGE}`, path: '/images/edit/:id' });
    expect(await screen.findByRole('button', { name: 'Update' })).toBeInTheDocument();
    expect(screen.queryByTestId('edit-refused')).toBeNull();
  });
});
