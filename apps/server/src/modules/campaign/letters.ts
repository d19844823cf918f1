import type { campaignMessages } from '../../db/schema';
import { CAMPAIGN_COUNTRIES, type CountryCode } from './directory';

type CampaignMessageRow = typeof campaignMessages.$inferSelect;

/** Placeholder in stored default letters, replaced by the site's public address when served (it may change). */
const SITE_URL_PLACEHOLDER = '{siteUrl}';

export function fillSiteUrl(message: string, publicUrl: string): string {
  return message.split(SITE_URL_PLACEHOLDER).join(publicUrl);
}

const institutions: Record<CountryCode, { house: string; minister: string; government: string }> = {
  CA: { house: 'the House of Commons', minister: 'the Minister of Foreign Affairs', government: 'the Government of Canada' },
  AU: { house: 'the House of Representatives', minister: 'the Minister for Foreign Affairs', government: 'the Australian Government' },
};

/**
 * Each country's starting letter: short, factual and respectful, asking the representative to raise the documented
 * killings and displacement and pointing to the site's sourced records. Admins may replace it.
 */
export function defaultLetter(country: CountryCode): string {
  const { house, minister, government } = institutions[country];
  return [
    'I am writing to ask you to raise the killings and displacement of Amhara civilians in Ethiopia.',
    '',
    'Human rights organisations, United Nations bodies and journalists have documented killings of civilians, attacks on villages and the displacement of large numbers of Amhara people from their homes. The records collected at ' +
      `${SITE_URL_PLACEHOLDER} list these reports with their sources.`,
    '',
    'I respectfully ask you to:',
    `- raise these killings and this displacement in ${house} and with ${minister};`,
    '- support independent investigation of these crimes and humanitarian access for the people who have been displaced;',
    `- ask ${government} to call for the protection of civilians and for those responsible to be held to account.`,
    '',
    'Thank you for your time. I would be grateful for a reply telling me what you are able to do.',
  ].join('\n');
}

export interface SenderDetails {
  firstName: string;
  lastName: string;
  email: string;
  streetName: string;
  city: string;
  zipcode: string;
  province: string;
  countryName: string;
}

/**
 * The sender's name and postal address, appended to the body only in the e-mails (never stored with the body, so the
 * public copy on /reports carries no personal data).
 */
function signatureBlock(sender: SenderDetails): string {
  return [
    'Yours sincerely,',
    '',
    `${sender.firstName} ${sender.lastName}`,
    sender.streetName,
    `${sender.city} ${sender.zipcode}`.trim(),
    `${sender.province}, ${sender.countryName}`,
    sender.email,
  ].join('\n');
}

export interface LetterParts {
  representativeName: string;
  body: string;
  sender: SenderDetails;
}

/** The full letter exactly as the representative receives it. */
function fullLetter({ representativeName, body, sender }: LetterParts): string {
  return `Dear ${representativeName},\n\n${body.trim()}\n\n${signatureBlock(sender)}\n`;
}

export function letterToRepresentative(parts: LetterParts, site: { name: string; url: string }) {
  return {
    subject: `Message from ${parts.sender.firstName} ${parts.sender.lastName}: killings and displacement of Amhara civilians`,
    text:
      fullLetter(parts) +
      `\n--\nSent through ${site.name} (${site.url}). The sender confirmed this e-mail address before the letter was sent.\n` +
      'Replying to this e-mail answers the sender directly; the site does not see replies.\n',
  };
}

export function confirmationMail(parts: LetterParts, confirmUrl: string, site: { name: string }, expiryDays: number) {
  return {
    subject: `Please confirm your letter to ${parts.representativeName}`,
    text:
      `Hello ${parts.sender.firstName},\n\n` +
      `You asked ${site.name} to send the letter below to ${parts.representativeName}. Nothing has been sent yet.\n` +
      'To send it, open this link and confirm:\n\n' +
      `${confirmUrl}\n\n` +
      `If you did not ask for this, ignore this e-mail: the letter will not be sent and your details are deleted after ${expiryDays} days.\n` +
      'Once sent, the letter (without your name, address or e-mail) is listed on the public reports page.\n\n' +
      '---------- Your letter ----------\n\n' +
      fullLetter(parts),
  };
}

/** The letter's parts from a stored campaign message (a scrubbed sender's fields are empty). */
export function letterPartsOf(row: CampaignMessageRow): LetterParts {
  return {
    representativeName: row.representativeName,
    body: row.message,
    sender: {
      firstName: row.firstName ?? '',
      lastName: row.lastName ?? '',
      email: row.email ?? '',
      streetName: row.streetName ?? '',
      city: row.city ?? '',
      zipcode: row.zipcode ?? '',
      province: row.province,
      countryName: CAMPAIGN_COUNTRIES[row.country as CountryCode] ?? row.country,
    },
  };
}
