import { eq } from 'drizzle-orm';
import {
  dataFields,
  isDateKind,
  recordInputSchema,
  uploadFields,
  type Actor,
  type CategoryDef,
  type CategorySlug,
  type RecordInput,
  type Source,
} from '@app/shared';
import type { Db } from '../../db';
import type { AuditService } from '../../services/audit';
import type { CaptureService } from '../captures/service';
import type { MediaService } from '../media/service';
import { records, type MediaRow, type RecordRow } from '../../db/schema';
import { httpError } from '../../errors';
import { diffFields } from '../../services/audit';
import { asClientError, type BodyReader, type UploadPart } from './body';
import { ImageWrites, assertMayModify } from './image-writes';
import { checkLinks } from './links';
import { settleWithheld } from './withheld';
import { findRecord, liveMediaOf, lockRecord, type Tx } from './repository';

/**
 * Every write of the records API. Each runs in one transaction together with its audit entry, so a write and its
 * log entry commit or fail together; a 400 leaves no rows behind.
 */

type Snapshot = Record<string, unknown>;

/** What the audit log compares: the category's data fields, the review flags and the ids of the live files. */
function snapshot(row: RecordRow | null, files: MediaRow[] | null): Snapshot | null {
  if (!row) return null;
  return { ...(row as unknown as Snapshot), images: (files ?? []).map((f) => f.id) };
}

function auditedFields(category: CategoryDef): string[] {
  return [...dataFields(category).map((f) => f.name), 'images'];
}

/** Columns to write from validated input: only the category's data fields that were sent. */
function columnValues(category: CategoryDef, input: RecordInput): Partial<RecordRow> {
  const out: Record<string, unknown> = {};
  for (const field of dataFields(category)) {
    if (!(field.name in input) || input[field.name] === undefined) continue;
    out[field.name] = input[field.name];
  }
  // Columns that cannot be empty: a blank posted date keeps the stored one; blank sources are none.
  if (out.createdAt === null) delete out.createdAt;
  if (out.sources === null) out.sources = [];
  return out as Partial<RecordRow>;
}

/**
 * The edit form writes instants to the second (YYYY-MM-DDTHH:mm:ss, decisions.md §1) while the stored ones keep their
 * milliseconds: a date sent back unchanged within its second keeps the stored instant, so an edit neither moves it
 * (lists order by it) nor logs a change nobody made.
 */
function keepUnchangedInstants(category: CategoryDef, values: Partial<RecordRow>, before: RecordRow): Partial<RecordRow> {
  const out = { ...values } as Record<string, unknown>;
  const stored = before as unknown as Record<string, unknown>;
  for (const field of dataFields(category)) {
    const sent = out[field.name];
    const kept = stored[field.name];
    if (!isDateKind(field.kind) || !(sent instanceof Date) || !(kept instanceof Date)) continue;
    if (Math.floor(sent.getTime() / 1000) === Math.floor(kept.getTime() / 1000)) delete out[field.name];
  }
  return out as Partial<RecordRow>;
}

function uploadRole(category: CategoryDef, field: string) {
  const declared = uploadFields(category).find((f) => f.name === field);
  if (!declared) return null;
  if (declared.kind === 'video') return { role: 'video' as const, accept: 'video' as const, single: true };
  if (declared.kind === 'image') return { role: 'cover' as const, accept: 'image' as const, single: true };
  return { role: 'gallery' as const, accept: 'image' as const, single: false };
}

/** What the record writes use: the database, where files go, the audit log and the captures of cited links. */
interface RecordWriteServices {
  db: Db;
  media: MediaService;
  audit: AuditService;
  captures: Pick<CaptureService, 'recordWritten'>;
}

export class RecordWrites {
  private readonly db: Db;
  private readonly images: ImageWrites;

  constructor(private readonly services: RecordWriteServices) {
    this.db = services.db;
    this.images = new ImageWrites(services);
  }

  /** POST /{category}: 201 with the new record. `within` runs in its transaction (an import links the row to it). */
  async create(body: BodyReader, category: CategoryDef, actor: Actor, within?: (tx: Tx, recordId: string) => Promise<void>): Promise<string> {
    return this.services.media.transaction((tx) => this.createIn(tx, body, category, actor, within));
  }

