import { createHash } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { splitUrlList, type Actor } from '@app/shared';
import type { Db } from '../../db';
import { linkCaptures, recordCaptureSettings, records, type LinkCaptureRow, type RecordRow } from '../../db/schema';
import type { AuditService } from '../../services/audit';
import type { JobQueue } from '../../services/jobs';
import type { Storage } from '../media/storage';
import type { TimestampTrust } from '../../services/timestamping';
import { isPermanent, type PageCapture } from './browser';
import type { CaptureSigner } from './signing';
import { writeWarc } from './warc';
import { packageWacz } from './wacz';

export const CAPTURE_JOB = 'link.capture';
const CAPTURE_JOB_ATTEMPTS = 3;

/** The record fields whose URLs are captured: a link's URL, a massacre's evidence, every record's sources. */
export const CAPTURED_FIELDS = ['linkURL', 'evidence', 'sources'] as const;
type CapturedField = (typeof CAPTURED_FIELDS)[number];

/** The URLs one field cites. A withheld testimony's link is not captured: a capture is shown to every reader. */
function urlsOf(row: Partial<Pick<RecordRow, CapturedField>>, field: CapturedField): string[] {
  if (field === 'sources') return (row.sources ?? []).filter((s) => !s.withheld && s.url).map((s) => s.url!.trim());
  const value = row[field];
  if (!value) return [];
  return field === 'evidence' ? splitUrlList(value) : [value.trim()];
}

/** The URLs a record cites, each with the field that cites it; a URL cited twice is captured once. */
export function citedUrls(row: Partial<Pick<RecordRow, CapturedField>>): { field: CapturedField; url: string }[] {
  const seen = new Set<string>();
  const out: { field: CapturedField; url: string }[] = [];
  for (const field of CAPTURED_FIELDS) {
    for (const url of urlsOf(row, field)) {
      if (!url || seen.has(url)) continue;
      seen.add(url);
      out.push({ field, url });
    }
  }
  return out;
}

export interface Capturer {
  capture(url: string): Promise<PageCapture>;
}

interface CaptureServiceOptions {
  enabled: boolean;
  jobs: JobQueue;
  audit: AuditService;
  storage: Storage;
  /** Made on first use: the browser is not loaded by a site that captures nothing. */
  capturer: () => Capturer;
  /** How each capture's WACZ is signed and time-stamped (TSA_URL, checked against TSA_CA_FILE). */
  archive: { signer: CaptureSigner; software: string; tsaUrl?: string; tsaTrust: TimestampTrust };
  log?: { info: (msg: string) => void; warn: (msg: string) => void };
}

type Executor = Pick<Db, 'insert' | 'select' | 'update' | 'execute'>;

/** A capture with its record's category (null once the record is purged), for the audit entries. */
type CaptureOfRecord = LinkCaptureRow & { category: string | null };

/** Captures of cited links: queued when a record's URLs appear or change, or when an editor asks; kept forever. */
export class CaptureService {
  constructor(
    private readonly db: Db,
    private readonly options: CaptureServiceOptions,
  ) {}

  get enabled(): boolean {
    return this.options.enabled;
  }

  /** Queues a capture of every URL `after` cites that `before` did not (all of them for a new record), in `tx`. */
  async recordWritten(tx: Executor, before: RecordRow | null, after: RecordRow, actor: Actor): Promise<number> {
    if (!this.enabled) return 0;
    const old = new Set(before ? citedUrls(before).map((c) => c.url) : []);
    const fresh = citedUrls(after).filter((c) => !old.has(c.url));
    for (const cited of fresh) await this.queue(tx, after.id, cited, actor.id);
    return fresh.length;
  }

  /**
   * Queues a new capture of one cited URL (or of all of them), except of those whose capture is still waiting or
   * running (asking again cannot pile up work); returns the new captures' ids, and how many were cited.
   */
  async request(tx: Executor, row: RecordRow, actor: Actor, url?: string): Promise<{ queued: string[]; cited: number }> {
    const cited = citedUrls(row).filter((c) => url === undefined || c.url === url);
    const waiting = await tx
      .select({ url: linkCaptures.url })
      .from(linkCaptures)
      .where(and(eq(linkCaptures.recordId, row.id), inArray(linkCaptures.status, ['queued', 'processing'])));
    const busy = new Set(waiting.map((w) => w.url));
    const queued: string[] = [];
    for (const c of cited) if (!busy.has(c.url)) queued.push(await this.queue(tx, row.id, c, actor.id));
    return { queued, cited: cited.length };
  }

