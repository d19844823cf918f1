import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bytesOf, compress, JoinedParts } from '../src/compression';
import { makeEntry } from '../src/modules/cache/cached-entry';
import { ResponseCache } from '../src/modules/cache/response-cache';

/** A list page's parts, as RecordFragments.join makes them: test records, not real ones. */
function page(records: number, label: string): JoinedParts {
  const parts = [Buffer.from('[')];
  for (let i = 0; i < records; i++) {
    if (i) parts.push(Buffer.from(','));
    parts.push(Buffer.from(JSON.stringify({ _id: `${label}-${i}`, title: `Test record ${i} (${label})`, note: 'x'.repeat(i % 97) })));
  }
  parts.push(Buffer.from(']'));
  return new JoinedParts(parts);
}

describe('bodies kept as parts', () => {
  it('compresses the parts to exactly the joined bytes, one body after another, at every size', () => {
    const first = page(50, 'first');
    const second = page(3, 'second');
    // Over the scratch buffer's megabyte: joined in a buffer of its own.
    const large = page(12_000, 'large');
    expect(large.length).toBeGreaterThan(1 << 20);
    const results = [first, second, large, first].map((body) => ({ body, gzip: compress(body, 'gzip', 'per-request'), br: compress(body, 'br', 'stored') }));
    for (const { body, gzip, br } of results) {
      const joined = Buffer.concat(body.parts);
      expect(body.length).toBe(joined.length);
      expect(bytesOf(body).equals(joined)).toBe(true);
      // Each result is intact after the calls that came after it (the scratch buffer is reused).
      expect(gunzipSync(gzip).equals(joined)).toBe(true);
      expect(brotliDecompressSync(br).equals(joined)).toBe(true);
    }
    expect(JSON.parse(bytesOf(second).toString())).toHaveLength(3);
  });

  it('keeps a stored answer that no client took compressed as a buffer of exactly its bytes', () => {
    const cache = new ResponseCache(1_000_000);
    const small = page(1, 'small');
    cache.set('/small', makeEntry({ status: 200, headers: { etag: '"s"' }, body: small }), cache.currentGeneration());
    const identity = cache.get('/small')!.identity;
    expect(Buffer.isBuffer(identity)).toBe(true);
    expect((identity as Buffer).equals(bytesOf(small))).toBe(true);
    // Not a view of Buffer's shared 8 KB slab, which would keep all of it alive.
    expect((identity as Buffer).buffer.byteLength).toBe(small.length);
    const sent = cache.bodyOf('/small', cache.get('/small')!, undefined);
    expect(sent.encoding).toBeNull();
    expect(sent.body.equals(bytesOf(small))).toBe(true);
  });
});
