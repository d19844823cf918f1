import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/** The manifest (sha256sum's format: `<hex>  <path>`, so `sha256sum -c` reads it too) and its detached signature. */
export const MANIFEST = 'MIRROR.sha256';
export const SIGNATURE = 'MIRROR.sha256.sig';
const OWN_FILES = new Set([MANIFEST, SIGNATURE]);

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The manifest's lines as path -> hash; null for a line that is not one (a verifier says so). */
export function parseManifest(text: string): Map<string, string> | null {
  const entries = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!match || !safeRelative(match[2]!) || entries.has(match[2]!)) return null;
    entries.set(match[2]!, match[1]!);
  }
  return entries;
}

/** A path inside the mirror: relative, forward slashes, no `..`, `.` or empty part. */
export function safeRelative(file: string): boolean {
  return !file.startsWith('/') && !file.includes('\\') && file.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** Every file under `root`, relative with forward slashes. */
export function* filesUnder(root: string, relative = ''): Generator<string> {
  const dir = path.join(root, relative);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* filesUnder(root, child);
    else yield child;
  }
}

/**
 * The mirror's folder as one run writes it: a file is written only when its bytes differ from what the previous run
 * recorded (so a second run rewrites only what changed, and rsync or IPFS sends only that), each written whole under
 * a draft name and renamed, so a host serving the folder meanwhile never sends half a file. Files this run did not
 * write are removed at the end: a record made private or trashed since leaves the mirror.
 */
export class MirrorFolder {
  private readonly previous: Map<string, string>;
  readonly hashes = new Map<string, string>();
  written = 0;
  unchanged = 0;

  constructor(readonly root: string) {
    mkdirSync(root, { recursive: true });
    const manifest = path.join(root, MANIFEST);
    this.previous = (existsSync(manifest) && parseManifest(readFileSync(manifest, 'utf8'))) || new Map();
  }

  has(file: string): boolean {
    return this.hashes.has(file);
  }

  /** Whether the previous run wrote `file` and it is still there: files whose name says their content are kept. */
  keptFromBefore(file: string): boolean {
    const hash = this.previous.get(file);
    if (!hash || !existsSync(path.join(this.root, file))) return false;
    this.hashes.set(file, hash);
    this.unchanged++;
    return true;
  }

  write(file: string, bytes: Buffer | string): void {
    const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    const hash = sha256(data);
    this.hashes.set(file, hash);
    const full = path.join(this.root, file);
    if (this.previous.get(file) === hash && existsSync(full) && statSync(full).size === data.length) {
      this.unchanged++;
      return;
    }
    mkdirSync(path.dirname(full), { recursive: true });
    const draft = `${full}.${process.pid}.draft`;
    writeFileSync(draft, data);
    renameSync(draft, full);
    this.written++;
  }

  /** Writes a streamed answer (an export) without holding it: hashed as it is written, kept as before if unchanged. */
  async writeStream(file: string, source: AsyncIterable<Buffer | string>): Promise<void> {
    const full = path.join(this.root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    const draft = `${full}.${process.pid}.draft`;
    const hash = createHash('sha256');
    let size = 0;
    await pipeline(
      source,
      async function* (chunks: AsyncIterable<Buffer | string>) {
        for await (const chunk of chunks) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          hash.update(bytes);
          size += bytes.length;
          yield bytes;
        }
      },
      createWriteStream(draft),
    );
    const digest = hash.digest('hex');
    this.hashes.set(file, digest);
    if (this.previous.get(file) === digest && existsSync(full) && statSync(full).size === size) {
      rmSync(draft);
      this.unchanged++;
      return;
    }
    renameSync(draft, full);
    this.written++;
  }

  /** Removes what this run did not write, then writes the manifest: its bytes, to be signed. */
  finish(): { manifest: Buffer; removed: number } {
    let removed = 0;
    for (const file of [...filesUnder(this.root)]) {
      if (OWN_FILES.has(file) || this.hashes.has(file)) continue;
      rmSync(path.join(this.root, file), { force: true });
      removed++;
    }
    removeEmptyFolders(this.root, true);
    const lines = [...this.hashes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([file, hash]) => `${hash}  ${file}\n`);
    const manifest = Buffer.from(lines.join(''));
    writeFileSync(path.join(this.root, MANIFEST), manifest);
    return { manifest, removed };
  }
}

function removeEmptyFolders(dir: string, isRoot = false): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeEmptyFolders(path.join(dir, entry.name));
  if (!isRoot && readdirSync(dir).length === 0) rmdirSync(dir);
}
