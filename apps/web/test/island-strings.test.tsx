import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CopyButton } from '../src/components/CopyButton';
import { ImageCarousel } from '../src/components/ImageCarousel';
import { ShowGraphic } from '../src/components/ShowGraphic';
import { SiteMenu } from '../src/components/SiteMenu';
import { SlotsProvider } from '../src/components/Slots';
import CampaignForm from '../src/features/campaign/CampaignForm';
import { ViewerKeys } from '../src/features/gallery/ViewerKeys';
import { CampaignSlot } from '../src/features/home/CampaignSlot';
import { ViewToggle } from '../src/features/records/ViewToggle';
import { FiltersToggle } from '../src/features/search/FiltersToggle';
import { FilterForm } from '../src/features/statistics/FilterForm';
import { ISLAND_STRINGS, pickStrings } from '../src/islands/pageStrings';
import type { IslandName } from '../src/islands/registry';
import { englishStrings } from '../src/islands/strings';
import { setTranslations } from '../src/lib/translate';
import en from '../src/locales/en.json';
import { json, mockFetch } from './helpers';

/**
 * A reading page carries only its islands' strings (islands/pageStrings.ts): each island, drawn with those alone,
 * finds every string it reads (a missing one would show its key).
 */
const image = { imageId: 'img-1', imageUrl: '/media/sample.jpg', kind: 'image', width: 800, height: 600, variants: [], sha256: 'a'.repeat(64), caption: 'Sample image (test data)', graphic: true, status: 'ready' };

const ISLANDS: Record<IslandName, [ComponentType<never>, Record<string, unknown>]> = {
  menu: [SiteMenu, { current: '/victims', reader: { signedIn: false, staff: false }, contactEmail: 'contact@example.test', socialUrl: 'https://example.test/social' }],
  copy: [CopyButton, { text: 'https://example.test/page' }],
  carousel: [ImageCarousel, { images: [image, { ...image, imageId: 'img-2', graphic: false }], title: 'Sample record (test data)', label: 'Images' }],
  viewToggle: [ViewToggle, { view: 'cards' }],
  statisticsFilters: [FilterForm, { filters: {}, victimizers: ['Sample group (test data)'], pathname: '/statistics', search: '' }],
  searchFilters: [FiltersToggle, { count: 2 }],
  campaign: [CampaignSlot, {}],
  viewerKeys: [ViewerKeys, { previous: '/images/a', next: '/images/b' }],
  showGraphic: [ShowGraphic, {}],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the islands' strings on a reading page", () => {
  for (const [name, [Component, props]] of Object.entries(ISLANDS) as [IslandName, (typeof ISLANDS)[IslandName]][]) {
    it(`${name}: every string it reads is in the page`, async () => {
      mockFetch(() => json([]));
      const missing: string[] = [];
      const strings = englishStrings(() => undefined, pickStrings(en, ISLAND_STRINGS[name]), (key) => missing.push(key));
      // Each test file has its own modules: the app's strings (lib/i18n) need no putting back.
      setTranslations(strings);
      const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      const Island = Component as ComponentType<Record<string, unknown>>;
      render(
        <QueryClientProvider client={client}>
          <SlotsProvider value={{ campaignForm: CampaignForm }}>
            <Island {...props} />
          </SlotsProvider>
        </QueryClientProvider>,
      );
      if (name === 'campaign') await screen.findByRole('button', { name: en.campaign.send });
      expect(missing).toEqual([]);
    });
  }
});
