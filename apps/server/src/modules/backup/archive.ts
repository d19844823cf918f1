import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar-stream';
import type { Column, MigrationState, SequenceState } from './catalog';

/**
 * The archive: a gzip'd tar of
 *   tables/<table>.<part>.ndjson   one row per line (row_to_json), in primary-key order, parts of a few MB
 *   files/<storage key>            every stored file, byte for byte
 *   manifest.json                  what all of the above must be (counts, sizes, SHA-256), written last
 *   manifest.sha256                the manifest's own SHA-256: the archive's final entry, so a cut-off archive has none
 */
export const FORMAT = 'amhara-evidence-backup';
export const FORMAT_VERSION = 1;
export const MANIFEST = 'manifest.json';
export const MANIFEST_HASH = 'manifest.sha256';

export interface PartManifest {
  name: string;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface TableManifest {
  name: string;
  columns: Column[];
  primaryKey: string[];
  rows: number;
  bytes: number;
  /** SHA-256 of the table's whole NDJSON (its parts one after the other). */
  sha256: string;
  parts: PartManifest[];
}

export interface FileManifest {
  key: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  /** The database's clock at the snapshot every table was read from. */
  snapshotAt: string;
  migration: MigrationState;
  /** In restore order: a table comes after the tables its foreign keys point to. */
  tables: TableManifest[];
  sequences: SequenceState[];
  files: FileManifest[];
  /** What was wrong in the source when it was backed up (e.g. an original whose hash no longer matches its record). */
  problems: string[];
}

/** The archive cannot be trusted or used; the message says why, for the person running the command. */
export class ArchiveError extends Error {}

export const sha256 = () => createHash('sha256');

/** A tar entry as it is read: its name, size and, once read, its SHA-256 and line count. */
export interface EntryDigest {
  name: string;
  size: number;
  sha256: string;
  lines: number;
}

/**
 * Reads the archive's entries in order, handing each one's bytes to `onEntry` (which must consume them), and
 * turns gzip and tar failures into one message. Resolves only when the gzip stream ended cleanly.
 */
export async function readArchive(
  file: string,
  onEntry: (header: tar.Header, body: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const source = createReadStream(file);
  const gunzip = createGunzip();
  const extract = tar.extract();
  let failure: Error | null = null;
  const fail = (err: Error) => {
    failure ??= err;
    extract.destroy(err);
  };
  source.on('error', fail);
  gunzip.on('error', fail);
  source.pipe(gunzip).pipe(extract as unknown as NodeJS.WritableStream);
  try {
    for await (const entry of extract) {
      await onEntry(entry.header, entry as unknown as AsyncIterable<Buffer>);
    }
  } catch (err) {
    source.destroy();
    throw describeReadFailure(failure ?? (err as Error));
  }
  if (failure) throw describeReadFailure(failure);
}

function describeReadFailure(err: Error): Error {
  if (err instanceof ArchiveError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new ArchiveError(`no such archive: ${(err as NodeJS.ErrnoException).path}`);
  if (code?.startsWith('Z_')) {
    return new ArchiveError(
      code === 'Z_BUF_ERROR'
        ? 'the archive is cut short (its compressed stream ends early): it is incomplete, use another copy'
        : `the archive is damaged (its compressed data does not check out: ${err.message}): use another copy`,
    );
  }
  if (/unexpected end|invalid tar|checksum/i.test(err.message)) {
    return new ArchiveError(`the archive is damaged or cut short (${err.message}): use another copy`);
  }
  return err;
}

/** Hashes and counts an entry's bytes as they pass (into `alsoInto` too: a table's hash runs over its parts). */
export async function* digesting(body: AsyncIterable<Buffer>, digest: EntryDigest, alsoInto?: Hash): AsyncGenerator<Buffer> {
  const hash = sha256();
  let size = 0;
  let lines = 0;
  for await (const chunk of body) {
    hash.update(chunk);
    alsoInto?.update(chunk);
    size += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    yield chunk;
  }
  digest.size = size;
  digest.lines = lines;
  digest.sha256 = hash.digest('hex');
}

export async function readAll(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export const newDigest = (name: string): EntryDigest => ({ name, size: 0, sha256: '', lines: 0 });

export async function drain(body: AsyncIterable<Buffer>): Promise<void> {
  for await (const _chunk of body);
}

/** A node Readable of an entry's bytes (storage.put takes node streams). */
export function nodeStream(body: AsyncIterable<Buffer>): Readable {
  return Readable.from(body, { objectMode: false });
}
