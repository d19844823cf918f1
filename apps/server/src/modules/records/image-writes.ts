import { and, eq } from 'drizzle-orm';
import { can, type Actor, type CategoryDef } from '@app/shared';
import type { Db } from '../../db';
import { media, type RecordRow } from '../../db/schema';
import { httpError } from '../../errors';
import type { AuditService } from '../../services/audit';
import type { MediaService } from '../media/service';
import { asClientError, type BodyReader } from './body';
import { findLiveMedia } from './repository';

/** 403 unless the actor may change the record: its creator, or an editor who may change any. */
export function assertMayModify(actor: Actor, record: Pick<RecordRow, 'userId'>): void {
  if (!can.modify(actor, record)) throw httpError.forbidden('You can only change records you created');
}

/**
 * Writes of one image of a record: taking it off, and a new caption or file. Each runs in one transaction with its
 * audit entry, as the record writes do (writes.ts).
 */
export class ImageWrites {
  private readonly db: Db;

  constructor(private readonly services: { db: Db; media: MediaService; audit: AuditService }) {
    this.db = services.db;
  }

  /**
   * Takes one file off a record (the original stays in storage, named by the audit entry). With `category`, the
   * file must belong to that record (DELETE /{category}/{id}/image/{imageId}/delete).
   */
  async removeImage(mediaId: string, actor: Actor, owner?: { category: CategoryDef; recordId: string }): Promise<RecordRow> {
    const found = await findLiveMedia(this.db, mediaId);
    if (!found || found.record.deletedAt) throw httpError.notFound();
    if (owner && (found.record.id !== owner.recordId || found.record.category !== owner.category.slug)) {
      throw httpError.notFound();
    }
    assertMayModify(actor, found.record);
    await this.db.transaction(async (tx) => {
      const removed = await this.services.media.remove(mediaId, tx);
      if (!removed) throw httpError.notFound();
      await this.services.audit.append(
        {
          actor,
          action: 'image.delete',
          category: found.record.category,
          recordId: found.record.id,
          subject: `media:${mediaId}`,
          changes: {
            image: {
              before: { imageId: mediaId, sha256: found.media.sha256, storageKey: found.media.storageKey },
              after: null,
            },
          },
        },
        tx,
      );
    });
    return found.record;
  }

  /** PUT /images/{id}/edit: a new caption (field `caption`) and/or a new file (field `image`) for one image. */
  async editImage(body: BodyReader, mediaId: string, actor: Actor): Promise<string> {
    const found = await findLiveMedia(this.db, mediaId);
    if (!found || found.record.deletedAt) throw httpError.notFound();
    assertMayModify(actor, found.record);
    return this.services.media.transaction(async (tx) => {
      let currentId = mediaId;
      for (let part = await body.nextFile(); part; part = await body.nextFile()) {
        if (part.field !== 'image' || currentId !== mediaId) {
          part.file.stream.resume();
          throw httpError.badRequest({ [part.file.field]: 'Send one replacement file in the field image' });
        }
        await this.services.media.remove(mediaId, tx);
        try {
          const replacement = await this.services.media.ingest(
            part.file,
            {
              recordId: found.record.id,
              role: found.media.role as 'cover' | 'gallery',
              position: found.media.position,
              uploadedBy: actor.id,
              accept: 'image',
            },
            tx,
          );
          currentId = replacement.id;
        } catch (err) {
          throw asClientError(err);
        }
      }
      const captionSent = 'caption' in body.fields;
      const caption = captionSent ? String(body.fields.caption ?? '').trim() : undefined;
      if (caption !== undefined && caption.length > 1000) throw httpError.badRequest({ caption: 'Must be at most 1000 characters' });
      if (!captionSent && currentId === mediaId) throw httpError.badRequest({ image: 'Send a new caption or a new image' });
      const newCaption = captionSent ? caption || null : found.media.caption;
      await tx.update(media).set({ caption: newCaption }).where(and(eq(media.id, currentId)));
      const changes: Record<string, { before: unknown; after: unknown }> = {};
      if (newCaption !== found.media.caption) changes.caption = { before: found.media.caption, after: newCaption };
      if (currentId !== mediaId) changes.image = { before: mediaId, after: currentId };
      await this.services.audit.append(
        { actor, action: 'image.edit', category: found.record.category, recordId: found.record.id, subject: `media:${currentId}`, changes },
        tx,
      );
      return currentId;
    });
  }
}
