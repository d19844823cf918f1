import { createHash, randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import type { Storage } from '../media/storage';
import { httpError } from '../../errors';
import { EncryptStream, encryptMessage, newContentKey, seal, sodium } from './crypto';

/** What a witness may send, recognised by the bytes: images, video, audio, PDF. */
export function acceptedTestimonyType(mime: string | undefined): boolean {
  return Boolean(mime && (/^(image|video|audio)\//.test(mime) || mime === 'application/pdf'));
}

export interface SealedFile {
  id: string;
  storageKey: string;
  sealedKey: Buffer;
  meta: Buffer;
  sealedBytes: number;
}

/**
 * Seals one uploaded file into the storage as it streams: sniffed from its first block, hashed and counted on the
 * way, encrypted block by block with a fresh key sealed to the intake key. No plaintext is written anywhere.
 */
export async function sealFile(
  storage: Storage,
  testimonyId: string,
  upload: { field: string; filename: string; stream: Readable & { truncated?: boolean } },
  intakePublicKey: Uint8Array,
  maxBytes: number,
): Promise<SealedFile> {
  const s = await sodium();
  const id = randomUUID();
  const storageKey = `testimony/${testimonyId}/${id}`;
  const key = await newContentKey();
  const hash = createHash('sha256');
  let size = 0;
  let mime = '';
  const measure = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(httpError.tooLarge(upload.field, `A file may be at most ${Math.round(maxBytes / 1024 / 1024)} MB`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const encrypt = new EncryptStream(s, key, async (first) => {
    const type = await fileTypeFromBuffer(first);
    if (!acceptedTestimonyType(type?.mime)) throw httpError.badRequest({ [upload.field]: 'Send images, video, audio or PDF files' });
    mime = type!.mime;
  });
  // Errors of the upload or of a check end the encrypted stream, so the storage's write fails and keeps no file.
  for (const stage of [upload.stream, measure]) stage.once('error', (err) => encrypt.destroy(err));
  // The storage may open its file before it reads: an early refusal must not be an unhandled 'error' meanwhile.
  encrypt.on('error', () => {});
  upload.stream.pipe(measure).pipe(encrypt);
  try {
    await storage.put(storageKey, encrypt, 'application/octet-stream');
  } catch (err) {
    upload.stream.resume();
    await storage.delete(storageKey).catch(() => {});
    throw measure.errored ?? encrypt.errored ?? err;
  }
  const sealedBytes = (await storage.size(storageKey)) ?? 0;
  if (upload.stream.truncated) {
    await storage.delete(storageKey).catch(() => {});
    throw httpError.tooLarge(upload.field, `A file may be at most ${Math.round(maxBytes / 1024 / 1024)} MB`);
  }
  if (!size) {
    await storage.delete(storageKey).catch(() => {});
    throw httpError.badRequest({ [upload.field]: 'The file is empty' });
  }
  const meta = await encryptMessage(
    Buffer.from(JSON.stringify({ name: upload.filename.slice(0, 200), type: mime, size, sha256: hash.digest('hex') })),
    key,
  );
  const sealedKey = await seal(key, intakePublicKey);
  s.memzero(key);
  return { id, storageKey, sealedKey, meta, sealedBytes };
}
