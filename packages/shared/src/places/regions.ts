/**
 * Ethiopia's regional states and chartered cities, the controlled list of a record's `region` (stored as `code`).
 * Kept as data so the form, search facets, statistics and the map agree. Order: regional states, then the two
 * chartered cities, each alphabetically by English name. `iso` is the ISO 3166-2 subdivision code where one exists;
 * the regions formed since 2020 (Sidama, South West Ethiopia Peoples', and the 2023 split of the former Southern
 * Nations, Nationalities and Peoples' Region into Central Ethiopia and South Ethiopia) have `formedFrom`, so a map
 * drawn on older boundaries can place them.
 */
interface Region {
  code: string;
  en: string;
  am: string;
  kind: 'region' | 'city';
  iso?: string;
  /** The older region whose territory this one was formed from. */
  formedFrom?: string;
}

export const REGIONS = [
  { code: 'afar', en: 'Afar', am: 'አፋር', kind: 'region', iso: 'ET-AF' },
  { code: 'amhara', en: 'Amhara', am: 'አማራ', kind: 'region', iso: 'ET-AM' },
  { code: 'benishangul-gumuz', en: 'Benishangul-Gumuz', am: 'ቤኒሻንጉል ጉሙዝ', kind: 'region', iso: 'ET-BE' },
  { code: 'central-ethiopia', en: 'Central Ethiopia', am: 'ማዕከላዊ ኢትዮጵያ', kind: 'region', formedFrom: 'snnp' },
  { code: 'gambela', en: 'Gambela', am: 'ጋምቤላ', kind: 'region', iso: 'ET-GA' },
  { code: 'harari', en: 'Harari', am: 'ሐረሪ', kind: 'region', iso: 'ET-HA' },
  { code: 'oromia', en: 'Oromia', am: 'ኦሮሚያ', kind: 'region', iso: 'ET-OR' },
  { code: 'sidama', en: 'Sidama', am: 'ሲዳማ', kind: 'region', iso: 'ET-SI', formedFrom: 'snnp' },
  { code: 'somali', en: 'Somali', am: 'ሶማሌ', kind: 'region', iso: 'ET-SO' },
  { code: 'south-ethiopia', en: 'South Ethiopia', am: 'ደቡብ ኢትዮጵያ', kind: 'region', formedFrom: 'snnp' },
  { code: 'south-west-ethiopia', en: "South West Ethiopia Peoples'", am: 'ደቡብ ምዕራብ ኢትዮጵያ ሕዝቦች', kind: 'region', iso: 'ET-SW', formedFrom: 'snnp' },
  { code: 'tigray', en: 'Tigray', am: 'ትግራይ', kind: 'region', iso: 'ET-TI' },
  { code: 'addis-ababa', en: 'Addis Ababa', am: 'አዲስ አበባ', kind: 'city', iso: 'ET-AA' },
  { code: 'dire-dawa', en: 'Dire Dawa', am: 'ድሬ ዳዋ', kind: 'city', iso: 'ET-DD' },
] as const satisfies readonly Region[];

type RegionCode = (typeof REGIONS)[number]['code'];

export const REGION_CODES = REGIONS.map((r) => r.code) as [RegionCode, ...RegionCode[]];

/** The facet and statistics bucket of records whose region was not recorded (every record made before regions). */
export const UNKNOWN_REGION = 'unknown';

function regionByCode(code: string): Region | undefined {
  return REGIONS.find((r) => r.code === code);
}

/** The region's name in the interface language ('am' or anything else for English). */
export function regionName(code: string, language: string): string {
  const region = regionByCode(code);
  if (!region) return code;
  return language.startsWith('am') ? region.am : region.en;
}
