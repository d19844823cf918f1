import { createHash } from 'node:crypto';
import { forEachZipEntry } from '../../services/zip-reading';

/**
 * Reads a package ZIP entry by entry, hashing each as it streams (an original of a gigabyte is never held), and
 * keeping the bytes of the small files the checks read (tag files, JSON, custody, keys, checkpoints, WACZ files).
 */

export interface BagFile {
  sha256: string;
  size: number;
  /** The bytes, for the files the checks read; null for the originals and public copies. */
  bytes: Buffer | null;
}

const HASH_ONLY = /^data\/(originals|public)\//;
const KEPT_LIMIT = 256 * 1024 * 1024;

export async function readBag(file: string): Promise<Map<string, BagFile>> {
  const files = new Map<string, BagFile>();
  await forEachZipEntry(file, async (entry, stream) => {
    const hash = createHash('sha256');
    const keep = !HASH_ONLY.test(entry.fileName) && entry.uncompressedSize <= KEPT_LIMIT;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
      if (keep) chunks.push(chunk);
    }
    files.set(entry.fileName, { sha256: hash.digest('hex'), size, bytes: keep ? Buffer.concat(chunks) : null });
  });
  return files;
}

/** The lines of a BagIt manifest: path to hash (RFC 8493 §2.1.3 percent-encoding undone). */
export function parseManifest(text: string): { entries: Map<string, string>; bad: string[] } {
  const entries = new Map<string, string>();
  const bad: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const found = /^([0-9a-f]{64})\s+\*?(.+)$/.exec(line.replace(/\r$/, ''));
    if (!found) {
      bad.push(line);
      continue;
    }
    entries.set(found[2]!.replace(/%0A/gi, '\n').replace(/%0D/gi, '\r').replace(/%25/g, '%'), found[1]!);
  }
  return { entries, bad };
}
