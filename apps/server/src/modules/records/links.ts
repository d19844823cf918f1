import { eq, sql } from 'drizzle-orm';
import { can, incidentField, publicPoint, publicSources, WITHHELD_SOURCE, type Actor, type CategoryDef, type IncidentRef, type RecordInput, type Source } from '@app/shared';
import { records, type RecordRow } from '../../db/schema';
import { httpError } from '../../errors';
import type { Executor } from '../../db';

/**
 * What a record's JSON says across its links (issue 39 items 1, 2 and 5), for one reader: the incident a person belongs
 * to, its sources (a withheld testimony's details for its author and staff only) and where it happened (rounded to its
 * precision for everyone but its editors). Also the checks of a write's links.
 */

/** A person's incident as the reads join it (incidentOfRecord): what decides who may see it. */
export interface IncidentJoin {
  id: string;
  category: string;
  title: string;
  public: boolean;
  live: boolean;
  happenedOn: string | null;
  quantity: number | null;
}

/** The incident of `records.incident_id`, read in the record's own statement (null: no link, or a purged incident). */
export const incidentOfRecord = sql<IncidentJoin | null>`(select json_build_object('id', i.id, 'category', i.category,
    'title', i.title, 'public', i.public, 'live', i.deleted_at is null, 'happenedOn', i.happened_on, 'quantity', i.quantity)
  from records i where i.id = records.incident_id)`;

/** Who a record's JSON is for: its reader (null: anonymous), and whether it is an export (a document kept apart). */
export interface LinkViewer {
  reader: Actor | null;
  /** Exports show what the public sees of sources and coordinates, whoever downloads them. */
  keptApart: boolean;
}

/** May this reader see what only a record's editors see (exact coordinates)? */
function isEditorOf(row: RecordRow, { reader, keptApart }: LinkViewer): boolean {
  return !keptApart && can.modify(reader, row);
}

/**
 * The link fields of a record's JSON for `who`. `incident` undefined: not read (the trash, for staff only), shown as
 * stored to a signed-in reader and not at all to others.
 */
export function linkFields(row: RecordRow, incident: IncidentJoin | null | undefined, who: LinkViewer): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const editor = isEditorOf(row, who);
  out.sources = who.keptApart ? publicSources(row.sources) : sourcesFor(row, who.reader);
  if (row.latitude !== null && row.longitude !== null && !editor) {
    const point = publicPoint(row.latitude, row.longitude, row.geoPrecision);
    out.latitude = point.latitude;
    out.longitude = point.longitude;
  }
  if (row.incidentId !== null) Object.assign(out, incidentFields(row.incidentId, incident, who.reader));
  return out;
}

/**
 * A withheld testimony's details go to staff and to its author (can.readWithheld), not to whoever edits the record: a
 * merge may have brought it onto another contributor's record, and must not widen who reads it.
 */
function sourcesFor(row: RecordRow, reader: Actor | null): Source[] {
  return row.sources.map((source) => (source.withheld && !can.readWithheld(reader, row, source) ? WITHHELD_SOURCE : source));
}

function incidentFields(incidentId: string, incident: IncidentJoin | null | undefined, reader: Actor | null): { incidentId: string | null; incident?: IncidentRef } {
  const signedIn = can.readPrivate(reader);
  if (incident === undefined) return { incidentId: signedIn ? incidentId : null };
  if (!incident || !incident.live) return { incidentId: signedIn ? incidentId : null, incident: { unavailable: true } };
  if (!incident.public && !signedIn) return { incidentId: null };
  return {
    incidentId,
    incident: {
      _id: incident.id,
      category: incident.category as Extract<IncidentRef, { _id: string }>['category'],
      title: incident.title,
      happenedOn: incident.happenedOn ? new Date(incident.happenedOn).toISOString() : null,
      quantity: incident.quantity,
    },
  };
}

/**
 * Whether every reader gets the same JSON of the record's links (so it may be kept and shared): no withheld testimony,
 * no coordinates that are rounded for some, and an incident every reader may read or none may.
 */
export function linksSameForEveryone(row: RecordRow, incident: IncidentJoin | null | undefined): boolean {
  if (row.sources.some((s) => s.withheld)) return false;
  if (row.latitude !== null && row.geoPrecision !== 'exact') return false;
  if (row.incidentId !== null && !(incident && incident.live && incident.public)) return false;
  return true;
}

/**
 * The checks of a create or edit that read other records or several fields: the incident named exists, is live and is
 * of a category this one may link to (a 400 keyed `incidentId`); coordinates come in pairs with their precision. `before`
 * is the stored row of an edit (whose link to an incident since trashed may be kept unchanged).
 */
export async function checkLinks(tx: Executor, category: CategoryDef, input: RecordInput, before: RecordRow | null): Promise<void> {
  const field = incidentField(category);
  const incidentId = input.incidentId;
  if (field && typeof incidentId === 'string' && incidentId !== before?.incidentId) {
    const [found] = await tx.select({ category: records.category, deletedAt: records.deletedAt }).from(records).where(eq(records.id, incidentId)).limit(1);
    if (!found) throw httpError.badRequest({ incidentId: 'No massacre or event has this id' });
    if (!field.linksTo?.includes(found.category as never)) throw httpError.badRequest({ incidentId: `A ${category.slug} record can be linked to ${field.linksTo?.join(' or ')} only` });
    if (found.deletedAt) throw httpError.badRequest({ incidentId: 'This incident is in the trash' });
  }
  if (!category.fields.some((f) => f.kind === 'coordinate')) return;
  const merged = (name: 'latitude' | 'longitude' | 'geoPrecision') => (name in input && input[name] !== undefined ? input[name] : before?.[name] ?? null);
  const latitude = merged('latitude');
  const longitude = merged('longitude');
  if ((latitude === null) !== (longitude === null)) {
    throw httpError.badRequest({ [latitude === null ? 'latitude' : 'longitude']: 'Give both latitude and longitude, or neither' });
  }
  if (latitude !== null && !merged('geoPrecision')) throw httpError.badRequest({ geoPrecision: 'Choose how exactly the public may see this place' });
}
