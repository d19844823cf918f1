import type { Readable } from 'node:stream';
import { count, desc, eq, inArray } from 'drizzle-orm';
import type { Actor, TestimonyStatus } from '@app/shared';
import { testimonies, testimonyFiles, testimonyMessages, users, type TestimonyRow } from '../../db/schema';
import { httpError } from '../../errors';
import type { AuditService } from '../../services/audit';
import { DecryptStream, decryptMessage, seal, sodium, unseal } from './crypto';
import { currentIntakeKey, publicKeyOf } from './keys';
import type { TestimonyService } from './service';

/** Whether an account reviews testimonies: a super always; otherwise as granted, else admins (decisions.md §4). */
export function canReview(user: { role: string; reviewer: boolean | null; active: boolean }): boolean {
  if (!user.active) return false;
  if (user.role === 'super') return true;
  if (user.reviewer !== null) return user.reviewer && user.role !== 'pending';
  return user.role === 'admin';
}

export type UnlockedKeys = Map<string, Uint8Array>;

/** The reviewers' side: the queue (metadata only), and what an unlocked session decrypts. */
export class TestimonyReview {
  constructor(
    private readonly service: TestimonyService,
    private readonly audit: Pick<AuditService, 'append'>,
  ) {}

  private get db() {
    return this.service.db;
  }

  async isReviewer(actor: Actor): Promise<boolean> {
    const [user] = await this.db.select({ role: users.role, reviewer: users.reviewer, active: users.active }).from(users).where(eq(users.id, actor.id));
    return Boolean(user && canReview(user));
  }

  async queue(status?: TestimonyStatus) {
    const rows = await this.db
      .select()
      .from(testimonies)
      .where(status ? eq(testimonies.status, status) : undefined)
      .orderBy(desc(testimonies.createdAt))
      .limit(500);
    const ids = rows.map((r) => r.id);
    const [files, messages] = ids.length
      ? await Promise.all([
          this.db.select({ id: testimonyFiles.testimonyId, n: count() }).from(testimonyFiles).where(inArray(testimonyFiles.testimonyId, ids)).groupBy(testimonyFiles.testimonyId),
          this.db.select({ id: testimonyMessages.testimonyId, n: count() }).from(testimonyMessages).where(inArray(testimonyMessages.testimonyId, ids)).groupBy(testimonyMessages.testimonyId),
        ])
      : [[], []];
    const filesOf = new Map(files.map((f) => [f.id, Number(f.n)]));
    const messagesOf = new Map(messages.map((m) => [m.id, Number(m.n)]));
    return rows.map((r) => listItem(r, filesOf.get(r.id) ?? 0, messagesOf.get(r.id) ?? 0));
  }

  private async open(sealed: Uint8Array, keyId: string, keys: UnlockedKeys): Promise<Uint8Array> {
    const privateKey = keys.get(keyId);
    const publicKey = await publicKeyOf(this.db, keyId);
    const opened = privateKey && publicKey ? await unseal(sealed, publicKey, privateKey) : null;
    if (!opened) throw httpError.forbidden('Your unlocked key does not open this testimony');
    return opened;
  }

  async rowOrNotFound(id: string): Promise<TestimonyRow> {
    const row = await this.service.row(id);
    if (!row) throw httpError.notFound('No such testimony');
    return row;
  }

  async detail(id: string, keys: UnlockedKeys) {
    const row = await this.rowOrNotFound(id);
    const contentKey = await this.open(row.sealedKey, row.keyId, keys);
    const envelope = JSON.parse(Buffer.from((await decryptMessage(row.envelope, contentKey))!).toString('utf8'));
    const files = await this.db.select().from(testimonyFiles).where(eq(testimonyFiles.testimonyId, id)).orderBy(testimonyFiles.createdAt);
    const fileList = [];
    for (const f of files) {
      const key = await this.openFileKey(f, keys);
      const meta = JSON.parse(Buffer.from((await decryptMessage(f.meta, key))!).toString('utf8'));
      fileList.push({ id: f.id, ...meta });
    }
    const messages = await this.db.select().from(testimonyMessages).where(eq(testimonyMessages.testimonyId, id)).orderBy(testimonyMessages.createdAt);
    const messageList = [];
    for (const m of messages) {
      const text = await this.openForReviewers(m.forReviewers, keys);
      messageList.push({ author: m.author as 'reviewer' | 'witness', text, createdAt: m.createdAt.toISOString() });
    }
    return { ...listItem(row, files.length, messages.length), envelope, fileList, messageList };
  }

