import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { httpError } from '../../errors';
import { ACCEPTED_LABEL, ACCEPTED_TYPES, type AcceptedType } from './formats';

export interface IncomingFile {
  /** Multipart field name (`image` or `files[]`), used to key errors. */
  field: string;
  filename: string;
  /** What the browser claimed; ignored for the decision, the bytes decide. */
  mimetype: string;
  stream: Readable;
}

/** An upload written to a staging file, with what its bytes are. */
export interface Staged {
  path: string;
  sha256: string;
  size: number;
  type: AcceptedType;
}

/** Largest accepted image and video, in bytes. */
export interface UploadLimits {
  maxImageBytes: number;
  maxVideoBytes: number;
}

/** Bytes `file-type` needs to recognise every accepted format. */
const SNIFF_BYTES = 4100;

/**
 * Streams an upload to `tmpPath` while hashing it; the first bytes decide the type and so the size limit. Rejections
 * (not an accepted `accept` type: 400; over the limit: 413; empty: 400) are keyed by the file's field; the rest of the
 * upload is then drained (so a multipart parser can finish) and the staging file deleted.
 */
export function stageUpload(file: IncomingFile, accept: 'image' | 'video', tmpPath: string, limits: UploadLimits): Promise<Staged> {
  return new UploadStaging(file, accept, tmpPath, limits).run();
}

class UploadStaging {
  private readonly stream: Readable & { truncated?: boolean };
  private readonly out: WriteStream;
  private readonly hash = createHash('sha256');
  private size = 0;
  private head: Buffer[] = [];
  private headSize = 0;
  private type: AcceptedType | null = null;
  /** The identification of the first bytes, while it runs: the stream may end meanwhile. */
  private identifying: Promise<void> | null = null;
  private failed = false;
  private error: unknown;
  private settle!: { resolve: () => void; reject: (err: unknown) => void };

  constructor(
    private readonly file: IncomingFile,
    private readonly accept: 'image' | 'video',
    private readonly tmpPath: string,
    private readonly limits: UploadLimits,
  ) {
    this.stream = file.stream;
    // The site's user only: an original carries its GPS position. A failure to open or write (a read-only or full
    // disk) ends this upload, never the process: an 'error' event without a listener would.
    this.out = createWriteStream(tmpPath, { mode: 0o600 });
    this.out.on('error', (err) => this.fail(err));
  }

  async run(): Promise<Staged> {
    try {
      await new Promise<void>((resolve, reject) => {
        this.settle = { resolve, reject };
        this.stream.on('data', this.onData);
        this.stream.on('error', (err: Error & { code?: string }) =>
          this.fail(err.code === 'FST_REQ_FILE_TOO_LARGE' ? this.tooLarge(this.type?.kind ?? this.accept) : err),
        );
        this.stream.once('end', () => void (this.identifying ? this.identifying.then(() => this.onEnd()) : this.onEnd()));
      });
      // A write may fail after the last chunk was read (the disk filling up as it is flushed).
      await new Promise<void>((resolve, reject) => this.out.end((err?: Error | null) => (err ? reject(err) : resolve())));
      if (this.failed) throw this.error;
    } catch (err) {
      await this.discard();
      throw err;
    }
    return { path: this.tmpPath, sha256: this.hash.digest('hex'), size: this.size, type: this.type! };
  }

  private readonly onData = (chunk: Buffer) => {
    this.size += chunk.length;
    if (this.type) {
      if (this.size > this.limitOf(this.type)) return this.fail(this.tooLarge(this.type.kind));
      return this.write(chunk);
    }
    this.head.push(chunk);
    this.headSize += chunk.length;
    if (this.headSize < SNIFF_BYTES) return;
    this.stream.pause();
    const bytes = Buffer.concat(this.head);
    this.head = [];
    this.identifying = this.identify(bytes).then(
      (type) => {
        this.identifying = null;
        this.type = type;
        if (this.size > this.limitOf(type)) return this.fail(this.tooLarge(type.kind));
        this.write(bytes);
        if (!this.failed && !this.out.writableNeedDrain) this.stream.resume();
      },
      (err) => this.fail(err),
    );
  };

  private onEnd(): void {
    if (this.failed) return;
    if (this.stream.truncated) return this.fail(this.tooLarge(this.type?.kind ?? this.accept));
    if (this.type) return this.settle.resolve();
    // A file shorter than the sniffing window.
    const bytes = Buffer.concat(this.head);
    if (!bytes.length) return this.fail(httpError.badRequest({ [this.file.field]: 'The file is empty' }));
    this.identify(bytes).then((type) => {
      this.type = type;
      if (this.size > this.limitOf(type)) return this.fail(this.tooLarge(type.kind));
      this.write(bytes);
      this.settle.resolve();
    }, (err) => this.fail(err));
  }

  private write(chunk: Buffer): void {
    this.hash.update(chunk);
    if (!this.out.write(chunk)) {
      this.stream.pause();
      this.out.once('drain', () => !this.failed && this.stream.resume());
    }
  }

  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.error = err;
    this.stream.off('data', this.onData);
    // Discard the rest of the upload instead of destroying it, so the request's other parts can still be read.
    this.stream.resume();
    this.settle.reject(err);
  }

  /** Deletes the staging file once it is closed: it may still be opening, and a removal before its creation does nothing. */
  private async discard(): Promise<void> {
    await new Promise<void>((resolve) => {
      if (this.out.closed) return resolve();
      this.out.once('close', () => resolve());
      this.out.destroy();
    });
    await rm(this.tmpPath, { force: true });
  }

  private async identify(bytes: Buffer): Promise<AcceptedType> {
    // Loaded with the first upload, not at start.
    const { fileTypeFromBuffer } = await import('file-type');
    const detected = await fileTypeFromBuffer(bytes);
    const accepted = detected ? ACCEPTED_TYPES[detected.mime] : undefined;
    if (!accepted || accepted.kind !== this.accept) throw httpError.badRequest({ [this.file.field]: `The file must be a ${ACCEPTED_LABEL[this.accept]}` });
    return accepted;
  }

  private limitOf(type: AcceptedType): number {
    return type.kind === 'image' ? this.limits.maxImageBytes : this.limits.maxVideoBytes;
  }

  private tooLarge(kind: 'image' | 'video') {
    const limit = kind === 'image' ? this.limits.maxImageBytes : this.limits.maxVideoBytes;
    return httpError.tooLarge(this.file.field, `The ${kind} is larger than the limit of ${Math.round(limit / 1024 / 1024)} MB`);
  }
}
