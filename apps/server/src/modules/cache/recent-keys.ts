/**
 * Keys met lately, for a cache's admission rule: once a cache is full, what is produced for a key met before lately is
 * kept, and what is met for the first time is used and forgotten. So a walk over things asked for once (a crawler
 * paging through a deep list, searches for words nobody searches again) neither pushes out what readers keep asking
 * for nor makes the memory churn: each kept and evicted value is garbage for V8's full collections.
 *
 * Two generations of hashes: a key is remembered for the next `perGeneration` to 2 x `perGeneration` new keys.
 */
export class RecentKeys {
  private lately = new Set<number>();
  private before = new Set<number>();

  constructor(private readonly perGeneration: number) {}

  /** Whether `key` was met lately; it is remembered as met now. */
  metBefore(key: string): boolean {
    const hash = keyHash(key);
    if (this.lately.has(hash) || this.before.has(hash)) return true;
    this.lately.add(hash);
    if (this.lately.size >= this.perGeneration) {
      this.before = this.lately;
      this.lately = new Set();
    }
    return false;
  }
}

/** A 30-bit FNV-1a hash of a key: small integers, which a Set keeps without allocating. */
function keyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash & 0x3fffffff;
}
