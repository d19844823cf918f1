import { getCategory, regionName, type CategorySlug, type IncidentRef, type IncidentSuggestion, type RecordDto } from '@app/shared';
import { formatDate } from '../../lib/dates';

/** What the incident picker says of a massacre or event: enough to tell two incidents apart at a glance. */

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** The day the incident happened: its category's incident date (a massacre's happenedOn, an event's start). */
function incidentDate(record: RecordDto): string | null {
  const field = getCategory(record.category)?.fields.find((f) => f.statistics === 'incidentDate');
  return field ? text(record[field.name]) : null;
}

interface Facts {
  date: string | null;
  caseNum: string | null;
  place: (string | null)[];
  region: string | null;
}

/** "12 Mar 2021 · Case 4 · Sample town, Zone, Amhara": date, case number and place, those recorded. */
function factsLine({ date, caseNum, place, region }: Facts, language: string, caseLabel: string): string {
  const where = place.map(text).filter(Boolean);
  if (text(region)) where.push(regionName(region!.trim(), language));
  return [date ? formatDate(date, language) : null, text(caseNum) ? `${caseLabel} ${caseNum!.trim()}` : null, where.join(', ') || null].filter(Boolean).join(' · ');
}

/** The facts of a massacre's or event's record. */
export function incidentFacts(record: RecordDto, language: string, caseLabel: string): string {
  const place = [record.location, record.city, record.woreda, record.zone].map(text);
  return factsLine({ date: incidentDate(record), caseNum: text(record.caseNum), place, region: text(record.region) }, language, caseLabel);
}

/** The facts of an incident as GET /incidents/suggest tells it. */
export function suggestionFacts(suggestion: IncidentSuggestion, language: string, caseLabel: string): string {
  return factsLine({ date: suggestion.date, caseNum: suggestion.caseNum, place: [suggestion.place], region: suggestion.region }, language, caseLabel);
}

/** The incident a stored person names, as the picker shows it before its full record is read. */
export interface PickedIncident {
  id: string;
  /** Absent when only the id is known (the reader is not told the incident, or it is in the trash). */
  category?: CategorySlug;
  title?: string;
  happenedOn?: string | null;
  unavailable?: boolean;
  /** What the suggestions said of it, when it was chosen from the options: its date, case number and place. */
  suggestion?: IncidentSuggestion;
}

/** The incident the record being edited names, from its `incidentId` and the `incident` the API adds. */
export function storedIncident(record: RecordDto | undefined): PickedIncident | null {
  const id = text(record?.incidentId);
  if (!record || !id) return null;
  const ref = record.incident as IncidentRef | undefined;
  if (ref && 'unavailable' in ref) return { id, unavailable: true };
  if (ref) return { id, category: ref.category, title: ref.title, happenedOn: ref.happenedOn };
  return { id };
}

export const pickedFrom = (suggestion: IncidentSuggestion): PickedIncident => ({
  id: suggestion.id,
  category: suggestion.category,
  title: suggestion.title,
  happenedOn: suggestion.date,
  suggestion,
});
