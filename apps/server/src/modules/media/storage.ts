import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where files live. Keys are relative paths such as `originals/ab/<id>` or `public/<sha>.webp`. */
export interface Storage {
  put(key: string, body: Readable | Buffer, contentType: string): Promise<void>;
  /** A stream of the whole object or of the inclusive byte range [start, end]. */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Size in bytes, or null when the key does not exist. */
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
}

/** Files under a folder of the data directory (the default). */
export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    const full = path.resolve(this.root, key);
    // Keys come from the server, but a path leaving the root is refused all the same.
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`storage key escapes the root: ${key}`);
    return full;
  }

  async put(key: string, body: Readable | Buffer): Promise<void> {
    const target = this.resolve(key);
    await mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.${Date.now()}.part`;
    await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(tmp));
    await rename(tmp, target);
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    return createReadStream(this.resolve(key), range);
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.resolve(key))).size;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }
}
