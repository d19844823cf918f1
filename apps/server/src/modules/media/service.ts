import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { can, type MaybeActor, type MediaDto, type MediaVerifyReport } from '@app/shared';
import { preparedOnce, type Db, type Executor } from '../../db';
import { media, type MediaRow } from '../../db/schema';
import { captureFiles } from '../../db/capture-files';
import { httpError } from '../../errors';
import type { JobQueue } from '../../services/jobs';
import { ACCEPTED_LABEL, ACCEPTED_TYPES, type AcceptedType } from './formats';
import { UnreadableImageError, makePublicImage, readRestrictedInfo, type RestrictedInfo } from './images';
import { newPublicKey, type PublicCopyAccess } from './public-access';
import type { Storage } from './storage';
import { extractPoster, probeVideo, transcodeToMp4 } from './video';

export interface IncomingFile {
  /** Multipart field name (`image` or `files[]`), used to key errors. */
  field: string;
  filename: string;
  /** What the browser claimed; ignored for the decision, the bytes decide. */
  mimetype: string;
  stream: Readable;
}

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
  /** Signs the URLs of copies that are not public, for the signed-in editors shown them. */
  access?: PublicCopyAccess;
}

export const VIDEO_JOB = 'video.process';
const VIDEO_JOB_ATTEMPTS = 3;

/** The columns of a file that its public description (MediaDto) is made of. */
export type MediaView = Pick<
  MediaRow,
  'id' | 'kind' | 'width' | 'height' | 'variants' | 'sha256' | 'size' | 'mime' | 'caption' | 'graphic' | 'status' | 'publicKey' | 'removedAt' | 'recordLive' | 'recordPublic'
>;

/** Bytes `file-type` needs to recognise every accepted format. */
const SNIFF_BYTES = 4100;

type VerifyReport = MediaVerifyReport;

interface Staged {
  path: string;
  sha256: string;
  size: number;
  type: AcceptedType;
}

/**
 * Keeps uploaded originals unchanged with their SHA-256, and makes what the public sees: resized image copies with
 * metadata removed, and for videos a web-playable MP4 and a poster made by a background job. Originals are stored
 * under `originals/<sha256>` (identical uploads share one file); public copies under `public/`.
 */
export class MediaService {
  private readonly maxImageBytes: number;
  private readonly maxVideoBytes: number;
  private readonly tmpDir: string;

  constructor(
    private readonly db: Db,
    readonly storage: Storage,
    private readonly options: MediaServiceOptions = {},
  ) {
    this.maxImageBytes = options.maxImageBytes ?? 20 * 1024 * 1024;
    this.maxVideoBytes = options.maxVideoBytes ?? 1024 * 1024 * 1024;
    this.tmpDir = options.tmpDir ?? path.join(os.tmpdir(), 'media-uploads');
  }

  /**
   * Checks and stores one uploaded file and inserts its row (in `tx` when given). Rejections - a type that is not an
   * accepted image or video (400), a file over the size limit (413), an image sharp cannot decode (400) - are keyed
   * by the file's field and leave nothing behind: no row and no stored file.
   */
  async ingest(file: IncomingFile, options: IngestOptions, tx?: Executor): Promise<MediaRow> {
    await mkdir(this.tmpDir, { recursive: true });
    const staged = await this.stage(file, options.accept, path.join(this.tmpDir, `${randomUUID()}.upload`));
    try {
      const db = tx ?? this.db;
      const originalKey = `originals/${staged.sha256.slice(0, 2)}/${staged.sha256}`;
      let derived: Pick<MediaRow, 'width' | 'height' | 'variants' | 'publicKey' | 'restricted' | 'status'>;
      if (staged.type.kind === 'image') {
        derived = await this.deriveImage(staged, file.field);
      } else {
        derived = { width: null, height: null, variants: [], publicKey: null, restricted: null, status: 'queued' };
      }
      if ((await this.storage.size(originalKey)) === null) {
        await this.storage.put(originalKey, createReadStream(staged.path), staged.type.mime, staged.size);
      }
      const [row] = await db
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
      return row!;
    } finally {
      await rm(staged.path, { force: true });
    }
  }

