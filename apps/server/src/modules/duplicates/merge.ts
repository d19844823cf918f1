import { and, eq, isNull, sql } from 'drizzle-orm';
import { dataFields, getCategory, NO_WITHHELD_AUTHOR, withheldReaderOf, type Actor, type CategorySlug, type DismissBody, type MergeBody, type Source } from '@app/shared';
import type { Db, Tx } from '../../db';
import { duplicateDismissals, media, records, type RecordRow } from '../../db/schema';
import { httpError } from '../../errors';
import type { AuditService } from '../../services/audit';

/**
 * An admin's answer to a possible duplicate: merge the two records (the same person recorded twice), or mark them as
 * two different people. Each runs in one transaction with its audit entries.
 */

type Changes = Record<string, { before: unknown; after: unknown }>;

const plain = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : (value ?? null));

/**
 * The merged record in full, before and after, field by field (every data field, whether it changed or not): the
 * audit log keeps both versions of the person, so nothing the merged record said is lost with it.
 */
function bothVersions(before: RecordRow, after: RecordRow, imagesBefore: string[]): Changes {
  const category = getCategory(before.category)!;
  const fields = [...dataFields(category).map((f) => f.name), 'approved', 'public', 'deletedAt', 'deletedBy', 'mergedInto'];
  const changes: Changes = {};
  for (const field of fields) {
    changes[field] = { before: plain((before as Record<string, unknown>)[field]), after: plain((after as Record<string, unknown>)[field]) };
  }
  changes.images = { before: imagesBefore, after: [] };
  return changes;
}

async function liveFileIds(tx: Tx, recordId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: media.id })
    .from(media)
    .where(and(eq(media.recordId, recordId), isNull(media.removedAt)))
    .orderBy(media.position, media.createdAt);
  return rows.map((r) => r.id);
}

/** Both records, locked in id order (two merges of one pair never wait for each other the wrong way round). */
async function lockPair(tx: Tx, ids: [string, string]): Promise<Map<string, RecordRow>> {
  const rows = await tx
    .select()
    .from(records)
    .where(sql`${records.id} in (${ids[0]}, ${ids[1]})`)
    .orderBy(records.id)
    .for('update');
  return new Map(rows.map((row) => [row.id, row]));
}

/** A live person record of a category that checks duplicates, or 404. */
function livePerson(row: RecordRow | undefined): RecordRow {
  if (!row || row.deletedAt || !getCategory(row.category)?.checksDuplicates) throw httpError.notFound();
  return row;
}

/**
 * The merged record's sources as they move: each withheld testimony names the one who read it there (its author, else
 * that record's owner; nobody but staff when it had none), so the kept record's owner does not become its reader.
 */
function movedSources(merged: RecordRow): Source[] {
  return merged.sources.map((source) => (source.withheld ? { ...source, authorId: withheldReaderOf(source, merged) ?? NO_WITHHELD_AUTHOR } : source));
}

/** The kept record's sources, then those only the merged record cites (the same source cited by both, once). */
function sourcesOfBoth(kept: Source[], merged: Source[]): Source[] {
  const seen = new Set(kept.map((source) => JSON.stringify(source)));
  return [...kept, ...merged.filter((source) => !seen.has(JSON.stringify(source)))];
}

export class DuplicateWrites {
  constructor(private readonly services: { db: Db; audit: AuditService }) {}

  /**
   * `merge` becomes part of `keep`: its files move to the kept record (after the kept one's own), its sources join the
   * kept one's (a source both cite once), its incident link is taken where the kept record has none, and it goes to the
   * trash with `mergedInto` set, so lists, counts and statistics count the person once while its address still leads
   * to the kept record. Audited twice: the kept record's new files, and the merged record in full (both versions).
   */
  async merge(body: MergeBody, actor: Actor): Promise<{ category: CategorySlug; keep: string }> {
    const keepId = body.keep.toLowerCase();
    const mergeId = body.merge.toLowerCase();
    return this.services.db.transaction(async (tx) => {
      const locked = await lockPair(tx, [keepId, mergeId].sort() as [string, string]);
      const keep = livePerson(locked.get(keepId));
      const merged = livePerson(locked.get(mergeId));
      if (keep.category !== merged.category) throw httpError.badRequest({ merge: 'Must be a record of the same category as the one kept' });
      const keptFilesBefore = await liveFileIds(tx, keepId);
      const mergedFiles = await liveFileIds(tx, mergeId);
      const [last] = await tx
        .select({ position: sql<number>`coalesce(max(${media.position}), 0)::int` })
        .from(media)
        .where(and(eq(media.recordId, keepId), isNull(media.removedAt)));
      await tx
        .update(media)
        .set({ recordId: keepId, position: sql`${media.position} + ${(last?.position ?? 0) + 1}` })
        .where(and(eq(media.recordId, mergeId), isNull(media.removedAt)));
      const now = new Date();
      const sources = sourcesOfBoth(keep.sources, movedSources(merged));
      const incidentId = keep.incidentId ?? merged.incidentId;
      // One record of the person confirmed is the person confirmed: the kept record takes the other's confirmation.
      const confirmation = !keep.approved && merged.approved ? { approved: true, approvedBy: merged.approvedBy, approvedAt: merged.approvedAt } : {};
      await tx.update(records).set({ updatedAt: now, sources, incidentId, ...confirmation }).where(eq(records.id, keepId));
      const [after] = await tx
        .update(records)
        .set({ deletedAt: now, deletedBy: actor.id, mergedInto: keepId })
        .where(eq(records.id, mergeId))
        .returning();
      const { audit } = this.services;
      const keptChanges: Changes = { mergedFrom: { before: null, after: mergeId } };
      if (mergedFiles.length) keptChanges.images = { before: keptFilesBefore, after: [...keptFilesBefore, ...mergedFiles] };
      if (sources.length !== keep.sources.length) keptChanges.sources = { before: keep.sources, after: sources };
      if (incidentId !== keep.incidentId) keptChanges.incidentId = { before: keep.incidentId, after: incidentId };
      if (confirmation.approved) keptChanges.approved = { before: false, after: true };
      const withheldReaders = movedSources(merged).flatMap((source) => (source.withheld ? [source.authorId] : []));
      if (withheldReaders.length) keptChanges.withheldReaders = { before: null, after: withheldReaders };
      await audit.append({ actor, action: 'merge', category: keep.category, recordId: keepId, subject: mergeId, changes: keptChanges }, tx);
      await audit.append(
        { actor, action: 'merged', category: merged.category, recordId: mergeId, subject: keepId, changes: bothVersions(merged, after!, mergedFiles) },
        tx,
      );
      return { category: keep.category as CategorySlug, keep: keepId };
    });
  }

  /** "Not the same person": the pair is never shown again (by the check or the pairs), and the answer is audited. */
  async dismiss(body: DismissBody, actor: Actor): Promise<void> {
    const [first, second] = [body.first.toLowerCase(), body.second.toLowerCase()].sort() as [string, string];
    await this.services.db.transaction(async (tx) => {
      const locked = await lockPair(tx, [first, second]);
      const a = livePerson(locked.get(first));
      livePerson(locked.get(second));
      const inserted = await tx
        .insert(duplicateDismissals)
        .values({ first, second, dismissedBy: actor.id })
        .onConflictDoNothing()
        .returning();
      if (!inserted.length) return; // said before: nothing new to log
      await this.services.audit.append(
        { actor, action: 'not-duplicate', category: a.category, recordId: first, subject: second, changes: { notSamePersonAs: { before: null, after: second } } },
        tx,
      );
    });
  }
}
