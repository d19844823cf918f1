import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { can, type MaybeActor, type MediaDto, type MediaVerifyReport } from '@app/shared';
import { preparedOnce, type Db, type Executor, type Tx } from '../../db';
import { media, type MediaRow } from '../../db/schema';
import { httpError } from '../../errors';
import type { JobQueue } from '../../services/jobs';
import { mediaDto, publicUrl, type MediaDtoOptions, type MediaView } from './dto';
import { verifyOriginals } from './fixity';
import { UnreadableImageError, makePublicImage, readRestrictedInfo, type RestrictedInfo } from './images';
import type { SignedLinks } from './signed-links';
import { checkFolder, makeFolder } from './disk-check';
import { cleanStagingFolder, stagingFileName } from './staging-folder';
import { asStorageFailure, type Storage } from './storage';
import { stageUpload, type IncomingFile, type Staged } from './upload-staging';
import { VIDEO_JOB, VIDEO_JOB_ATTEMPTS, processVideo } from './video-job';

export type { IncomingFile } from './upload-staging';
export type { MediaView } from './dto';
export { VIDEO_JOB } from './video-job';

interface IngestOptions {
  recordId: string;
  role: 'cover' | 'gallery' | 'video';
  position: number;
  uploadedBy: string | null;
  /** What the field accepts: images, or a video. */
  accept: 'image' | 'video';
  caption?: string | null;
  graphic?: boolean;
}

interface MediaServiceOptions {
  /** Largest accepted image and video, in bytes. */
  maxImageBytes?: number;
  maxVideoBytes?: number;
  /** Where uploads are staged while they are checked (a folder of the data directory). */
  tmpDir?: string;
  /** Queue of the `video.process` job; without it videos are left queued. */
  jobs?: JobQueue;
  /** ffmpeg and ffprobe paths, or null when ffmpeg is not installed (videos are then served as uploaded). */
  ffmpeg?: { ffmpeg: string; ffprobe: string | null } | null;
  log?: { info: (msg: string) => void; warn: (msg: string) => void };
  /** Signs the links to copies that are not public, for the signed-in readers shown them. */
  links?: SignedLinks;
  /** Below this much free space in the staging folder, checkStorage (and so /ready) says storage is full. */
  minFreeBytes?: number;
}

/**
 * Keeps uploaded originals unchanged with their SHA-256, and makes what the public sees: resized image copies with
 * metadata removed, and for videos a web-playable MP4 and a poster made by a background job (video-job.ts). Originals
 * are stored under `originals/<sha256>` (identical uploads share one file); public copies under `public/`.
 */
export class MediaService {
  private readonly limits: { maxImageBytes: number; maxVideoBytes: number };
  private readonly tmpDir: string;
  /** The public copies made in each open transaction of `transaction`, removed if it does not commit. */
  private readonly copiesOf = new WeakMap<Executor, string[]>();

  constructor(
    private readonly db: Db,
    readonly storage: Storage,
    private readonly options: MediaServiceOptions = {},
  ) {
    this.limits = { maxImageBytes: options.maxImageBytes ?? 20 * 1024 * 1024, maxVideoBytes: options.maxVideoBytes ?? 1024 * 1024 * 1024 };
    this.tmpDir = options.tmpDir ?? path.join(os.tmpdir(), 'media-uploads');
  }

  /** The signing of links to files that are not public (captures sign their files' links with it too). */
  get links(): SignedLinks | undefined {
    return this.options.links;
  }

  /**
   * Checks and stores one uploaded file and inserts its row (in `tx` when given). Rejections - a type that is not an
   * accepted image or video (400), a file over the size limit (413), an image sharp cannot decode (400) - are keyed
   * by the file's field and leave nothing behind: no row and no stored file.
   */
  async ingest(file: IncomingFile, options: IngestOptions, tx?: Executor): Promise<MediaRow> {
    let staged: Staged;
    try {
      await makeFolder(this.tmpDir, 0o700);
      staged = await stageUpload(file, options.accept, path.join(this.tmpDir, stagingFileName()), this.limits);
    } catch (err) {
      // The staging folder refusing the file is the store's failure (503), not a bad form.
      throw asStorageFailure(err);
    }
    let copies: string[] = [];
    try {
      const originalKey = `originals/${staged.sha256.slice(0, 2)}/${staged.sha256}`;
      const derived =
        staged.type.kind === 'image'
          ? await this.deriveImage(staged, file.field)
          : { width: null, height: null, variants: [], publicKey: null, restricted: null, status: 'queued' };
      copies = derived.variants.map((v) => v.key);
      if ((await this.storage.size(originalKey)) === null) {
        await this.storage.put(originalKey, createReadStream(staged.path), staged.type.mime, staged.size);
      }
      const [row] = await (tx ?? this.db)
        .insert(media)
        .values({
          recordId: options.recordId,
          kind: staged.type.kind,
          role: options.role,
          position: options.position,
          storageKey: originalKey,
          sha256: staged.sha256,
          size: staged.size,
          mime: staged.type.mime,
          originalName: file.filename.slice(0, 255) || null,
          caption: options.caption ?? null,
          graphic: options.graphic ?? false,
          uploadedBy: options.uploadedBy,
          ...derived,
        })
        .returning();
      if (staged.type.kind === 'video') {
        if (this.options.jobs) await this.options.jobs.enqueue(VIDEO_JOB, { mediaId: row!.id }, { maxAttempts: VIDEO_JOB_ATTEMPTS }, tx);
        else this.options.log?.warn(`media ${row!.id}: no job queue, the video stays queued`);
      }
      if (tx) this.copiesOf.get(tx)?.push(...copies);
      return row!;
    } catch (err) {
      // A refused upload leaves no public copies behind (its original, possibly shared with another upload of the
      // same bytes under way, is left to `media:verify --prune`).
      await this.removeCopies(copies);
      throw err;
    } finally {
      await rm(staged.path, { force: true });
    }
  }