  private async queue(tx: Executor, recordId: string, cited: { field: CapturedField; url: string }, requestedBy: string): Promise<string> {
    const [row] = await tx
      .insert(linkCaptures)
      .values({ recordId, field: cited.field, url: cited.url, requestedBy })
      .returning({ id: linkCaptures.id });
    await this.options.jobs.enqueue(CAPTURE_JOB, { captureId: row!.id, maxAttempts: CAPTURE_JOB_ATTEMPTS }, { maxAttempts: CAPTURE_JOB_ATTEMPTS }, tx as Db);
    return row!.id;
  }

  /**
   * The job: one attempt at one capture. A failure another attempt could change is thrown, so the queue tries again
   * later; a refusal, or the last attempt's failure, is recorded as the capture's outcome.
   */
  async run(captureId: string, job: { attempts: number }, maxAttempts = CAPTURE_JOB_ATTEMPTS): Promise<void> {
    const [found] = await this.db
      .select({ capture: linkCaptures, category: records.category })
      .from(linkCaptures)
      .leftJoin(records, eq(records.id, linkCaptures.recordId))
      .where(eq(linkCaptures.id, captureId));
    if (!found || found.capture.status === 'done' || found.capture.status === 'failed') return;
    const row = { ...found.capture, category: found.category };
    if (!this.enabled) return this.fail(row, job.attempts, 'captures were turned off on this site (CAPTURE_ENABLED=false)');
    await this.db.update(linkCaptures).set({ status: 'processing', attempts: job.attempts }).where(eq(linkCaptures.id, captureId));
    let page: PageCapture;
    try {
      page = await this.options.capturer().capture(row.url);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      if (isPermanent(err) || job.attempts >= maxAttempts) {
        await this.fail(row, job.attempts, isPermanent(err) ? `refused: ${reason}` : `failed after ${job.attempts} attempts: ${reason}`);
        if (isPermanent(err)) return;
      } else {
        await this.db
          .update(linkCaptures)
          .set({ status: 'queued', reason: `attempt ${job.attempts} of ${maxAttempts} failed: ${reason}`.slice(0, 2000) })
          .where(eq(linkCaptures.id, captureId));
      }
      throw err;
    }
    await this.store(row, job.attempts, page);
  }

  /** The capture's web archive: its exchanges as WARC records, packaged as a signed (and time-stamped) WACZ. */
  private async archive(row: CaptureOfRecord, page: PageCapture) {
    const { signer, software, tsaUrl, tsaTrust } = this.options.archive;
    const warc = await writeWarc(
      page.exchanges,
      { software, filename: 'capture.warc.gz', settings: page.settings },
      { capture: row.id, requestedUrl: row.url, finalUrl: page.finalUrl, httpStatus: page.httpStatus, firstLoad: page.firstLoad, title: page.title, capturedAt: page.capturedAt.toISOString() },
    );
    return packageWacz(
      warc,
      { url: page.finalUrl, title: page.title, capturedAt: page.capturedAt },
      { signer, software, ...(tsaUrl ? { timestamp: { tsaUrl, trust: tsaTrust } } : {}), extras: { captureId: row.id, requestedUrl: row.url } },
    );
  }

