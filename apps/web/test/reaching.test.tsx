import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../src/lib/i18n';
import i18n from '../src/lib/i18n';
import { Header } from '../src/components/Header';
import ExportPage from '../src/features/export/ExportPage';
import { DownloadLinks } from '../src/features/search/SearchParts';
import { renderScreen } from './helpers';

/** Every list and tool a visitor must be able to reach (issue 38 item 1). */
const EVERY_LIST = ['/massacres', '/victims', '/displacements', '/missings', '/orphans', '/events', '/images', '/videos', '/links', '/educations', '/reports', '/search', '/statistics', '/map', '/export'];

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  vi.resetModules();
  await i18n.changeLanguage('en');
});

describe('the header', { timeout: 20_000 }, () => {
  it('offers every list and tool under Browse, opened by a button that says whether it is open', async () => {
    const user = userEvent.setup();
    renderScreen(<Header />);
    const browse = screen.getByRole('button', { name: /Browse/ });
    expect(browse).toHaveAttribute('aria-expanded', 'false');
    await user.click(browse);
    expect(browse).toHaveAttribute('aria-expanded', 'true');
    const panel = document.getElementById(browse.getAttribute('aria-controls')!)!;
    expect(panel).toHaveClass('is-open');
    const targets = within(panel)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(targets.sort()).toEqual([...EVERY_LIST].sort());
    await user.keyboard('{Escape}');
    expect(browse).toHaveAttribute('aria-expanded', 'false');
    expect(browse).toHaveFocus();
  });

  it('carries the contact address and the social link', () => {
    renderScreen(<Header />);
    expect(screen.getByTestId('header-contact')).toHaveAttribute('href', 'mailto:contact@example.org');
    expect(screen.getByTestId('header-social')).toHaveAttribute('href', 'https://x.com/');
  });

  it('the phone menu closes once the language is switched', async () => {
    const user = userEvent.setup();
    renderScreen(<Header />);
    const toggle = screen.getByRole('button', { name: 'Menu' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'am');
    await waitFor(() => expect(screen.getByRole('button', { name: 'ማውጫ' })).toHaveAttribute('aria-expanded', 'false'));
    expect(document.getElementById('site-menu')).not.toHaveClass('is-open');
    expect(screen.getByRole('button', { name: 'ማውጫ' })).toHaveFocus();
  });
});

describe('the home page', { timeout: 20_000 }, () => {
  it('keeps the five tiles and lists every other list and tool below them', async () => {
    // A fresh module graph (vi.resetModules): its interface strings are started as the app starts them.
    await import('../src/lib/i18n');
    const { default: HomePage } = await import('../src/features/home/HomePage');
    renderScreen(<HomePage />);
    const tiles = within(screen.getByRole('navigation', { name: 'Categories' })).getAllByRole('link');
    expect(tiles.map((a) => a.textContent)).toEqual(['✝Atrocities', '⌂Displacement', '▣Images', '▶Videos', '✉Media']);
    const more = within(screen.getByRole('navigation', { name: 'More lists and ways to read' })).getAllByRole('link').map((a) => a.getAttribute('href'));
    const fromHome = new Set([...tiles.map((a) => a.getAttribute('href')), ...more]);
    for (const list of EVERY_LIST) expect(fromHome, list).toContain(list);
  });

  it('keeps the accent colour of the page the server drew', async () => {
    for (const accent of ['accent-green', 'accent-gold', 'accent-red']) {
      // The server's page, as the browser has it before the app's code runs.
      document.body.innerHTML = `<div id="root"><section data-testid="purpose" data-accent="${accent}" class="home-purpose ${accent}"></section></div>`;
      vi.resetModules();
      await import('../src/lib/i18n');
      const { default: HomePage } = await import('../src/features/home/HomePage');
      document.body.innerHTML = '';
      for (let visit = 0; visit < 3; visit++) {
        const { unmount } = renderScreen(<HomePage />);
        expect(screen.getByTestId('purpose')).toHaveClass(accent);
        unmount();
      }
    }
  });
});

describe('/export', () => {
  it('one line per format, CSV for spreadsheets with a byte order mark, and the column descriptions in plain words', () => {
    renderScreen(<ExportPage />, { url: '/export?region=amhara' });
    const spreadsheet = within(screen.getByTestId('export-spreadsheet'));
    expect(spreadsheet.getByRole('link', { name: 'CSV for spreadsheets' })).toHaveAttribute('href', '/api/v1.0.0/export.csv?region=amhara&bom=true');
    expect(screen.getByTestId('export-spreadsheet')).toHaveTextContent(/Excel, LibreOffice or Google Sheets with Amharic shown correctly/);
    expect(within(screen.getByTestId('export-csv')).getByRole('link', { name: 'CSV' })).toHaveAttribute('href', '/api/v1.0.0/export.csv?region=amhara');
    expect(within(screen.getByTestId('export-ndjson')).getByRole('link', { name: 'NDJSON' })).toHaveAttribute('href', '/api/v1.0.0/export.ndjson?region=amhara');
    expect(screen.getByRole('link', { name: 'Read the column descriptions (datapackage.json)' })).toHaveAttribute('href', '/api/v1.0.0/datapackage.json');
    expect(screen.getByTestId('export-filtered')).toHaveTextContent('only the records matching your search');
  });
});

describe('the field-format files (issue 52 item 18)', () => {
  it('/export offers incidents.csv, people.csv and the HDX file, each with a line on what it is for, and says no search narrows them', () => {
    renderScreen(<ExportPage />, { url: '/export?region=amhara' });
    const offered = [
      ['export-incidents', 'Incidents (ACLED columns)', '/api/v1.0.0/export/incidents.csv', /ACLED's column names/],
      ['export-people', 'People', '/api/v1.0.0/export/people.csv', /the incident each belongs to/],
      ['export-hdx', 'Incidents for HDX (HXL hashtags)', '/api/v1.0.0/export/incidents.csv?hxl=1', /Humanitarian Data Exchange/],
    ] as const;
    for (const [testId, name, href, about] of offered) {
      expect(within(screen.getByTestId(testId)).getByRole('link', { name })).toHaveAttribute('href', href);
      expect(screen.getByTestId(testId)).toHaveTextContent(about);
    }
    expect(screen.getByText(/a search does not narrow them/)).toBeInTheDocument();
  });

  it("the search page's downloads link them too, labelled as every record", () => {
    renderScreen(<DownloadLinks filters={{ region: ['amhara'] }} />);
    const field = within(screen.getByTestId('search-download-field'));
    expect(screen.getByTestId('search-download-field')).toHaveTextContent("Every record, in the field's formats");
    expect(field.getByRole('link', { name: 'Incidents (ACLED columns)' })).toHaveAttribute('href', '/api/v1.0.0/export/incidents.csv');
    expect(field.getByRole('link', { name: 'People' })).toHaveAttribute('href', '/api/v1.0.0/export/people.csv');
  });
});
