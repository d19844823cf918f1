import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import { testimonyEnvelopeSchema, type TestimonyEnvelope } from '@app/shared';
import type { Db } from '../../db';
import { testimonies, testimonyFiles, testimonyMessages, type TestimonyRow } from '../../db/schema';
import { httpError } from '../../errors';
import type { Storage } from '../media/storage';
import { decryptMessage, encryptMessage, newContentKey, seal, secretbox, secretboxOpen, sodium, unseal } from './crypto';
import { sealFile, type SealedFile } from './files';
import { currentIntakeKey, type CurrentKey } from './keys';
import { newReceipt, receiptBucket, receiptKey } from './receipts';

/** A submission being received: its id, the key its parts are sealed to, the files sealed so far. */
export interface Draft {
  id: string;
  key: CurrentKey;
  files: SealedFile[];
  bytes: number;
}

export interface Limits {
  maxFileBytes: number;
  maxTotalBytes: number;
}

/** Writing testimonies and the witness's side of them (the receipt); reviewing is review.ts. */
export class TestimonyService {
  constructor(
    readonly db: Db,
    readonly storage: Storage,
    private readonly lookupKey: Buffer,
    readonly limits: Limits,
  ) {}

  async accepting(): Promise<boolean> {
    return Boolean(await currentIntakeKey(this.db));
  }

  /** Starts a submission: 503 when no intake key exists yet (the form says testimony is not accepted yet). */
  async begin(): Promise<Draft> {
    const key = await currentIntakeKey(this.db);
    if (!key) throw httpError.unavailable('Testimony is not accepted yet: the site has no intake key');
    return { id: randomUUID(), key, files: [], bytes: 0 };
  }

  async addFile(draft: Draft, upload: { field: string; filename: string; stream: Readable }): Promise<void> {
    const left = this.limits.maxTotalBytes - draft.bytes;
    if (left <= 0) throw httpError.tooLarge(upload.field, `All files together may be at most ${Math.round(this.limits.maxTotalBytes / 1024 / 1024)} MB`);
    const sealed = await sealFile(this.storage, draft.id, upload, draft.key.publicKey, Math.min(this.limits.maxFileBytes, left));
    draft.files.push(sealed);
    draft.bytes += sealed.sealedBytes;
  }

  /** Removes what a failed submission had stored. */
  async abort(draft: Draft): Promise<void> {
    await Promise.all(draft.files.map((f) => this.storage.delete(f.storageKey).catch(() => {})));
  }

  /** Seals the envelope and stores the testimony: the receipt, returned once, is kept by nobody else. */
  async finish(draft: Draft, envelope: TestimonyEnvelope, unverified: boolean): Promise<{ id: string; receipt: string }> {
    const s = await sodium();
    const contentKey = await newContentKey();
    const sealedEnvelope = await encryptMessage(Buffer.from(JSON.stringify(envelope)), contentKey);
    const receipt = newReceipt();
    const receiptSalt = randomBytes(16);
    const witness = s.crypto_box_keypair();
    const witnessSecret = secretbox(s, witness.privateKey, await receiptKey(receipt, receiptSalt));
    s.memzero(witness.privateKey);
    const row = {
      id: draft.id,
      keyId: draft.key.id,
      unverified,
      sealedKey: await seal(contentKey, draft.key.publicKey),
      envelope: sealedEnvelope,
      receiptBucket: receiptBucket(this.lookupKey, receipt),
      receiptSalt,
      witnessSecret,
      witnessPublicKey: Buffer.from(witness.publicKey),
      sealedBytes: draft.bytes + sealedEnvelope.length,
    };
    s.memzero(contentKey);
    await this.db.transaction(async (tx) => {
      await tx.insert(testimonies).values(row);
      if (draft.files.length) await tx.insert(testimonyFiles).values(draft.files.map((f) => ({ ...f, testimonyId: draft.id })));
    });
    return { id: draft.id, receipt };
  }

