import { getCategory, regionName, type CategorySlug, type IncidentRef, type RecordDto } from '@app/shared';
import { formatDate } from '../../lib/dates';

/** What the incident picker says of a massacre or event: enough to tell two incidents apart at a glance. */

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** The day the incident happened: its category's incident date (a massacre's happenedOn, an event's start). */
function incidentDate(record: RecordDto): string | null {
  const field = getCategory(record.category)?.fields.find((f) => f.statistics === 'incidentDate');
  return field ? text(record[field.name]) : null;
}

/** "12 Mar 2021 · Case 4 · Sample town, Zone, Amhara": date, case number and place, those recorded. */
export function incidentFacts(record: RecordDto, language: string, caseLabel: string): string {
  const date = incidentDate(record);
  const caseNum = text(record.caseNum);
  const region = text(record.region);
  const place = [record.location, record.city, record.woreda, record.zone].map(text).filter(Boolean);
  if (region) place.push(regionName(region, language));
  return [date ? formatDate(date, language) : null, caseNum ? `${caseLabel} ${caseNum}` : null, place.join(', ') || null].filter(Boolean).join(' · ');
}

/** The incident a stored person names, as the picker shows it before its full record is read. */
export interface PickedIncident {
  id: string;
  /** Absent when only the id is known (the reader is not told the incident, or it is in the trash). */
  category?: CategorySlug;
  title?: string;
  happenedOn?: string | null;
  unavailable?: boolean;
  /** The whole record, when it was chosen from the options (or read since). */
  record?: RecordDto;
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

export const pickedFrom = (record: RecordDto): PickedIncident => ({ id: record._id, category: record.category, title: record.title, record });
