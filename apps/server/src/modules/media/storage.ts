import { createReadStream, createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { Config } from '../../config';
import { AppError } from '../../errors';
import { checkFolder, makeFolder } from './disk-check';

/**
 * Where files live. Keys are relative paths: `originals/ab/<id>` (never served publicly) and `public/<name>`
 * (what `/media/public/<name>` serves).
 */
export interface Storage {
  /** Stores `body` under `key`. `size` is the body's length when it is a stream (S3 needs it up front). */
  put(key: string, body: Readable | Buffer, contentType: string, size?: number): Promise<void>;
  /** A stream of the whole object or of the inclusive byte range [start, end]. */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Size in bytes, or null when the key does not exist. */
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** Every stored key with its size and time of writing, in no set order (backups read the whole store). */
  list(): AsyncIterable<{ key: string; size: number; modified: Date }>;
  /** Resolves when the store can take files (the folder is writable and not full, the bucket answers); /ready asks it. */
  ping(): Promise<void>;
}

/**
 * The store could not be reached (S3 down, refused, timing out): a 503 the client may retry, never a 500, and the
 * same clear answer for every route that touches files.
 */
class StorageUnavailableError extends AppError {
  constructor(cause: unknown) {
    super(503, { message: 'File storage is unreachable at the moment; nothing was changed, try again shortly' }, { 'retry-after': '30' });
    this.cause = cause;
  }
}

/**
 * A file could not be written to the local store or the upload staging folder (read-only, full, a folder that is not
 * one): the same retryable 503, with the cause kept for the log (plugins/errors.ts logs it with the request id).
 */
class StorageWriteError extends AppError {
  constructor(cause: unknown) {
    super(503, { message: 'Files cannot be stored at the moment; nothing was changed, try again shortly' }, { 'retry-after': '30' });
    this.cause = cause;
  }
}

/** The calls of the file system that write; their failures are the store's, never the client's. */
const WRITING_CALLS = new Set(['open', 'write', 'writev', 'mkdir', 'rename', 'close', 'fsync', 'fdatasync', 'unlink', 'rmdir', 'copyfile', 'ftruncate']);

/** A failed write to the file system as the retryable 503; anything else (a client's broken stream) as it was. */
export function asStorageFailure(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const syscall = (err as { syscall?: unknown } | null)?.syscall;
  return typeof syscall === 'string' && WRITING_CALLS.has(syscall) ? new StorageWriteError(err) : err;
}

/** Connection-level failures of the S3 client (no HTTP answer, or the server answered 5xx after the SDK's retries). */
function isUnreachable(err: unknown): boolean {
  const e = err as { code?: string; name?: string; $metadata?: { httpStatusCode?: number }; cause?: unknown };
  if (!e || typeof e !== 'object') return false;
  if (['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN'].includes(e.code ?? '')) return true;
  if (e.name === 'TimeoutError' || e.name === 'RequestTimeout') return true;
  if ((e.$metadata?.httpStatusCode ?? 0) >= 500) return true;
  return e.cause !== undefined && e.cause !== err && isUnreachable(e.cause);
}

const KEY_SPACES = ['originals', 'public', 'testimony'] as const;

/** Keys are made by the server; anything that could leave the key space is refused all the same. */
function checkKey(key: string): string {
  if (!/^(originals|public|testimony)\/[A-Za-z0-9._/-]+$/.test(key) || key.split('/').some((p) => p === '..' || p === '.' || p === '')) {
    throw new Error(`invalid storage key: ${key}`);
  }
  return key;
}

/**
 * Files under a folder of the data directory (the default). Originals (uploads' and captures', with their GPS data)
 * are readable by the site's user only, in folders only it may open; the public copies stay readable.
 */
export class LocalStorage implements Storage {
  /** `minFreeBytes`: below this much free space on its file system, ping (and so /ready) says the store is full. */
  constructor(
    private readonly root: string,
    private readonly minFreeBytes = 0,
  ) {}

  private resolve(key: string): string {
    const full = path.resolve(this.root, checkKey(key));
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`storage key escapes the root: ${key}`);
    return full;
  }

  async put(key: string, body: Readable | Buffer): Promise<void> {
    const target = this.resolve(key);
    // Written beside the target and renamed, so a reader never sees half a file.
    const tmp = `${target}.${process.pid}.${Date.now()}.part`;
    // Testimonies' sealed files too: unreadable without the intake key, and kept from other accounts all the same.
    const restricted = key.startsWith('originals/') || key.startsWith('testimony/');
    try {
      // The root first, so that only the folders under originals/ are made closed.
      await makeFolder(this.root);
      await makeFolder(path.dirname(target), restricted ? 0o700 : 0o755);
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(tmp, { mode: restricted ? 0o600 : 0o644 }));
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => {});
      throw asStorageFailure(err);
    }
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = this.resolve(key);
    // Opened before returning so a missing file is an error here, not later in the response stream.
    await stat(file);
    return createReadStream(file, range);
  }

  async size(key: string): Promise<number | null> {
    try {
      const s = await stat(this.resolve(key));
      return s.isFile() ? s.size : null;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }

  ping(): Promise<void> {
    return checkFolder(this.root, this.minFreeBytes);
  }

  async *list(): AsyncIterable<{ key: string; size: number; modified: Date }> {
    for (const space of KEY_SPACES) {
      let names: string[];
      try {
        names = await readdir(path.join(this.root, space), { recursive: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      for (const name of names.sort()) {
        const key = `${space}/${name.split(path.sep).join('/')}`;
        // A write still in progress (see put): not a stored file yet.
        if (/\.\d+\.\d+\.part$/.test(key)) continue;
        const s = await stat(path.join(this.root, key));
        if (s.isFile()) yield { key, size: s.size, modified: s.mtime };
      }
    }
  }
}

interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  /** Prefix inside the bucket, e.g. `media/` when the bucket is shared. */
  prefix?: string;
}

const loadCommonJs = createRequire(import.meta.url);

/**
 * The AWS SDK, loaded the first time S3 storage is made: its memory (docs/performance.md) is not for the default
 * local storage (and a small server's memory) to pay.
 */
function s3Sdk(): typeof S3Sdk {
  return loadCommonJs('@aws-sdk/client-s3') as typeof S3Sdk;
}

/** S3-compatible object storage (AWS S3, MinIO, R2, Ceph...). Public files are still served through the app. */
export class S3Storage implements Storage {
  private readonly sdk = s3Sdk();
  private readonly client: S3Sdk.S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? '';
    this.client = new this.sdk.S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? true,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      // Newer SDKs add streaming checksums by default, which several S3-compatible servers reject.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(key: string) {
    return this.prefix + checkKey(key);
  }

  /** Every call to the store goes through here, so an unreachable store is one clear 503 wherever it is met. */
  private async reach<Output>(call: (client: S3Sdk.S3Client) => Promise<Output>): Promise<Output> {
    try {
      return await call(this.client);
    } catch (err) {
      if (isUnreachable(err)) throw new StorageUnavailableError(err);
      throw err;
    }
  }

  async ping(): Promise<void> {
    await this.reach((c) => c.send(new this.sdk.HeadBucketCommand({ Bucket: this.bucket })));
  }

  async put(key: string, body: Readable | Buffer, contentType: string, size?: number): Promise<void> {
    if (!Buffer.isBuffer(body) && size === undefined) throw new Error('S3Storage.put needs the size of a stream');
    await this.reach((c) =>
      c.send(
        new this.sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: this.key(key),
          Body: body,
          ContentType: contentType,
          ContentLength: Buffer.isBuffer(body) ? body.length : size,
        }),
      ),
    );
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const out = await this.reach((c) =>
      c.send(
        new this.sdk.GetObjectCommand({
          Bucket: this.bucket,
          Key: this.key(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      ),
    );
    return out.Body as Readable;
  }

  async size(key: string): Promise<number | null> {
    try {
      const out = await this.reach((c) => c.send(new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) })));
      return out.ContentLength ?? 0;
    } catch (err) {
      if (err instanceof this.sdk.S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NotFound')) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.reach((c) => c.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) })));
  }

  async *list(): AsyncIterable<{ key: string; size: number; modified: Date }> {
    for (const space of KEY_SPACES) {
      let token: string | undefined;
      do {
        const out: S3Sdk.ListObjectsV2CommandOutput = await this.reach((c) =>
          c.send(new this.sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${this.prefix}${space}/`, ContinuationToken: token })),
        );
        for (const object of out.Contents ?? []) {
          yield { key: object.Key!.slice(this.prefix.length), size: object.Size ?? 0, modified: object.LastModified ?? new Date() };
        }
        token = out.IsTruncated ? out.NextContinuationToken : undefined;
      } while (token);
    }
  }

  destroy() {
    this.client.destroy();
  }
}

/** The storage configuration asks for: the media folder of the data directory, or the S3 bucket. */
export function createStorage(config: Config): Storage {
  if (config.STORAGE === 's3') {
    return new S3Storage({
      bucket: config.S3_BUCKET!,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalStorage(path.join(config.dataDir, 'media'), config.STORAGE_MIN_FREE_MB);
}
