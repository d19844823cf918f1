import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db';
import { representatives } from '../../db/schema';
import { httpError } from '../../errors';
import { CAMPAIGN_COUNTRIES, COUNTRY_CODES, type CountryCode } from './directory';

/** The representatives a letter may go to: their country, whether they can be written to, how the directory shows them. */

export type RepresentativeRow = typeof representatives.$inferSelect;

export function countryCodeOf(value: string): CountryCode | null {
  const v = value.trim().toLowerCase();
  return COUNTRY_CODES.find((code) => code.toLowerCase() === v || CAMPAIGN_COUNTRIES[code].toLowerCase() === v) ?? null;
}

const NO_EMAIL_NOTE = 'No public e-mail address is known for this representative, so a letter cannot be sent from this site.';
const UNREACHABLE_NOTE = 'Letters to this representative cannot be delivered at the moment; please choose another representative.';

/** Whether a representative can be written to, and the note the form shows when not. */
export function availability(rep: { email: string | null; unreachable: boolean; note: string | null }) {
  if (rep.unreachable) return { available: false, note: rep.note ?? UNREACHABLE_NOTE };
  if (!rep.email) return { available: false, note: rep.note ?? NO_EMAIL_NOTE };
  return { available: true, note: rep.note };
}

/** A representative as the public directory shows it (office data only). */
export function representativeDto(r: RepresentativeRow) {
  return { id: r.id, name: r.name, party: r.party, district: r.district, email: r.email, ...availability(r) };
}

/** The representative a letter names by country, province and district, or a 400 keyed by the field that is wrong. */
export async function findRepresentative(db: Db, input: { country: string; province: string; district: string }) {
  const country = countryCodeOf(input.country);
  if (!country) throw httpError.badRequest({ country: 'Choose Canada or Australia' });
  const [rep] = await db
    .select()
    .from(representatives)
    .where(and(eq(representatives.country, country), eq(representatives.province, input.province), eq(representatives.district, input.district)));
  if (!rep) {
    const [province] = await db
      .select({ id: representatives.id })
      .from(representatives)
      .where(and(eq(representatives.country, country), eq(representatives.province, input.province)))
      .limit(1);
    if (!province) throw httpError.badRequest({ province: 'Choose a province or state from the list' });
    throw httpError.badRequest({ district: 'Choose a district from the list' });
  }
  const { available, note } = availability(rep);
  if (!available || !rep.email) throw httpError.badRequest({ district: note ?? NO_EMAIL_NOTE });
  return { country, rep: rep as RepresentativeRow & { email: string } };
}