  /**
   * A transaction whose uploads (`ingest` with its `tx`) keep their public copies only if it commits: a form refused
   * after its files were stored (a later file, a field checked at the end) leaves no copy that nothing names.
   */
  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const copies: string[] = [];
    try {
      return await this.db.transaction((tx) => {
        this.copiesOf.set(tx, copies);
        return work(tx);
      });
    } catch (err) {
      await this.removeCopies(copies);
      throw err;
    }
  }

  private async removeCopies(keys: string[]): Promise<void> {
    for (const key of keys) {
      await this.storage.delete(key).catch((err: Error) => this.options.log?.warn(`media: public copy ${key} of a refused upload kept: ${err.message}`));
    }
  }

  /** Resolves when files can be stored: the store takes them, and so does the staging folder (not read-only, not full). */
  async checkStorage(): Promise<void> {
    await this.storage.ping();
    await checkFolder(this.tmpDir, this.options.minFreeBytes ?? 0, 0o700);
  }

  /**
   * Public copies and restricted metadata of an image. Made anew for every file, even when the same image was
   * uploaded before: copies shared between a public record and a private one would stay served with the public one.
   */
  private async deriveImage(staged: Staged, field: string) {
    try {
      const image = await makePublicImage(staged.path, this.storage);
      const restricted = await readRestrictedInfo(staged.path);
      return {
        width: image.width,
        height: image.height,
        variants: image.variants,
        publicKey: image.mainKey,
        restricted: restricted as Record<string, unknown> | null,
        status: 'ready',
      };
    } catch (err) {
      if (err instanceof UnreadableImageError) {
        throw httpError.badRequest({ [field]: 'The image could not be read; upload a JPEG, PNG, WebP, AVIF or GIF file' });
      }
      throw err;
    }
  }

  /** The `video.process` job (video-job.ts). */
  processVideo(mediaId: string, job: { attempts: number } = { attempts: 1 }): Promise<void> {
    const { db, storage, tmpDir } = this;
    return processVideo({ db, storage, tmpDir, ffmpeg: this.options.ffmpeg ?? null, log: this.options.log }, mediaId, job);
  }

  /** Removes what crashed processes left in the staging folder (staging-folder.ts). */
  cleanStaging(maxAgeMs?: number): Promise<number> {
    return cleanStagingFolder(this.tmpDir, maxAgeMs);
  }

  /** Live files of the given records, in position order, grouped by record id. */
  async forRecords(recordIds: string[]): Promise<Map<string, MediaRow[]>> {
    const out = new Map<string, MediaRow[]>();
    if (!recordIds.length) return out;
    const rows = await preparedOnce(this.db, 'media_of_records', () =>
      this.db
        .select()
        .from(media)
        .where(and(sql`${media.recordId} = any(${sql.placeholder('ids')}::uuid[])`, isNull(media.removedAt)))
        .orderBy(asc(media.position), asc(media.createdAt))
        .prepare('media_of_records'),
    ).execute({ ids: recordIds });
    for (const row of rows) {
      const list = out.get(row.recordId!) ?? [];
      list.push(row);
      out.set(row.recordId!, list);
    }
    return out;
  }

  /** One live file, or null. */
  async get(mediaId: string, tx?: Executor): Promise<MediaRow | null> {
    const [row] = await (tx ?? this.db)
      .select()
      .from(media)
      .where(and(eq(media.id, mediaId), isNull(media.removedAt)))
      .limit(1);
    return row ?? null;
  }

  /** Takes a file off its record; the original stays in storage as evidence. */
  async remove(mediaId: string, tx?: Executor): Promise<MediaRow | null> {
    const [row] = await (tx ?? this.db)
      .update(media)
      .set({ removedAt: new Date() })
      .where(and(eq(media.id, mediaId), isNull(media.removedAt)))
      .returning();
    return row ?? null;
  }

  async setGraphic(mediaId: string, graphic: boolean, tx?: Executor): Promise<MediaRow | null> {
    const [row] = await (tx ?? this.db)
      .update(media)
      .set({ graphic })
      .where(and(eq(media.id, mediaId), isNull(media.removedAt)))
      .returning();
    return row ?? null;
  }

  /** The fixity check of every stored original, uploads' and captures' (fixity.ts). */
  verify(onProgress?: (done: number) => void): Promise<MediaVerifyReport> {
    return verifyOriginals(this.db, this.storage, onProgress);
  }

  publicUrl(key: string): string {
    return publicUrl(key);
  }

  /**
   * Whether `actor` may see a file's restricted metadata (capture time, GPS, device, processing errors): the
   * editors of the owning record - its owner, admins and super.
   */
  mayReadRestricted(actor: MaybeActor, owner: { userId: string | null }): boolean {
    return can.modify(actor, owner);
  }

  /** The restricted metadata of `row` when `actor` may read it, else null. */
  restrictedFor(actor: MaybeActor, row: MediaRow, owner: { userId: string | null }): RestrictedInfo | null {
    return this.mayReadRestricted(actor, owner) ? ((row.restricted as RestrictedInfo | null) ?? null) : null;
  }

  /** The public view of a file (dto.ts), its links to copies that are not public signed for `options.reader`. */
  toDto(row: MediaView & Partial<Pick<MediaRow, 'restricted' | 'statusReason'>>, options: MediaDtoOptions = {}): MediaDto {
    return mediaDto(row, this.options.links, options);
  }
}
