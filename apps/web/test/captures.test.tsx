import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATEGORIES, type LinkCaptureDto, type RecordCapturesDto, type RecordDto } from '@app/shared';
import i18n from '../src/lib/i18n';
import { CaptureControls, CitedLinks, citedLinks } from '../src/features/records/LinkCaptures';
import { testRecord } from './fixtures';
import { json, mockFetch, renderScreen } from './helpers';

/** The captures section of a detail page, against a stubbed API answer. Test content only. */

const record = (over: Partial<RecordDto>): RecordDto => testRecord({ category: 'links', title: 'Capture test record', description: 'Test content', ...over });

const capture = (over: Partial<LinkCaptureDto>): LinkCaptureDto => ({
  id: 'c1',
  field: 'linkURL',
  url: 'https://example.test/page',
  status: 'done',
  reason: null,
  attempts: 1,
  requestedAt: '2024-03-05T10:00:00.000Z',
  capturedAt: '2024-03-05T10:00:05.000Z',
  finalUrl: 'https://example.test/page',
  httpStatus: 200,
  firstLoad: null,
  pageTitle: 'Test page',
  screenshot: { sha256: 'a'.repeat(64), size: 10, url: '/api/v1.0.0/captures/c1/screenshot.png' },
  snapshot: { sha256: 'b'.repeat(64), size: 20, url: null },
  headers: { sha256: 'c'.repeat(64), size: 5, url: null },
  wacz: null,
  certificates: null,
  timestampedAt: null,
  ...over,
});

const answer = (body: RecordCapturesDto) => mockFetch(() => json(body));

/** The cited-links field and the controls below the record, as the detail page shows them. */
const show = (r: RecordDto, field: string) =>
  renderScreen(
    <>
      <CitedLinks category={CATEGORIES[r.category]!} record={r} field={field} />
      <CaptureControls category={CATEGORIES[r.category]!} record={r} />
    </>,
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('captures of cited links', () => {
  it('shows "Archived <date>" opening the screenshot, with its SHA-256, and no download for readers without the right', async () => {
    answer({ publicDownload: false, canRequest: false, canConfigure: false, captures: [capture({})] });
    show(record({ linkURL: 'https://example.test/page' }), 'linkURL');
    const archived = await screen.findByRole('link', { name: 'Archived Mar 5, 2024' });
    expect(archived).toHaveAttribute('href', '/api/v1.0.0/captures/c1/screenshot.png');
    // Shortened so it fits a phone's line; whole in its title and in what the copy button copies.
    const hash = screen.getByTestId('capture-sha256');
    expect(hash).toHaveTextContent(/^a{12}…$/);
    expect(hash).toHaveAttribute('title', 'a'.repeat(64));
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(screen.getByRole('button', { name: 'Copy SHA-256' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('a'.repeat(64)));
    expect(screen.queryByRole('link', { name: /Download the archive/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /Download the web archive/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Capture the links again' })).toBeNull();
  });

  it('says when the page replaced itself after loading, with the first address and status, instead of a redirect', async () => {
    const replaced = capture({ finalUrl: 'https://example.test/other', firstLoad: { url: 'https://example.test/page', status: 200 } });
    answer({ publicDownload: false, canRequest: false, canConfigure: false, captures: [replaced] });
    show(record({ linkURL: 'https://example.test/page' }), 'linkURL');
    await screen.findByRole('link', { name: 'Archived Mar 5, 2024' });
    expect(document.querySelector('.capture-status')).toHaveTextContent(
      'HTTP 200 · Loaded https://example.test/page (HTTP 200), then the page replaced itself with https://example.test/other',
    );
    expect(screen.queryByText(/Redirected to/)).toBeNull();
  });

  it('offers the download, a new capture and the setting to whom the server allows them; shows failures with the reason', async () => {
    answer({
      publicDownload: false,
      canRequest: true,
      canConfigure: true,
      captures: [
        capture({ id: 'c2', url: 'https://example.test/b', status: 'failed', reason: 'refused: test reason', screenshot: null, snapshot: null, headers: null }),
        capture({
          snapshot: { sha256: 'b'.repeat(64), size: 20, url: '/api/v1.0.0/captures/c1/snapshot.mhtml?v=1.x' },
          wacz: { sha256: 'd'.repeat(64), size: 40, url: '/api/v1.0.0/captures/c1/capture.wacz?v=1.x' },
        }),
      ],
    });
    show(record({ category: 'massacres', evidence: 'https://example.test/page, https://example.test/b' }), 'evidence');
    expect(await screen.findByRole('link', { name: 'Download the archive (MHTML)' })).toHaveAttribute('href', '/api/v1.0.0/captures/c1/snapshot.mhtml?v=1.x');
    expect(screen.getByRole('link', { name: 'Download the web archive (WACZ, signed)' })).toHaveAttribute('href', '/api/v1.0.0/captures/c1/capture.wacz?v=1.x');
    // Beside its own link: each list item holds the link and its capture.
    const items = screen.getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(/^https:\/\/example\.test\/pageArchived Mar 5, 2024/);
    expect(items[1]).toHaveTextContent(/^https:\/\/example\.test\/bThe page could not be archivedReason \(shown to the record's editors\): refused: test reason$/);
    expect(screen.getByRole('button', { name: 'Capture the links again' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /may download its archives/ })).not.toBeChecked();
  });

  it('tells every other reader in plain words, without the technical reason the server keeps for editors', async () => {
    answer({
      publicDownload: false,
      canRequest: false,
      canConfigure: false,
      captures: [
        capture({ id: 'c3', url: 'https://example.test/a', status: 'failed', reason: null, screenshot: null, snapshot: null, headers: null }),
        capture({ id: 'c4', url: 'https://example.test/b', status: 'queued', reason: null, capturedAt: null, screenshot: null, snapshot: null, headers: null }),
        capture({ id: 'c5', url: 'https://example.test/c', status: 'processing', reason: null, capturedAt: null, screenshot: null, snapshot: null, headers: null }),
      ],
    });
    show(record({ category: 'massacres', evidence: 'https://example.test/a, https://example.test/b, https://example.test/c' }), 'evidence');
    await screen.findByText('The page could not be archived');
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'https://example.test/aThe page could not be archived',
      'https://example.test/bWaiting to be archived',
      'https://example.test/cBeing archived now',
    ]);
  });

  it('asks nothing for a record that cites no link', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    show(record({ category: 'victims' }), 'linkURL');
    expect(screen.queryByRole('link')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
    expect(citedLinks(record({ linkURL: 'https://a.test/', evidence: 'https://b.test/, https://a.test/' }))).toEqual(['https://a.test/', 'https://b.test/']);
  });

  it('has every string in Amharic too', () => {
    const en = i18n.getResourceBundle('en', 'capture') as Record<string, string>;
    const am = i18n.getResourceBundle('am', 'capture') as Record<string, string>;
    expect(Object.keys(am).sort()).toEqual(Object.keys(en).sort());
    for (const value of Object.values(am)) expect(value).not.toBe('');
  });
});
