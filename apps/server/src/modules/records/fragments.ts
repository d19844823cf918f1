import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { JoinedParts } from '../../compression';
import { GuardedReads } from '../cache/guarded-reads';
import { RecentKeys } from '../cache/recent-keys';
import { DEFAULT_MAX_AGE_MS } from '../cache/response-cache';

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');
const EMPTY = Buffer.alloc(0);

/**
 * Records read that the admission rule remembers per generation (see `admits`): with the kept records full, a record
 * read again within the next 4,096 to 8,192 records read is kept.
 */
const ADMISSION_GENERATION_IDS = 4096;

/** A record as the API shows it, serialised once, with what a read needs to know without the database. */
export interface RecordFragment {
  /**
   * Its JSON as UTF-8 bytes: a page is these joined by commas. Outside the JavaScript heap, so pages in flight are
   * not copied by every young-generation collection (as strings, collections took a quarter of a list read's time).
   */
  bytes: Buffer;
  /** SHA-256 of `bytes`: a page's ETag is made of its records' hashes, without hashing the page again. */
  hash: Buffer;
  category: string;
  public: boolean;
  /**
   * What a signed-in reader gets more than `bytes`: the record's creator (`,"userId":...}`, spliced in for the closing
   * brace), which anonymous visitors are not shown. Absent on a fragment made for one signed-in reader, which has it.
   */
  owner?: Buffer;
}

/**
 * Records serialised for the reads (their API JSON), kept between requests: a list page asks the database for its
 * ids only and sends the records it has here, so an uncached read costs one small query, the joining of strings and
 * compression instead of reading, mapping and serialising fifty rows. Only live records whose every file is public
 * are kept (a file shown to signed-in readers carries a URL signed for its reader), as anonymous visitors get them. Any content change, here or in
 * another process, clears it (the records area listens to app.contentChanged); a read that started before a change
 * does not store what it read, and a record being read for one request is not read again for another (GuardedReads).
 */
export class RecordFragments {
  private readonly lru: LRUCache<string, RecordFragment>;
  /**
   * Records being read for some request now, by id: a request that needs one of them waits for that read instead of
   * reading it again. Under concurrent paging every page's new records were otherwise read and serialised by every
   * request in flight that showed them.
   */
  private readonly reads = new GuardedReads<string>();
  /** The records read lately (see `admits`). */
  private readonly readLately = new RecentKeys(ADMISSION_GENERATION_IDS);

  /** `maxAgeMs`: the longest a record is kept serialised (CACHE_MAX_AGE_SECONDS), even if no change reaches this process. */
  constructor(maxBytes: number, maxAgeMs = DEFAULT_MAX_AGE_MS) {
    this.lru = new LRUCache<string, RecordFragment>({
      maxSize: Math.max(1024, maxBytes),
      ttl: maxAgeMs,
      sizeCalculation: fragmentSize,
    });
  }

  /** `owner`: the record's creator, when `json` is what anonymous visitors get (see RecordFragment.owner). */
  static make(json: string, category: string, isPublic: boolean, owner?: { userId: string | null }): RecordFragment {
    // Its own allocation, not a view of a shared slab, so the cache counts exactly what it keeps.
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
    bytes.write(json);
    const fragment: RecordFragment = { bytes, hash: createHash('sha256').update(bytes).digest(), category, public: isPublic };
    if (owner) fragment.owner = Buffer.from(`,"userId":${JSON.stringify(owner.userId)}}`);
    return fragment;
  }

  /** A fragment's bytes as a signed-in reader (`signedIn`) or an anonymous visitor gets them, in parts. */
  static partsOf(fragment: RecordFragment, signedIn: boolean): Buffer[] {
    return signedIn && fragment.owner ? [fragment.bytes.subarray(0, -1), fragment.owner] : [fragment.bytes];
  }

  /** What an ETag hashes for a fragment as `partsOf` gives it (its hash, and what is spliced in). */
  static hashesOf(fragment: RecordFragment, signedIn: boolean): Buffer[] {
    return signedIn && fragment.owner ? [fragment.hash, fragment.owner] : [fragment.hash];
  }

  /** A JSON array of fragments, as the parts of its bytes (joined only when needed, see compression.ts). */
  static join(fragments: readonly RecordFragment[], signedIn = false): JoinedParts {
    const parts: Buffer[] = [OPEN];
    fragments.forEach((fragment, i) => parts.push(i ? COMMA : EMPTY, ...RecordFragments.partsOf(fragment, signedIn)));
    parts.push(CLOSE);
    return new JoinedParts(parts);
  }

  get(id: string): RecordFragment | undefined {
    return this.lru.get(id);
  }

  currentGeneration(): number {
    return this.reads.current();
  }

  set(id: string, fragment: RecordFragment, generation: number): void {
    if (this.reads.isCurrent(generation) && this.admits(id, fragment)) this.lru.set(id, fragment);
  }

  /**
   * Whether a record just read is worth keeping: while there is room for it, always; once the kept records fill their
   * bound, only when it was read before, lately. The hits of searches for words nobody searches again, or the records
   * of a crawler's walk through a deep list, are then sent and forgotten: they neither push out the records readers
   * keep asking for nor make the memory churn (each kept and evicted record is garbage for the full collections).
   */
  private admits(id: string, fragment: RecordFragment): boolean {
    if (this.readLately.metBefore(id)) return true;
    return this.lru.calculatedSize + fragmentSize(fragment) <= this.lru.maxSize;
  }

  clear(): void {
    this.reads.advance();
    this.lru.clear();
  }

  /** The read of record `id` another request of this generation started, if one is under way. */
  readingNow<T>(id: string, generation: number): Promise<T> | undefined {
    return this.reads.joinable<T>(id, generation);
  }

  /**
   * The one read of record `id` for `generation`: the one under way, or `read` started now. What it gives is kept
   * when it is a live record's fragment (not a trashed one's, nor the rows of a record whose JSON depends on its
   * reader) and nothing changed since `generation`.
   */
  readOnce<T extends object | null>(id: string, read: () => Promise<T>, generation: number): Promise<T> {
    return this.reads.run(id, read, (value) => {
      if (isKeptFragment(value) && this.admits(id, value)) this.lru.set(id, value);
    }, generation);
  }

  get size(): number {
    return this.lru.size;
  }
}

/**
 * What a kept fragment costs: its bytes, and about a kilobyte more (the hash, the objects, the allocations' own
 * overhead and the cache's bookkeeping, as measured: docs/performance.md).
 */
function fragmentSize(fragment: RecordFragment): number {
  return fragment.bytes.length + 1024;
}

/** A fragment every reader gets as it is: serialised, and not of a trashed record. */
function isKeptFragment(value: object | null): value is RecordFragment {
  return value !== null && 'bytes' in value && !(value as { trashed?: boolean }).trashed;
}
