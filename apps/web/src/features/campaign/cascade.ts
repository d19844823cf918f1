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
  | { type: 'country'; code: string }
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

export function applyCascade(directory: Directory | undefined, values: CampaignValues, action: CascadeAction): CampaignValues {
  switch (action.type) {
    case 'country': {
      if (action.code === values.country) return values;
      const country = countryOf(directory, action.code);
      return { ...values, country: country ? country.code : '', province: '', district: '', message: country ? country.defaultMessage : values.message };
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
