import { createHash, randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { MediaDto } from '@app/shared';
import type { Db } from '../../db';
import { media, type MediaRow } from '../../db/schema';
import type { Storage } from './storage';

export interface IncomingFile {
  /** Multipart field name (`image` or `files[]`), used to key errors. */
  field: string;
  filename: string;
  mimetype: string;
  stream: Readable;
}

export interface IngestOptions {
  recordId: string;
  role: 'cover' | 'gallery' | 'video';
  position: number;
  uploadedBy: string | null;
  /** What the field accepts: images, or a video. */
  accept: 'image' | 'video';
}

/**
 * Keeps uploaded originals with their SHA-256 and makes what the public sees. This first version stores the
 * original and serves a public copy of the same bytes; the media issue adds type sniffing, resized variants with
 * metadata removed, size limits, S3 storage and video processing behind the same calls.
 */
export class MediaService {
  constructor(
    private readonly db: Db,
    readonly storage: Storage,
  ) {}

  async ingest(file: IncomingFile, options: IngestOptions, tx?: Db): Promise<MediaRow> {
    const id = randomUUID();
    const hash = createHash('sha256');
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        hash.update(chunk);
        size += chunk.length;
        cb(null, chunk);
      },
    });
    const originalKey = `originals/${id.slice(0, 2)}/${id}`;
    await this.storage.put(originalKey, file.stream.pipe(counter), file.mimetype);
    const sha256 = hash.digest('hex');
    const ext = extensionOf(file.mimetype);
    const publicKey = `public/${sha256}${ext}`;
    if ((await this.storage.size(publicKey)) === null) {
      await this.storage.put(publicKey, await this.storage.get(originalKey), file.mimetype);
    }
    const [row] = await (tx ?? this.db)
      .insert(media)
      .values({
        id,
        recordId: options.recordId,
        kind: options.accept,
        role: options.role,
        position: options.position,
        storageKey: originalKey,
        sha256,
        size,
        mime: file.mimetype,
        originalName: file.filename.slice(0, 255),
        publicKey,
        uploadedBy: options.uploadedBy,
      })
      .returning();
    return row!;
  }

  /** Live files of the given records, in position order, grouped by record id. */
  async forRecords(recordIds: string[]): Promise<Map<string, MediaRow[]>> {
    const out = new Map<string, MediaRow[]>();
    if (!recordIds.length) return out;
    const rows = await this.db
      .select()
      .from(media)
      .where(and(inArray(media.recordId, recordIds), isNull(media.removedAt)))
      .orderBy(asc(media.position), asc(media.createdAt));
    for (const row of rows) {
      const list = out.get(row.recordId!) ?? [];
      list.push(row);
      out.set(row.recordId!, list);
    }
    return out;
  }

  /** Takes a file off its record; the original stays in storage as evidence. */
  async remove(mediaId: string, tx?: Db): Promise<MediaRow | null> {
    const [row] = await (tx ?? this.db)
      .update(media)
      .set({ removedAt: new Date() })
      .where(and(eq(media.id, mediaId), isNull(media.removedAt)))
      .returning();
    return row ?? null;
  }

  publicUrl(key: string): string {
    return `/media/${key}`;
  }

  toDto(row: MediaRow): MediaDto {
    return {
      imageId: row.id,
      imageUrl: row.publicKey ? this.publicUrl(row.publicKey) : '',
      kind: row.kind as MediaDto['kind'],
      width: row.width,
      height: row.height,
      variants: row.variants.map((v) => ({ width: v.width, format: v.format as never, url: this.publicUrl(v.key) })),
      sha256: row.sha256,
      caption: row.caption,
      graphic: row.graphic,
      status: row.status as MediaDto['status'],
    };
  }
}

function extensionOf(mime: string): string {
  const map: Record<string, string> = {
    'image/jpeg': '.jpg',
    'image/png': '.png',
    'image/webp': '.webp',
    'image/gif': '.gif',
    'image/avif': '.avif',
    'video/mp4': '.mp4',
    'video/webm': '.webm',
    'video/quicktime': '.mov',
  };
  return map[mime] ?? '.bin';
}
