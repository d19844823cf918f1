import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage, S3Storage, type Storage } from '../src/modules/media/storage';

/** The one suite both storage implementations must pass: the media service relies on nothing else. */
function storageSuite(name: string, make: () => Storage) {
  describe(name, () => {
    let storage: Storage;
    beforeAll(() => {
      storage = make();
    });

    it('stores a buffer and reads it back with its size', async () => {
      await storage.put('public/abc-1.txt', Buffer.from('hello storage'), 'text/plain');
      expect(await storage.size('public/abc-1.txt')).toBe(13);
      expect(await text(await storage.get('public/abc-1.txt'))).toBe('hello storage');
    });

    it('stores a stream of known size without buffering the caller', async () => {
      const chunks = Array.from({ length: 50 }, (_, i) => Buffer.alloc(10_000, 65 + (i % 26)));
      const total = chunks.reduce((n, c) => n + c.length, 0);
      await storage.put('originals/ab/streamed', Readable.from(chunks), 'application/octet-stream', total);
      expect(await storage.size('originals/ab/streamed')).toBe(total);
      const back = Buffer.from(await (await storage.get('originals/ab/streamed')).toArray().then((a) => Buffer.concat(a)));
      expect(back.equals(Buffer.concat(chunks))).toBe(true);
    });

    it('reads an inclusive byte range', async () => {
      await storage.put('public/range.bin', Buffer.from('0123456789'), 'application/octet-stream');
      expect(await text(await storage.get('public/range.bin', { start: 2, end: 5 }))).toBe('2345');
      expect(await text(await storage.get('public/range.bin', { start: 9, end: 9 }))).toBe('9');
    });

    it('overwrites a key', async () => {
      await storage.put('public/over.txt', Buffer.from('first'), 'text/plain');
      await storage.put('public/over.txt', Buffer.from('second!'), 'text/plain');
      expect(await text(await storage.get('public/over.txt'))).toBe('second!');
      expect(await storage.size('public/over.txt')).toBe(7);
    });

    it('reports a missing key as null size and fails to read it', async () => {
      expect(await storage.size('public/none.txt')).toBeNull();
      await expect(storage.get('public/none.txt')).rejects.toThrow();
    });

    it('deletes, and deleting a missing key is not an error', async () => {
      await storage.put('public/gone.txt', Buffer.from('x'), 'text/plain');
      await storage.delete('public/gone.txt');
      expect(await storage.size('public/gone.txt')).toBeNull();
      await expect(storage.delete('public/gone.txt')).resolves.toBeUndefined();
    });

    it('refuses keys outside originals/ and public/ or with dot segments', async () => {
      for (const key of ['public/../secret', '../etc/passwd', 'other/file', 'public//x', 'public/./x', '/public/x']) {
        await expect(storage.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toThrow(/invalid storage key/);
        await expect(storage.get(key), key).rejects.toThrow(/invalid storage key/);
      }
    });
  });
}

const localRoot = mkdtempSync(path.join(os.tmpdir(), 'storage-local-'));
storageSuite('LocalStorage', () => new LocalStorage(localRoot));

// S3 against s3rver on 127.0.0.1 (path-style, as for MinIO and most self-hosted S3).
const s3Dir = mkdtempSync(path.join(os.tmpdir(), 'storage-s3-'));
let s3rver: { run: () => Promise<{ port: number }>; close: () => Promise<void> };
let s3Port = 0;
let s3Storage: S3Storage | undefined;
beforeAll(async () => {
  // s3rver ships no types.
  const { default: S3rver } = (await import('s3rver' as string)) as {
    default: new (options: Record<string, unknown>) => typeof s3rver;
  };
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'evidence-test' }] });
  s3Port = (await s3rver.run()).port;
});
afterAll(async () => {
  s3Storage?.destroy();
  await s3rver?.close();
  rmSync(s3Dir, { recursive: true, force: true });
  rmSync(localRoot, { recursive: true, force: true });
});
storageSuite('S3Storage (s3rver)', () => {
  s3Storage = new S3Storage({
    bucket: 'evidence-test',
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${s3Port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    prefix: 'media/',
  });
  return s3Storage;
});
