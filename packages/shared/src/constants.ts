/** Business constants the public contract fixes (kept exactly). */
export const COPY_FEEDBACK_MS = 3000;
const TITLE_HEADING_MAX_WORDS = 4; // a heading shows only with fewer than 5 words
export const DATE_FORMAT = 'll';
export const DATE_TIME_FORMAT = 'll HH:mm';
export const REPORT_DATE_FORMAT = 'll hh:mm A';
export const FORM_DATE_TIME_FORMAT = 'YYYY-MM-DDTHH:mm:ss';
export const DESCRIPTION_ROWS = 15;
export const DESCRIPTION_COLS = 120;
export const CAMPAIGN_MESSAGE_ROWS = 30;
const IMAGE_PLACEHOLDER_MAX_URL_LENGTH = 1;
export const SHARE_TEXT = 'Ongoing genocide on Amhara people';
export const SAMPLE_LABEL = 'Sample record - not real data';

/**
 * Links to files that are not public (a private record's images, a capture's files) are signed for their reader
 * for windows of this many seconds and live one to two windows; a page showing them reads its record again sooner.
 */
export const SIGNED_LINK_WINDOW_SECONDS = 600;

/** Whether a page title is shown as a heading. */
export function showsTitleHeading(title: string): boolean {
  return title.trim().split(/\s+/).filter(Boolean).length <= TITLE_HEADING_MAX_WORDS;
}

/** Whether a card shows the placeholder instead of the record's image. */
export function usesImagePlaceholder(imageUrl: string | null | undefined): boolean {
  return (imageUrl ?? '').length <= IMAGE_PLACEHOLDER_MAX_URL_LENGTH;
}

/** The card's description preview; markdown is shown as plain text in previews. */
export function descriptionPreview(description: string, length: number): string {
  return description.length > length ? `${description.slice(0, length)}...` : description;
}

/** Public brand settings, served to the web app in the HTML shell. */
export interface BrandConfig {
  siteName: string;
  hashtagWord: string;
  contactEmail: string;
  socialUrl: string;
  publicUrl: string;
  relatedSites: { label: string; url: string }[];
  merchandiseUrl: string;
}