  /**
   * Streams the upload to a staging file while hashing it; the first bytes decide the type and so the size limit.
   * On rejection the rest of the upload is drained (so a multipart parser can finish) and the staging file deleted.
   */
  private async stage(file: IncomingFile, accept: 'image' | 'video', tmpPath: string): Promise<Staged> {
    const stream = file.stream as Readable & { truncated?: boolean };
    const out = createWriteStream(tmpPath);
    const hash = createHash('sha256');
    let size = 0;
    let head: Buffer[] = [];
    let headSize = 0;
    let type: AcceptedType | null = null;
    let identifying: Promise<void> | null = null;
    const notAccepted = () => httpError.badRequest({ [file.field]: `The file must be a ${ACCEPTED_LABEL[accept]}` });
    const tooLarge = (kind: 'image' | 'video') => {
      const limit = kind === 'image' ? this.maxImageBytes : this.maxVideoBytes;
      return httpError.tooLarge(file.field, `The ${kind} is larger than the limit of ${Math.round(limit / 1024 / 1024)} MB`);
    };
    const limitOf = (t: AcceptedType) => (t.kind === 'image' ? this.maxImageBytes : this.maxVideoBytes);
    const identify = async (bytes: Buffer) => {
      // Loaded with the first upload, not at start.
      const { fileTypeFromBuffer } = await import('file-type');
      const detected = await fileTypeFromBuffer(bytes);
      const accepted = detected ? ACCEPTED_TYPES[detected.mime] : undefined;
      if (!accepted || accepted.kind !== accept) throw notAccepted();
      return accepted;
    };

    try {
      await new Promise<void>((resolve, reject) => {
        let failed = false;
        const fail = (err: unknown) => {
          if (failed) return;
          failed = true;
          stream.off('data', onData);
          // Discard the rest of the upload instead of destroying it, so the request's other parts can still be read.
          stream.resume();
          reject(err);
        };
        const write = (chunk: Buffer) => {
          hash.update(chunk);
          if (!out.write(chunk)) {
            stream.pause();
            out.once('drain', () => !failed && stream.resume());
          }
        };
        const onData = (chunk: Buffer) => {
          size += chunk.length;
          if (type) {
            if (size > limitOf(type)) return fail(tooLarge(type.kind));
            return write(chunk);
          }
          head.push(chunk);
          headSize += chunk.length;
          if (headSize < SNIFF_BYTES) return;
          stream.pause();
          const bytes = Buffer.concat(head);
          head = [];
          // The stream may still emit 'end' while this runs; the end handler waits for it.
          identifying = identify(bytes).then(
            (t) => {
              identifying = null;
              type = t;
              if (size > limitOf(t)) return fail(tooLarge(t.kind));
              write(bytes);
              if (!failed && !out.writableNeedDrain) stream.resume();
            },
            fail,
          );
        };
        stream.on('data', onData);
        stream.on('error', (err: Error & { code?: string }) =>
          fail(err.code === 'FST_REQ_FILE_TOO_LARGE' ? tooLarge(type?.kind ?? accept) : err),
        );
        const onEnd = () => {
          if (failed) return;
          if (stream.truncated) return fail(tooLarge(type?.kind ?? accept));
          if (type) return resolve();
          // A file shorter than the sniffing window.
          const bytes = Buffer.concat(head);
          if (!bytes.length) return fail(httpError.badRequest({ [file.field]: 'The file is empty' }));
          identify(bytes).then((t) => {
            type = t;
            if (size > limitOf(t)) return fail(tooLarge(t.kind));
            write(bytes);
            resolve();
          }, fail);
        };
        stream.once('end', () => void (identifying ? identifying.then(onEnd) : onEnd()));
      });
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    } catch (err) {
      // The file may still be opening: wait until it is closed, or the removal could run before its creation.
      await new Promise<void>((resolve) => {
        if (out.closed) return resolve();
        out.once('close', () => resolve());
        out.destroy();
      });
      await rm(tmpPath, { force: true });
      throw err;
    }
    return { path: tmpPath, sha256: hash.digest('hex'), size, type: type! };
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

  /**
   * The `video.process` job: a web-playable MP4 and a poster. Without ffmpeg the uploaded file itself becomes the
   * public copy. Failures are retried by the queue; the last one marks the video failed with the reason.
   */
  async processVideo(mediaId: string, job: { attempts: number } = { attempts: 1 }): Promise<void> {
    const [row] = await this.db.select().from(media).where(eq(media.id, mediaId)).limit(1);
    if (!row || row.kind !== 'video') return;
    await this.db.update(media).set({ status: 'processing', statusReason: null }).where(eq(media.id, mediaId));
    const ext = ACCEPTED_TYPES[row.mime]?.ext ?? 'bin';
    try {
      const tools = this.options.ffmpeg;
      if (!tools) {
        const key = newPublicKey(ext);
        await this.storage.put(key, await this.storage.get(row.storageKey), row.mime, row.size);
        const reason = 'ffmpeg is not installed: the video is served as uploaded';
        this.options.log?.warn(`media ${mediaId}: ${reason}`);
        await this.db.update(media).set({ status: 'ready', statusReason: reason, publicKey: key }).where(eq(media.id, mediaId));
        return;
      }
      // The process running the job may not be the one that took the upload (a worker, another server): its staging
      // folder may not exist yet.
      await mkdir(this.tmpDir, { recursive: true });
      const work = await mkdtemp(path.join(this.tmpDir, 'video-'));
      try {
        const input = path.join(work, `original.${ext}`);
        await pipeline(await this.storage.get(row.storageKey), createWriteStream(input));
        const probe = tools.ffprobe ? await probeVideo(tools.ffprobe, input) : null;
        const output = path.join(work, 'web.mp4');
        await transcodeToMp4(tools.ffmpeg, input, output);
        const posterPath = path.join(work, 'poster.png');
        await extractPoster(tools.ffmpeg, input, posterPath, probe?.durationSeconds ?? null);
        const poster = await makePublicImage(posterPath, this.storage);

        const mp4Key = newPublicKey('mp4');
        const mp4Size = (await stat(output)).size;
        await this.storage.put(mp4Key, createReadStream(output), 'video/mp4', mp4Size);
        const webProbe = tools.ffprobe ? await probeVideo(tools.ffprobe, output) : null;
        await this.db
          .update(media)
          .set({
            status: 'ready',
            statusReason: null,
            publicKey: mp4Key,
            variants: poster.variants,
            width: webProbe?.width ?? poster.width,
            height: webProbe?.height ?? poster.height,
            restricted: (probe?.restricted ?? row.restricted) as Record<string, unknown> | null,
          })
          .where(eq(media.id, mediaId));
        this.options.log?.info(`media ${mediaId}: video processed (${mp4Size} bytes web copy)`);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    } catch (err) {
      const reason = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      const final = job.attempts >= VIDEO_JOB_ATTEMPTS;
      await this.db
        .update(media)
        .set({ status: final ? 'failed' : 'queued', statusReason: final ? reason : `retrying after: ${reason}` })
        .where(eq(media.id, mediaId));
      throw err;
    }
  }

  /** Removes staging files a crashed process left behind (uploads and video work folders older than `maxAgeMs`). */
  async cleanStaging(maxAgeMs = 24 * 60 * 60_000): Promise<number> {
    let removed = 0;
    const entries = await readdir(this.tmpDir).catch(() => [] as string[]);
    for (const name of entries) {
      const full = path.join(this.tmpDir, name);
      const info = await stat(full).catch(() => null);
      if (info && Date.now() - info.mtimeMs > maxAgeMs) {
        await rm(full, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
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

  /**
   * Re-reads every stored original (removed ones too: they are evidence) and compares its SHA-256 with the one
   * recorded at upload. Originals shared by several rows are read once. A link capture's files are reported with the
   * id `capture:<id>`.
   */
  async verify(onProgress?: (done: number) => void): Promise<VerifyReport> {
    const uploads = await this.db.select({ id: media.id, key: media.storageKey, sha256: media.sha256 }).from(media).orderBy(asc(media.createdAt));
    const captures = (await captureFiles(this.db)).map((f) => ({ id: `capture:${f.captureId}`, key: f.key, sha256: f.sha256 }));
    const report: VerifyReport = { checked: 0, ok: 0, mismatched: [], missing: [] };
    const actualByKey = new Map<string, string | null>();
    for (const row of [...uploads, ...captures]) {
      if (!actualByKey.has(row.key)) actualByKey.set(row.key, await this.hashStored(row.key));
      const actual = actualByKey.get(row.key)!;
      report.checked++;
      if (actual === null) report.missing.push({ id: row.id, key: row.key });
      else if (actual !== row.sha256) report.mismatched.push({ id: row.id, key: row.key, expected: row.sha256, actual });
      else report.ok++;
      onProgress?.(report.checked);
    }
    return report;
  }

  private async hashStored(key: string): Promise<string | null> {
    if ((await this.storage.size(key)) === null) return null;
    const hash = createHash('sha256');
    await pipeline(await this.storage.get(key), hash);
    return hash.digest('hex');
  }

  publicUrl(key: string): string {
    return `/media/${key}`;
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

  /**
   * The public view of a file. `imageUrl` is the widest JPEG copy of an image, or the web MP4 of a video ('' until
   * it is processed); for a video, `variants` and `posterUrl` are its poster's copies. Pass `{ restricted: true }`
   * (see `mayReadRestricted`) to add the restricted metadata and the processing status reason.
   */
  toDto(row: MediaView & Partial<Pick<MediaRow, 'restricted' | 'statusReason'>>, options: { restricted?: boolean } = {}): MediaDto {
    // A file not on a live, public record is shown only to signed-in readers; their browser gets signed URLs.
    const hidden = row.removedAt !== null || !row.recordLive || !row.recordPublic;
    const url = (key: string) => {
      const plain = this.publicUrl(key);
      return hidden && this.options.access ? `${plain}?v=${this.options.access.signature(key)}` : plain;
    };
    const variants = row.variants.map((v) => ({ width: v.width, format: v.format as 'webp' | 'avif' | 'jpeg', url: url(v.key) }));
    const jpegs = row.variants.filter((v) => v.format === 'jpeg').sort((a, b) => b.width - a.width);
    const dto: MediaDto = {
      imageId: row.id,
      imageUrl: row.publicKey ? url(row.publicKey) : '',
      kind: row.kind as MediaDto['kind'],
      width: row.width,
      height: row.height,
      variants,
      sha256: row.sha256,
      size: row.size,
      mime: row.mime,
      caption: row.caption,
      graphic: row.graphic,
      status: row.status as MediaDto['status'],
      posterUrl: row.kind === 'video' && jpegs[0] ? url(jpegs[0].key) : null,
    };
    if (options.restricted) {
      dto.restricted = (row.restricted as RestrictedInfo | null) ?? null;
      dto.statusReason = row.statusReason ?? null;
    }
    return dto;
  }
}