  /** A create in the caller's transaction: an import writes many in one (each in a savepoint of its own). */
  async createIn(tx: Tx, body: BodyReader, category: CategoryDef, actor: Actor, within?: (tx: Tx, recordId: string) => Promise<void>): Promise<string> {
    {
      let pending = await body.nextFile();
      // Check what was sent before the first file, so a bad value is refused before any file is stored.
      const early = recordInputSchema(category, { partial: true }).parse(body.fields) as RecordInput;
      const [row] = await tx
        .insert(records)
        .values({
          ...columnValues(category, early),
          category: category.slug,
          title: typeof early.title === 'string' ? early.title : '',
          description: typeof early.description === 'string' ? early.description : '',
          userId: actor.id,
          public: true,
        } as typeof records.$inferInsert)
        .returning();
      const recordId = row!.id;
      await this.storeUploads(tx, category, recordId, actor, pending, body.nextFile);
      pending = null;
      // The full check, with fields sent after the files and the required ones.
      const input = recordInputSchema(category).parse(body.fields) as RecordInput;
      await checkLinks(tx, category, input, null);
      const [saved] = await tx
        .update(records)
        .set({ ...columnValues(category, input), createdAt: (input.createdAt as Date | undefined) ?? row!.createdAt })
        .where(eq(records.id, recordId))
        .returning();
      const files = await liveMediaOf(tx, recordId);
      await this.services.captures.recordWritten(tx, null, saved!, actor);
      await this.services.audit.append(
        {
          actor,
          action: 'create',
          category: category.slug,
          recordId,
          changes: diffFields(null, snapshot(saved!, files), auditedFields(category)),
        },
        tx,
      );
      await within?.(tx, recordId);
      return recordId;
    }
  }

  /** PUT /{category}/{id}/edit: fields not sent are kept; a new `image` replaces the cover, new `files` append. */
  async edit(body: BodyReader, category: CategoryDef, id: string, actor: Actor): Promise<void> {
    await this.requireModifiable(category, id, actor);
    await this.services.media.transaction(async (tx) => {
      const before = await lockRecord(tx, id);
      if (!before || before.deletedAt || before.category !== category.slug) throw httpError.notFound();
      const filesBefore = await liveMediaOf(tx, id);
      const pending = await body.nextFile();
      const schema = recordInputSchema(category, { partial: true });
      schema.parse(body.fields);
      await this.storeUploads(tx, category, id, actor, pending, body.nextFile);
      const input = schema.parse(body.fields) as RecordInput;
      if ('sources' in input && input.sources !== undefined) {
        input.sources = settleWithheld(before.sources, (input.sources ?? []) as Source[], actor, before);
      }
      await checkLinks(tx, category, input, before);
      const [after] = await tx
        .update(records)
        .set({ ...keepUnchangedInstants(category, columnValues(category, input), before), updatedAt: new Date() })
        .where(eq(records.id, id))
        .returning();
      const filesAfter = await liveMediaOf(tx, id);
      await this.services.captures.recordWritten(tx, before, after!, actor);
      const changes = diffFields(snapshot(before, filesBefore), snapshot(after!, filesAfter), auditedFields(category));
      await this.services.audit.append({ actor, action: 'edit', category: category.slug, recordId: id, changes }, tx);
    });
  }

  /**
   * Stores the files of a create or edit, starting with `first` (already reached by the reader). A single-file field
   * (`image`) replaces the record's current file of that role; `files` append after the last image.
   */
  private async storeUploads(
    tx: Tx,
    category: CategoryDef,
    recordId: string,
    actor: Actor,
    first: UploadPart | null,
    next: () => Promise<UploadPart | null>,
  ): Promise<void> {
    const existing = await liveMediaOf(tx, recordId);
    let nextPosition = existing.reduce((max, f) => Math.max(max, f.position + 1), 1);
    const seenSingle = new Set<string>();
    for (let part = first; part; part = await next()) {
      const role = uploadRole(category, part.field);
      if (!role) {
        part.file.stream.resume();
        throw httpError.badRequest({ [part.file.field]: `A ${category.slug} record takes no file in this field` });
      }
      if (role.single) {
        if (seenSingle.has(part.field)) {
          part.file.stream.resume();
          throw httpError.badRequest({ [part.file.field]: 'Send one file in this field' });
        }
        seenSingle.add(part.field);
        for (const old of existing.filter((f) => f.role === role.role)) await this.services.media.remove(old.id, tx);
      }
      try {
        await this.services.media.ingest(
          part.file,
          { recordId, role: role.role, position: role.single ? 0 : nextPosition++, uploadedBy: actor.id, accept: role.accept },
          tx,
        );
      } catch (err) {
        throw asClientError(err);
      }
    }
  }