  private async store(row: CaptureOfRecord, attempts: number, page: PageCapture): Promise<void> {
    const base = `originals/captures/${row.id.slice(0, 2)}/${row.id}`;
    const archived = await this.archive(row, page);
    const files = {
      snapshot: await this.putFile(`${base}/snapshot.mhtml`, page.snapshot, 'multipart/related'),
      screenshot: await this.putFile(`${base}/screenshot.png`, page.screenshot, 'image/png'),
      headers: await this.putFile(`${base}/headers.json`, page.headers, 'application/json'),
      wacz: await this.putFile(`${base}/capture.wacz`, archived.wacz, 'application/wacz'),
      certificates: page.certificates ? await this.putFile(`${base}/certificates.pem`, Buffer.from(page.certificates), 'application/x-pem-file') : null,
    };
    const timestamp = archived.timestamp;
    const values = {
      status: 'done',
      reason: null,
      attempts,
      capturedAt: page.capturedAt,
      finalUrl: page.finalUrl,
      httpStatus: page.httpStatus,
      firstLoad: page.firstLoad,
      pageTitle: page.title.slice(0, 1000) || null,
      snapshotKey: files.snapshot.key,
      snapshotSha256: files.snapshot.sha256,
      snapshotSize: files.snapshot.size,
      screenshotKey: files.screenshot.key,
      screenshotSha256: files.screenshot.sha256,
      screenshotSize: files.screenshot.size,
      headersKey: files.headers.key,
      headersSha256: files.headers.sha256,
      headersSize: files.headers.size,
      waczKey: files.wacz.key,
      waczSha256: files.wacz.sha256,
      waczSize: files.wacz.size,
      certificatesKey: files.certificates?.key ?? null,
      certificatesSha256: files.certificates?.sha256 ?? null,
      certificatesSize: files.certificates?.size ?? null,
      timestampedAt: timestamp && 'time' in timestamp ? timestamp.time : null,
      timestampFailure: timestamp && 'failure' in timestamp ? timestamp.failure.slice(0, 2000) : null,
    };
    await this.db.transaction(async (tx) => {
      await tx.update(linkCaptures).set(values).where(eq(linkCaptures.id, row.id));
      await this.options.audit.append(
        {
          actor: null,
          action: 'capture',
          category: row.category,
          recordId: row.recordId,
          subject: `capture:${row.id}`,
          changes: {
            capture: {
              before: null,
              after: {
                url: row.url,
                finalUrl: page.finalUrl,
                httpStatus: page.httpStatus,
                ...(page.firstLoad ? { firstLoad: page.firstLoad } : {}),
                capturedAt: page.capturedAt.toISOString(),
                requestedBy: row.requestedBy,
                snapshot: files.snapshot,
                screenshot: files.screenshot,
                headers: files.headers,
                wacz: files.wacz,
                certificates: files.certificates,
                ...(timestamp ? { timestamp: 'time' in timestamp ? { time: timestamp.time.toISOString() } : timestamp } : {}),
              },
            },
          },
        },
        tx,
      );
    });
    this.options.log?.info(`capture ${row.id}: ${row.url} -> ${page.finalUrl} (${page.httpStatus})`);
  }

  private async putFile(key: string, bytes: Buffer, contentType: string) {
    await this.options.storage.put(key, bytes, contentType, bytes.length);
    return { key, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
  }

  private async fail(row: CaptureOfRecord, attempts: number, reason: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(linkCaptures)
        .set({ status: 'failed', reason: reason.slice(0, 2000), attempts })
        .where(eq(linkCaptures.id, row.id));
      await this.options.audit.append(
        {
          actor: null,
          action: 'capture.failed',
          category: row.category,
          recordId: row.recordId,
          subject: `capture:${row.id}`,
          changes: { capture: { before: null, after: { url: row.url, requestedBy: row.requestedBy, reason: reason.slice(0, 2000) } } },
        },
        tx,
      );
    });
    this.options.log?.warn(`capture ${row.id} of ${row.url} failed: ${reason}`);
  }

  async list(recordId: string): Promise<LinkCaptureRow[]> {
    return this.db.select().from(linkCaptures).where(eq(linkCaptures.recordId, recordId)).orderBy(desc(linkCaptures.requestedAt), desc(linkCaptures.id));
  }

  async find(captureId: string): Promise<LinkCaptureRow | null> {
    const [row] = await this.db.select().from(linkCaptures).where(eq(linkCaptures.id, captureId));
    return row ?? null;
  }

  async publicDownload(recordId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ publicDownload: recordCaptureSettings.publicDownload })
      .from(recordCaptureSettings)
      .where(and(eq(recordCaptureSettings.recordId, recordId)));
    return row?.publicDownload ?? false;
  }

  /** Sets the record's public-download choice and logs the change; false when it was already so. */
  async setPublicDownload(row: RecordRow, value: boolean, actor: Actor): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx.select().from(recordCaptureSettings).where(eq(recordCaptureSettings.recordId, row.id)).for('update');
      const before = current?.publicDownload ?? false;
      if (before === value) return false;
      await tx
        .insert(recordCaptureSettings)
        .values({ recordId: row.id, publicDownload: value, updatedBy: actor.id, updatedAt: new Date() })
        .onConflictDoUpdate({ target: recordCaptureSettings.recordId, set: { publicDownload: value, updatedBy: actor.id, updatedAt: new Date() } });
      await this.options.audit.append(
        { actor, action: 'capture.settings', category: row.category, recordId: row.id, changes: { capturePublicDownload: { before, after: value } } },
        tx,
      );
      return true;
    });
  }
}
