import { Transform, type TransformCallback } from 'node:stream';
import sodiumModule from 'libsodium-wrappers-sumo';

/**
 * The testimony area's cryptography, all of it libsodium's (no primitive of our own):
 * - content: XChaCha20-Poly1305 secretstream, a fresh key per testimony envelope and per file, in 64 KiB blocks so a
 *   file of any size is encrypted as it streams, in bounded memory, and a cut-off file fails to open;
 * - those keys: sealed to the intake public key (crypto_box_seal, X25519), so the server can write but not read;
 * - the intake private key: wrapped (secretbox) under an Argon2id key derived from each reviewer's passphrase, and
 *   once under a random recovery key.
 */

export type Sodium = typeof sodiumModule;
let ready: Promise<Sodium> | null = null;

export function sodium(): Promise<Sodium> {
  ready ??= sodiumModule.ready.then(() => sodiumModule);
  return ready;
}

/** Plaintext bytes per secretstream block. */
export const BLOCK = 64 * 1024;
const A_BYTES = 17;
const HEADER_BYTES = 24;

/** Argon2id cost for passphrase wraps: libsodium's "interactive" time with 64 MiB, under a second on a small server. */
export const WRAP_COST = { opsLimit: 3, memLimit: 64 * 1024 * 1024 };

export interface Wrap {
  salt: Buffer;
  opsLimit: number;
  memLimit: number;
  wrapped: Buffer;
}

export async function newIntakeKeyPair(): Promise<{ publicKey: Buffer; privateKey: Uint8Array }> {
  const s = await sodium();
  const pair = s.crypto_box_keypair();
  return { publicKey: Buffer.from(pair.publicKey), privateKey: pair.privateKey };
}

/** Wraps `secret` under a key derived from `passphrase` (Argon2id). */
export async function wrapWithPassphrase(secret: Uint8Array, passphrase: string, cost = WRAP_COST): Promise<Wrap> {
  const s = await sodium();
  const salt = s.randombytes_buf(s.crypto_pwhash_SALTBYTES);
  const key = s.crypto_pwhash(s.crypto_secretbox_KEYBYTES, passphrase, salt, cost.opsLimit, cost.memLimit, s.crypto_pwhash_ALG_ARGON2ID13);
  const wrapped = secretbox(s, secret, key);
  s.memzero(key);
  return { salt: Buffer.from(salt), opsLimit: cost.opsLimit, memLimit: cost.memLimit, wrapped };
}

/** The wrapped secret, or null when the passphrase is not the one it was wrapped with. */
export async function unwrapWithPassphrase(wrap: Wrap, passphrase: string): Promise<Uint8Array | null> {
  const s = await sodium();
  const key = s.crypto_pwhash(s.crypto_secretbox_KEYBYTES, passphrase, wrap.salt, wrap.opsLimit, wrap.memLimit, s.crypto_pwhash_ALG_ARGON2ID13);
  try {
    return secretboxOpen(s, wrap.wrapped, key);
  } finally {
    s.memzero(key);
  }
}

/** nonce || secretbox(message). */
export function secretbox(s: Sodium, message: Uint8Array, key: Uint8Array): Buffer {
  const nonce = s.randombytes_buf(s.crypto_secretbox_NONCEBYTES);
  return Buffer.concat([nonce, s.crypto_secretbox_easy(message, nonce, key)]);
}

export function secretboxOpen(s: Sodium, box: Uint8Array, key: Uint8Array): Uint8Array | null {
  if (box.length < s.crypto_secretbox_NONCEBYTES + s.crypto_secretbox_MACBYTES) return null;
  try {
    return s.crypto_secretbox_open_easy(box.subarray(s.crypto_secretbox_NONCEBYTES), box.subarray(0, s.crypto_secretbox_NONCEBYTES), key);
  } catch {
    return null;
  }
}

export async function seal(message: Uint8Array, publicKey: Uint8Array): Promise<Buffer> {
  const s = await sodium();
  return Buffer.from(s.crypto_box_seal(message, publicKey));
}

/** The sealed message, or null when it was not sealed to this key pair (or was altered). */
export async function unseal(sealed: Uint8Array, publicKey: Uint8Array, privateKey: Uint8Array): Promise<Uint8Array | null> {
  const s = await sodium();
  try {
    return s.crypto_box_seal_open(sealed, publicKey, privateKey);
  } catch {
    return null;
  }
}

export async function newContentKey(): Promise<Uint8Array> {
  return (await sodium()).crypto_secretstream_xchacha20poly1305_keygen();
}