  /** 404 for a missing, trashed or other-category record; 403 unless the actor may change it. */
  async requireModifiable(category: CategoryDef, id: string, actor: Actor): Promise<RecordRow> {
    const row = await findRecord(this.db, id);
    if (!row || row.deletedAt || row.category !== category.slug) throw httpError.notFound();
    assertMayModify(actor, row);
    return row;
  }

  /** Sets flags on a live record of `category` and logs the change (approve, access toggle). */
  private async setFlags(
    category: CategoryDef,
    id: string,
    actor: Actor,
    action: string,
    compute: (row: RecordRow) => Partial<RecordRow>,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const before = await lockRecord(tx, id);
      if (!before || before.deletedAt || before.category !== category.slug) throw httpError.notFound();
      const values = compute(before);
      const changes = diffFields(before, { ...before, ...values }, Object.keys(values));
      if (!Object.keys(changes).length) return; // already so: nothing written, nothing logged
      await tx.update(records).set(values).where(eq(records.id, id));
      await this.services.audit.append({ actor, action, category: category.slug, recordId: id, changes }, tx);
    });
  }

  approve(category: CategoryDef, id: string, actor: Actor) {
    return this.setFlags(category, id, actor, 'approve', (row) =>
      row.approved ? {} : { approved: true, approvedBy: actor.id, approvedAt: new Date() },
    );
  }

  toggleAccess(category: CategoryDef, id: string, actor: Actor) {
    return this.setFlags(category, id, actor, 'access', (row) => ({ public: !row.public }));
  }

  /** DELETE /{category}/{id}/delete: to the trash (owner, admin, super). */
  async trash(category: CategoryDef, id: string, actor: Actor): Promise<void> {
    await this.requireModifiable(category, id, actor);
    await this.setFlags(category, id, actor, 'delete', () => ({ deletedAt: new Date(), deletedBy: actor.id }));
  }

  /** PUT /trash/{id}/restore. */
  async restore(id: string, actor: Actor): Promise<CategorySlug> {
    return this.db.transaction(async (tx) => {
      const before = await lockRecord(tx, id);
      if (!before || !before.deletedAt) throw httpError.notFound();
      // A record merged into another (modules/duplicates) comes back as a record of its own again.
      const values = { deletedAt: null, deletedBy: null, mergedInto: null };
      await tx.update(records).set(values).where(eq(records.id, id));
      const changes = diffFields(before, { ...before, ...values }, Object.keys(values));
      await this.services.audit.append({ actor, action: 'restore', category: before.category, recordId: id, changes }, tx);
      return before.category as CategorySlug;
    });
  }

  /** DELETE /trash/{id}: removes the row; its files keep their originals (record_id becomes null). */
  async purge(id: string, actor: Actor): Promise<CategorySlug> {
    return this.db.transaction(async (tx) => {
      const before = await lockRecord(tx, id);
      if (!before || !before.deletedAt) throw httpError.notFound();
      const files = await liveMediaOf(tx, id);
      await tx.delete(records).where(eq(records.id, id));
      const fields = Object.keys(before).concat('images');
      const changes = diffFields(snapshot(before, files), null, fields);
      await this.services.audit.append({ actor, action: 'purge', category: before.category, recordId: id, changes }, tx);
      return before.category as CategorySlug;
    });
  }

  removeImage(...args: Parameters<ImageWrites['removeImage']>) {
    return this.images.removeImage(...args);
  }

  editImage(...args: Parameters<ImageWrites['editImage']>) {
    return this.images.editImage(...args);
  }
}