  /** A message sealed to some intake key: tried with each unlocked key (one rotation leaves two). */
  private async openForReviewers(sealed: Uint8Array, keys: UnlockedKeys): Promise<string> {
    for (const keyId of keys.keys()) {
      const publicKey = await publicKeyOf(this.db, keyId);
      const opened = publicKey ? await unseal(sealed, publicKey, keys.get(keyId)!) : null;
      if (opened) return Buffer.from(opened).toString('utf8');
    }
    return '';
  }

  private async openFileKey(file: { sealedKey: Buffer; testimonyId: string }, keys: UnlockedKeys): Promise<Uint8Array> {
    for (const keyId of keys.keys()) {
      const publicKey = await publicKeyOf(this.db, keyId);
      const opened = publicKey ? await unseal(file.sealedKey, publicKey, keys.get(keyId)!) : null;
      if (opened) return opened;
    }
    throw httpError.forbidden('Your unlocked key does not open this file');
  }

  /** A file's plaintext as a stream, decrypted as it is read, with its name and type. */
  async file(id: string, fileId: string, keys: UnlockedKeys): Promise<{ stream: Readable; name: string; type: string; size: number }> {
    const [f] = await this.db.select().from(testimonyFiles).where(eq(testimonyFiles.id, fileId)).limit(1);
    if (!f || f.testimonyId !== id) throw httpError.notFound('No such file');
    const key = await this.openFileKey(f, keys);
    const meta = JSON.parse(Buffer.from((await decryptMessage(f.meta, key))!).toString('utf8')) as { name: string; type: string; size: number };
    const stored = await this.service.storage.get(f.storageKey);
    return { stream: stored.pipe(new DecryptStream(await sodium(), key)), ...meta };
  }

  /** A reviewer's question: sealed to the witness (read with the receipt) and to the reviewers. */
  async write(id: string, text: string, actor: Actor): Promise<void> {
    const row = await this.rowOrNotFound(id);
    const key = await currentIntakeKey(this.db);
    if (!key) throw httpError.unavailable('There is no intake key');
    const [forWitness, forReviewers] = await Promise.all([seal(Buffer.from(text), row.witnessPublicKey), seal(Buffer.from(text), key.publicKey)]);
    await this.db.transaction(async (tx) => {
      await tx.insert(testimonyMessages).values({ testimonyId: id, author: 'reviewer', forWitness, forReviewers });
      await this.audit.append({ actor, action: 'testimony.message', subject: `testimony:${id}`, changes: {} }, tx);
    });
  }

  /** Moves a testimony along the queue; the audit log names the states, never the content. */
  async setStatus(id: string, status: TestimonyStatus, actor: Actor, recordId?: string): Promise<void> {
    const row = await this.rowOrNotFound(id);
    await this.db.transaction(async (tx) => {
      await tx
        .update(testimonies)
        .set({ status, updatedAt: new Date(), ...(recordId ? { recordId } : {}) })
        .where(eq(testimonies.id, id));
      const changes: Record<string, { before: unknown; after: unknown }> = { status: { before: row.status, after: status } };
      if (recordId) changes.recordId = { before: row.recordId, after: recordId };
      await this.audit.append({ actor, action: 'testimony.status', subject: `testimony:${id}`, changes }, tx);
    });
  }
}

function listItem(row: TestimonyRow, files: number, messages: number) {
  return {
    id: row.id,
    status: row.status as TestimonyStatus,
    unverified: row.unverified,
    files,
    messages,
    sealedBytes: row.sealedBytes,
    recordId: row.recordId,
    createdAt: row.createdAt.toISOString(),
  };
}
