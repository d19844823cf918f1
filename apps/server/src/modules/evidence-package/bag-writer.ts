import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { PassThrough, Readable, Transform } from 'node:stream';
import { crc32 } from 'node:zlib';
import yazl from 'yazl';

/**
 * A BagIt 1.0 bag (RFC 8493) written as a streamed ZIP (yazl): payload files go under `data/` one after the other,
 * each hashed (SHA-256) and counted as it passes, so nothing is held whole and nothing is read twice. The manifests
 * and bag-info.txt need every payload file's hash and size, so they are the last entries of the ZIP: yazl opens a
 * lazy entry only when the ones before it are written, which is when those figures are known.
 */

export interface BagInfo {
  'Source-Organization': string;
  'Contact-Email': string;
  'External-Identifier': string;
  'External-Description'?: string;
  [field: string]: string | undefined;
}

/** Where a payload file's bytes come from: a buffer, or a stream opened only when its turn comes. */
export type PayloadSource = Buffer | string | (() => Promise<Readable> | Readable);

/**
 * yazl computes each entry's CRC-32 with buffer-crc32, a JavaScript table that reads about 300 MB/s: slower than a
 * disk, and the package is meant to stream at disk speed. Node's zlib.crc32 (native, ten times as fast) gives the same
 * numbers; it takes the place of buffer-crc32's `unsigned` (the one function yazl calls) once it has given the same
 * answers on a sample, continuation included.
 */
function useNativeCrc32(): void {
  const library = createRequire(createRequire(import.meta.url).resolve('yazl'))('buffer-crc32') as { unsigned: (buf: Buffer, previous?: number | Buffer) => number };
  const original = library.unsigned.bind(library);
  const native = (buf: Buffer, previous?: number | Buffer) =>
    crc32(buf, previous === undefined ? 0 : Buffer.isBuffer(previous) ? previous.readUInt32BE(0) : previous);
  const sample = Buffer.from('evidence package crc sample \u1200\u1208');
  if (native(sample) === original(sample) && native(sample, 12345) === original(sample, 12345)) library.unsigned = native;
}
useNativeCrc32();

const BAGIT_TXT = 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n';
/** Bytes that are already compressed (images, video, WACZ) are stored as they are: deflating them costs time for nothing. */
const STORED = /\.(jpe?g|png|webp|avif|gif|mp4|webm|mov|wacz|gz|zip|tsr|bin)$/i;

function sha256Hex(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** RFC 8493 §2.1.3: a path in a manifest percent-encodes CR, LF and `%`. */
function manifestPath(path: string): string {
  return path.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function humanSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export class BagWriter {
  private readonly zip = new yazl.ZipFile();
  private readonly payload: { path: string; sha256: string; size: number }[] = [];
  private readonly tags: { path: string; sha256: string }[] = [];
  private readonly packageHash = createHash('sha256');
  private packageBytes = 0;
  private readonly mtime = new Date();
  /** The ZIP as it is written; its SHA-256 is known once it ends (`packageSha256`). */
  readonly output: PassThrough;

  constructor() {
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.packageHash.update(chunk);
        this.packageBytes += chunk.length;
        done(null, chunk);
      },
    });
    this.output = new PassThrough();
    this.zip.outputStream.pipe(counter).pipe(this.output);
    // A reader gone before the end (a download cut off): stop reading files into a stream nobody reads.
    this.output.once('close', () => {
      if (this.output.readableEnded) return;
      counter.destroy();
      (this.zip.outputStream as unknown as Readable).destroy();
    });
    // A file that cannot be read (storage gone, a key with no file) ends the package as failed, never as a short bag.
    (this.zip as unknown as NodeJS.EventEmitter).on('error', (err: Error) => this.output.destroy(err));
    this.addTag('bagit.txt', BAGIT_TXT);
  }

  /** Adds `data/<path>` to the payload; its bytes are hashed and counted as they are written. */
  add(path: string, source: PayloadSource): void {
    const full = `data/${path}`;
    const options = { compress: !STORED.test(path), mtime: this.mtime };
    if (typeof source === 'string' || Buffer.isBuffer(source)) {
      const bytes = Buffer.from(source);
      this.payload.push({ path: full, sha256: sha256Hex(bytes), size: bytes.length });
      this.zip.addBuffer(bytes, full, options);
      return;
    }
    this.zip.addReadStreamLazy(full, options, (callback) => {
      Promise.resolve()
        .then(source)
        .then((stream) => callback(null, stream.pipe(this.hashing(full))))
        .catch((err: Error) => callback(err, null as never));
    });
  }

  private hashing(path: string): Transform {
    const hash = createHash('sha256');
    let size = 0;
    return new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
      flush: (done) => {
        this.payload.push({ path, sha256: hash.digest('hex'), size });
        done();
      },
    });
  }

  private addTag(path: string, text: string | (() => string)): void {
    this.zip.addReadStreamLazy(path, { compress: true, mtime: this.mtime }, (callback) => {
      const bytes = Buffer.from(typeof text === 'string' ? text : text());
      this.tags.push({ path, sha256: sha256Hex(bytes) });
      callback(null, Readable.from([bytes]));
    });
  }

  /** Writes the tag files after the payload (their figures come from it) and ends the ZIP. */
  finish(info: BagInfo): void {
    this.addTag('manifest-sha256.txt', () => [...this.payload].sort((a, b) => (a.path < b.path ? -1 : 1)).map((f) => `${f.sha256}  ${manifestPath(f.path)}\n`).join(''));
    this.addTag('bag-info.txt', () => {
      const octets = this.payload.reduce((sum, f) => sum + f.size, 0);
      const fields: [string, string][] = [
        ...Object.entries(info).filter((e): e is [string, string] => typeof e[1] === 'string'),
        ['Bagging-Date', this.mtime.toISOString().slice(0, 10)],
        ['Payload-Oxum', `${octets}.${this.payload.length}`],
        ['Bag-Size', humanSize(octets)],
      ];
      // Labels and values are one line each (a value's line breaks would start a label of its own).
      return fields.map(([label, value]) => `${label}: ${value.replace(/\s*[\r\n]+\s*/g, ' ')}\n`).join('');
    });
    this.addTag('tagmanifest-sha256.txt', () => this.tags.map((t) => `${t.sha256}  ${manifestPath(t.path)}\n`).join(''));
    this.zip.end();
  }

  /** The payload's files as written, once the ZIP has ended. */
  get files(): readonly { path: string; sha256: string; size: number }[] {
    return this.payload;
  }

  /** The SHA-256 of the whole ZIP: read it once `output` has ended. */
  packageSha256(): { sha256: string; bytes: number } {
    return { sha256: this.packageHash.copy().digest('hex'), bytes: this.packageBytes };
  }
}
