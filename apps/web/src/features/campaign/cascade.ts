import type { Country, Directory, Province, Representative } from './api';

/**
 * The campaign form's values and its cascade, kept free of React so it is tested alone:
 * choosing a country fills the provinces and replaces the message with that country's default letter; choosing a
 * province fills the districts; choosing a district picks the representative, whose e-mail becomes the authority
 * e-mail. A representative who cannot be written to (available false) can never become the choice.
 */
export const CAMPAIGN_FIELDS = ['email', 'firstName', 'lastName', 'country', 'province', 'district', 'city', 'streetName', 'zipcode', 'message'] as const;
export type CampaignField = (typeof CAMPAIGN_FIELDS)[number];
export type CampaignValues = Record<CampaignField, string>;

export const emptyValues = (): CampaignValues => ({
  email: '',
  firstName: '',
  lastName: '',
  country: '',
  province: '',
  district: '',
  city: '',
  streetName: '',
  zipcode: '',
  message: '',
});

export type CascadeAction =
  /** `keepMessage`: the sender's own letter stays (they were asked, and chose to keep it). */
  | { type: 'country'; code: string; keepMessage?: boolean }
  /** A representative found by the search box: country, province and district at once. */
  | { type: 'representative'; country: string; province: string; district: string; keepMessage?: boolean }
  | { type: 'province'; name: string }
  | { type: 'district'; district: string }
  | { type: 'field'; name: Exclude<CampaignField, 'country' | 'province' | 'district'>; value: string }
  /** After a letter was sent: the sender's own details stay, the choice of representative and the letter start over. */
  | { type: 'anotherLetter' };

const countryOf = (directory: Directory | undefined, code: string): Country | undefined =>
  directory?.find((c) => c.code === code);

export const provincesOf = (directory: Directory | undefined, values: Pick<CampaignValues, 'country'>): Province[] =>
  countryOf(directory, values.country)?.provinces ?? [];

export const representativesOf = (directory: Directory | undefined, values: Pick<CampaignValues, 'country' | 'province'>): Representative[] =>
  provincesOf(directory, values).find((p) => p.name === values.province)?.representatives ?? [];

/** The chosen representative; only an available one (with an e-mail) can be chosen. */
export function chosenRepresentative(directory: Directory | undefined, values: Pick<CampaignValues, 'country' | 'province' | 'district'>) {
  const rep = representativesOf(directory, values).find((r) => r.district === values.district);
  return rep && rep.available && rep.email ? rep : undefined;
}

/** The e-mail the letter is addressed to (sent as authorityEmail; the server uses its own directory's address). */
export const authorityEmailOf = (directory: Directory | undefined, values: CampaignValues) => chosenRepresentative(directory, values)?.email ?? '';

/** The default letter of `code` (empty for no or an unknown country). */
export const defaultLetterOf = (directory: Directory | undefined, code: string): string => countryOf(directory, code)?.defaultMessage ?? '';

/**
 * Whether the letter holds the sender's own words: anything but empty or the chosen country's default letter. Changing
 * the country would replace it, so the form asks first.
 */
export function letterEdited(directory: Directory | undefined, values: Pick<CampaignValues, 'country' | 'message'>): boolean {
  return values.message.trim() !== '' && values.message !== defaultLetterOf(directory, values.country);
}

/** A representative of the directory with where they sit, as the search box lists them. */
export interface FoundRepresentative extends Representative {
  country: string;
  countryName: string;
  province: string;
}

/** Folded for matching: case and accents ignored ("Montréal" is found by "montreal"). */
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('en');

/**
 * Representatives whose district (riding, electorate) or name contains every word of `query`, districts that start
 * with the query first; at most `limit`.
 */
export function findRepresentatives(directory: Directory | undefined, query: string, limit = 8): FoundRepresentative[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (!directory || words.length === 0) return [];
  const found: { rep: FoundRepresentative; rank: number }[] = [];
  for (const country of directory) {
    for (const province of country.provinces) {
      for (const rep of province.representatives) {
        const district = fold(rep.district);
        const haystack = `${district} ${fold(rep.name)}`;
        if (!words.every((w) => haystack.includes(w))) continue;
        const rank = district.startsWith(words.join(' ')) ? 0 : district.includes(words[0]!) ? 1 : 2;
        found.push({ rep: { ...rep, country: country.code, countryName: country.name, province: province.name }, rank });
      }
    }
  }
  return found
    .sort((a, b) => a.rank - b.rank || a.rep.district.localeCompare(b.rep.district, 'en', { sensitivity: 'base' }))
    .slice(0, limit)
    .map((f) => f.rep);
}

export function applyCascade(directory: Directory | undefined, values: CampaignValues, action: CascadeAction): CampaignValues {
  switch (action.type) {
    case 'country': {
      if (action.code === values.country) return values;
      const country = countryOf(directory, action.code);
      const message = country && !action.keepMessage ? country.defaultMessage : values.message;
      return { ...values, country: country ? country.code : '', province: '', district: '', message };
    }
    case 'representative': {
      const inCountry = applyCascade(directory, values, { type: 'country', code: action.country, keepMessage: action.keepMessage });
      const inProvince = applyCascade(directory, inCountry, { type: 'province', name: action.province });
      return applyCascade(directory, inProvince, { type: 'district', district: action.district });
    }
    case 'province': {
      if (action.name === values.province) return values;
      const known = provincesOf(directory, values).some((p) => p.name === action.name);
      return { ...values, province: known ? action.name : '', district: '' };
    }
    case 'district': {
      const rep = chosenRepresentative(directory, { ...values, district: action.district });
      return { ...values, district: rep ? rep.district : '' };
    }
    case 'field':
      return { ...values, [action.name]: action.value };
    case 'anotherLetter': {
      const { email, firstName, lastName, city, streetName, zipcode } = values;
      return { ...emptyValues(), email, firstName, lastName, city, streetName, zipcode };
    }
  }
}

/** The JSON body of POST /reports. */
export const letterBody = (directory: Directory | undefined, values: CampaignValues) => ({
  ...values,
  authorityEmail: authorityEmailOf(directory, values),
});
