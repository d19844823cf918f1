import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import { categoriesLinkingTo, publicSources, type Actor, type CategorySlug, type RecordDto, type Source } from '@app/shared';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { auditLog, linkCaptures, media, records, type LinkCaptureRow, type MediaRow, type RecordRow } from '../../db/schema';
import type { AuditService } from '../../services/audit';
import type { MediaService } from '../media/service';
import type { Storage } from '../media/storage';
import { findRecordViews } from '../records/repository';
import { toRecordDto } from '../records/dto';

/** What packaging needs of the site: its database, files, audit log and keys (the server's, or the command line's). */
export interface PackageServices {
  db: Db;
  storage: Storage;
  media: MediaService;
  audit: AuditService;
  config: Pick<Config, 'SITE_NAME' | 'CONTACT_EMAIL' | 'publicUrl'>;
  /** The public key that signs captures' WACZ files (/.well-known/capture-key). */
  capturePublicKeyPem: string;
}

/** One version of a record as its audit entries tell it: its fields after the entry at `seq`. */
export interface RecordVersion {
  seq: number;
  at: string;
  action: string;
  actorId: string | null;
  actorRole: string | null;
  fields: Record<string, unknown>;
}

export interface PackagedRecord {
  row: RecordRow;
  dto: RecordDto;
  versions: RecordVersion[];
}

export interface PackageContents {
  record: PackagedRecord;
  people: PackagedRecord[];
  media: MediaRow[];
  captures: LinkCaptureRow[];
  includeWithheld: boolean;
}

/** A source list as the package shows it: whole when withheld testimony was chosen, else with the placeholder for each. */
export function packagedSources(sources: readonly Source[] | null | undefined, includeWithheld: boolean): Source[] {
  return includeWithheld ? [...(sources ?? [])] : publicSources(sources);
}

/**
 * Every version of a record from its audit entries, oldest first: each entry's `after` values laid over the version
 * before (the entries record what changed, field by field, from the create on).
 */
async function versionsOf(db: Db, recordId: string, includeWithheld: boolean): Promise<RecordVersion[]> {
  const rows = await db.select().from(auditLog).where(eq(auditLog.recordId, recordId)).orderBy(asc(auditLog.seq));
  const versions: RecordVersion[] = [];
  let fields: Record<string, unknown> = {};
  for (const row of rows) {
    const changed = Object.entries(row.changes ?? {});
    if (!changed.length) continue;
    fields = { ...fields, ...Object.fromEntries(changed.map(([name, change]) => [name, change?.after ?? null])) };
    const shown = 'sources' in fields ? { ...fields, sources: packagedSources(fields.sources as Source[] | null, includeWithheld) } : fields;
    versions.push({ seq: row.seq, at: row.at.toISOString(), action: row.action, actorId: row.actorId, actorRole: row.actorRole, fields: shown });
  }
  return versions;
}

async function packagedRecords(services: PackageServices, ids: string[], reader: Actor, includeWithheld: boolean): Promise<PackagedRecord[]> {
  const views = await findRecordViews(services.db, ids);
  const out: PackagedRecord[] = [];
  for (const view of views) {
    const dto = toRecordDto(view.record, view.files, services.media, { reader, plainLinks: true, incident: view.incident });
    if ('sources' in dto) {
      dto.sources = packagedSources(view.record.sources, includeWithheld);
    }
    out.push({ row: view.record, dto, versions: await versionsOf(services.db, view.record.id, includeWithheld) });
  }
  return out;
}

/**
 * The record (live, of `category`), the live people linked to it when it is an incident, every original file of
 * theirs (those taken off a record too: the original is evidence still), and every capture of the links they cite.
 * Null when there is no such record.
 */
export async function readContents(services: PackageServices, category: CategorySlug, id: string, reader: Actor, includeWithheld: boolean): Promise<PackageContents | null> {
  const { db } = services;
  const [found] = await db
    .select({ id: records.id })
    .from(records)
    .where(and(eq(records.id, id), eq(records.category, category), isNull(records.deletedAt)))
    .limit(1);
  if (!found) return null;
  const [record] = await packagedRecords(services, [id], reader, includeWithheld);
  const linking = categoriesLinkingTo(category).map((c) => c.slug);
  const peopleIds = linking.length
    ? (
        await db
          .select({ id: records.id })
          .from(records)
          .where(and(eq(records.incidentId, id), isNull(records.deletedAt), inArray(records.category, linking)))
          .orderBy(asc(records.createdAt), asc(records.id))
      ).map((r) => r.id)
    : [];
  const people = (await packagedRecords(services, peopleIds, reader, includeWithheld)).sort((a, b) => peopleIds.indexOf(a.row.id) - peopleIds.indexOf(b.row.id));
  const all = [id, ...peopleIds];
  const files = await db.select().from(media).where(inArray(media.recordId, all)).orderBy(asc(media.createdAt), asc(media.id));
  const captures = await db
    .select()
    .from(linkCaptures)
    .where(and(inArray(linkCaptures.recordId, all), or(eq(linkCaptures.status, 'done'), eq(linkCaptures.status, 'failed'))))
    .orderBy(asc(linkCaptures.requestedAt), asc(linkCaptures.id));
  return { record: record!, people, media: files, captures, includeWithheld };
}