  /** The testimony this receipt opens, with the witness's private key, or null (a wrong receipt). */
  async openReceipt(receipt: string): Promise<{ row: TestimonyRow; witnessKey: Uint8Array } | null> {
    const candidates = await this.db.select().from(testimonies).where(eq(testimonies.receiptBucket, receiptBucket(this.lookupKey, receipt)));
    const s = await sodium();
    for (const row of candidates) {
      const witnessKey = secretboxOpen(s, row.witnessSecret, await receiptKey(receipt, row.receiptSalt));
      if (witnessKey) return { row, witnessKey };
    }
    return null;
  }

  /** What the witness reads: the state and the conversation (reviewers' questions opened with the witness key). */
  async witnessView(row: TestimonyRow, witnessKey: Uint8Array) {
    const messages = await this.db
      .select()
      .from(testimonyMessages)
      .where(eq(testimonyMessages.testimonyId, row.id))
      .orderBy(testimonyMessages.createdAt);
    const s = await sodium();
    const list = [];
    for (const m of messages) {
      if (m.author === 'witness') {
        list.push({ author: 'witness' as const, text: '', createdAt: m.createdAt.toISOString() });
        continue;
      }
      const opened = m.forWitness ? await unseal(m.forWitness, row.witnessPublicKey, witnessKey) : null;
      list.push({ author: 'reviewer' as const, text: opened ? Buffer.from(opened).toString('utf8') : '', createdAt: m.createdAt.toISOString() });
    }
    s.memzero(witnessKey);
    return { status: row.status, messages: list };
  }

  /** A witness's answer: sealed to the intake key only (the witness already knows what they wrote). */
  async witnessReply(row: TestimonyRow, text: string, draft: Draft | null): Promise<void> {
    const key = await currentIntakeKey(this.db);
    if (!key) throw httpError.unavailable('Testimony is not accepted yet: the site has no intake key');
    const forReviewers = await seal(Buffer.from(text), key.publicKey);
    await this.db.transaction(async (tx) => {
      if (text) await tx.insert(testimonyMessages).values({ testimonyId: row.id, author: 'witness', forReviewers });
      if (draft?.files.length) await tx.insert(testimonyFiles).values(draft.files.map((f) => ({ ...f, testimonyId: row.id })));
      await tx
        .update(testimonies)
        .set({ sealedBytes: row.sealedBytes + forReviewers.length + (draft?.bytes ?? 0), updatedAt: new Date() })
        .where(eq(testimonies.id, row.id));
    });
  }

  /** A draft for files a witness adds later: sealed to the current intake key, stored under the testimony. */
  async draftFor(row: TestimonyRow): Promise<Draft> {
    const draft = await this.begin();
    return { ...draft, id: row.id };
  }

  async rowsByIds(ids: string[]): Promise<TestimonyRow[]> {
    return ids.length ? this.db.select().from(testimonies).where(inArray(testimonies.id, ids)) : [];
  }

  async row(id: string): Promise<TestimonyRow | null> {
    const [row] = await this.db.select().from(testimonies).where(and(eq(testimonies.id, id))).limit(1);
    return row ?? null;
  }
}

/** Parses the envelope fields (as sent by the form or an API client) with field errors keyed by name. */
export function parseEnvelope(fields: Record<string, string | string[]>): TestimonyEnvelope {
  const one = (name: string) => {
    const v = fields[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const consentField = fields.consent;
  const consent = Array.isArray(consentField) ? consentField : consentField ? consentField.split(',').map((c) => c.trim()).filter(Boolean) : [];
  const parsed = testimonyEnvelopeSchema.safeParse({
    statement: one('statement') ?? '',
    happenedOn: one('happenedOn'),
    region: one('region'),
    zone: one('zone'),
    woreda: one('woreda'),
    place: one('place'),
    people: one('people'),
    contact: one('contact'),
    consent,
  });
  if (parsed.success) return parsed.data;
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'statement')] ??= issue.message;
  throw httpError.badRequest(errors);
}

export { decryptMessage };
