import type { BrandConfig } from '@app/shared';

const DEFAULT_BRAND: BrandConfig = {
  siteName: 'Amhara Genocide Watch',
  hashtagWord: 'AmharaGenocide',
  contactEmail: 'contact@example.org',
  socialUrl: 'https://x.com/',
  publicUrl: typeof window === 'undefined' ? '' : window.location.origin,
  relatedSites: [],
  merchandiseUrl: '',
};

/** Brand settings the server writes into the HTML shell; defaults when opened from the Vite dev server. */
function readBrand(): BrandConfig {
  if (typeof document === 'undefined') return DEFAULT_BRAND;
  const el = document.getElementById('app-config');
  if (!el?.textContent) return DEFAULT_BRAND;
  try {
    return { ...DEFAULT_BRAND, ...(JSON.parse(el.textContent) as Partial<BrandConfig>) };
  } catch {
    return DEFAULT_BRAND;
  }
}

export const brand: BrandConfig = readBrand();
export const hashtag = () => `#Stop${brand.hashtagWord}`;

/** The server renders pages with its own configuration (there is no page to read it from). */
export function setBrand(config: BrandConfig): void {
  Object.assign(brand, config);
}