/** A short message (an envelope, a file's metadata) as one final secretstream block: header || block. */
export async function encryptMessage(message: Uint8Array, key: Uint8Array): Promise<Buffer> {
  const s = await sodium();
  const { state, header } = s.crypto_secretstream_xchacha20poly1305_init_push(key);
  const block = s.crypto_secretstream_xchacha20poly1305_push(state, message, null, s.crypto_secretstream_xchacha20poly1305_TAG_FINAL);
  return Buffer.concat([header, block]);
}

export async function decryptMessage(box: Uint8Array, key: Uint8Array): Promise<Uint8Array | null> {
  const s = await sodium();
  if (box.length < HEADER_BYTES + A_BYTES) return null;
  try {
    const state = s.crypto_secretstream_xchacha20poly1305_init_pull(box.subarray(0, HEADER_BYTES), key);
    const result = s.crypto_secretstream_xchacha20poly1305_pull(state, box.subarray(HEADER_BYTES), null);
    return result && result.tag === s.crypto_secretstream_xchacha20poly1305_TAG_FINAL ? result.message : null;
  } catch {
    return null;
  }
}

/**
 * Encrypts a byte stream block by block: header, then 64 KiB blocks, the last tagged final. One block is held back
 * so the final tag goes on the real last block. `inspect` sees the first block's plaintext before it is encrypted
 * (type sniffing), and may refuse it by throwing.
 */
export class EncryptStream extends Transform {
  private state: unknown = null;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private held: Buffer | null = null;
  private inspected = false;

  constructor(
    private readonly s: Sodium,
    private readonly key: Uint8Array,
    private readonly inspect: (firstBlock: Buffer) => Promise<void> = async () => {},
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < BLOCK) return done();
    this.drainFull().then(() => done(), done);
  }

  override _flush(done: TransformCallback): void {
    this.drainFull()
      .then(async () => {
        const rest = Buffer.concat(this.pending);
        this.pending = [];
        if (rest.length) await this.accept(rest);
        await this.start();
        this.pushBlock(this.held ?? Buffer.alloc(0), true);
        this.held = null;
      })
      .then(() => done(), done);
  }

  private async drainFull(): Promise<void> {
    while (this.pendingBytes >= BLOCK) {
      const all = Buffer.concat(this.pending);
      const block = all.subarray(0, BLOCK);
      this.pending = all.length > BLOCK ? [all.subarray(BLOCK)] : [];
      this.pendingBytes = all.length - BLOCK;
      await this.accept(Buffer.from(block));
    }
  }

  private async accept(block: Buffer): Promise<void> {
    if (!this.inspected) {
      this.inspected = true;
      await this.inspect(block);
    }
    await this.start();
    if (this.held) this.pushBlock(this.held, false);
    this.held = block;
  }

  private async start(): Promise<void> {
    if (this.state) return;
    const { state, header } = this.s.crypto_secretstream_xchacha20poly1305_init_push(this.key);
    this.state = state;
    this.push(Buffer.from(header));
  }

  private pushBlock(block: Buffer, final: boolean): void {
    const tag = final ? this.s.crypto_secretstream_xchacha20poly1305_TAG_FINAL : this.s.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE;
    this.push(Buffer.from(this.s.crypto_secretstream_xchacha20poly1305_push(this.state as never, block, null, tag)));
    block.fill(0);
  }
}

/** The reverse of EncryptStream: fails (an error on the stream) on altered, reordered or cut-off ciphertext. */
export class DecryptStream extends Transform {
  private state: unknown = null;
  private buffer: Buffer = Buffer.alloc(0);
  private finished = false;

  constructor(
    private readonly s: Sodium,
    private readonly key: Uint8Array,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    try {
      if (!this.state && this.buffer.length >= HEADER_BYTES) {
        this.state = this.s.crypto_secretstream_xchacha20poly1305_init_pull(this.buffer.subarray(0, HEADER_BYTES), this.key);
        this.buffer = this.buffer.subarray(HEADER_BYTES);
      }
      // A full block is not the last one unless the stream ends right after it: keep one block's worth back.
      while (this.state && this.buffer.length > BLOCK + A_BYTES) {
        this.open(this.buffer.subarray(0, BLOCK + A_BYTES));
        this.buffer = this.buffer.subarray(BLOCK + A_BYTES);
      }
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      if (!this.state || this.buffer.length < A_BYTES) throw new Error('sealed file is cut short');
      this.open(this.buffer);
      if (!this.finished) throw new Error('sealed file is cut short');
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  private open(block: Buffer): void {
    if (this.finished) throw new Error('sealed file has bytes after its end');
    const result = this.s.crypto_secretstream_xchacha20poly1305_pull(this.state as never, block, null);
    if (!result) throw new Error('sealed file does not open (altered, or another key)');
    if (result.tag === this.s.crypto_secretstream_xchacha20poly1305_TAG_FINAL) this.finished = true;
    this.push(Buffer.from(result.message));
  }
}
