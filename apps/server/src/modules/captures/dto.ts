import { API_BASE, can, type Actor, type CaptureFileDto, type LinkCaptureDto, type RecordCapturesDto } from '@app/shared';
import type { LinkCaptureRow, RecordRow } from '../../db/schema';
import type { SignedLinks } from '../media/signed-links';
import { storedFile, type CaptureFileName } from './files';
import type { CaptureService } from './service';

/** What a reader is shown of a record's captures: file links only where they may fetch them. */
export class CaptureViews {
  constructor(
    private readonly service: CaptureService,
    private readonly links: SignedLinks | undefined,
  ) {}

  private file(row: LinkCaptureRow, name: CaptureFileName, allowed: boolean, plain: boolean, actor: Actor | null): CaptureFileDto | null {
    const stored = storedFile(row, name);
    if (!stored) return null;
    const url = `${API_BASE}/captures/${row.id}/${name}`;
    const signed = !plain && actor && this.links ? `${url}?v=${this.links.sign(stored.key, actor)}` : url;
    return { sha256: stored.sha256, size: stored.size, url: allowed ? signed : null };
  }

  /**
   * One capture. Plain URLs where an anonymous reader would be let in anyway, links signed for `reader.actor` for
   * what only they may fetch. Why a capture failed is for the record's editors: it can tell what the server's DNS
   * resolves.
   */
  capture(
    row: LinkCaptureRow,
    record: RecordRow,
    reader: { mayDownload: boolean; publicDownload: boolean; editor: boolean; actor: Actor | null },
  ): LinkCaptureDto {
    const openToAll = record.public;
    const downloadPlain = openToAll && reader.publicDownload;
    return {
      id: row.id,
      field: row.field,
      url: row.url,
      status: row.status as LinkCaptureDto['status'],
      reason: reader.editor ? row.reason : null,
      attempts: row.attempts,
      requestedAt: row.requestedAt.toISOString(),
      capturedAt: row.capturedAt?.toISOString() ?? null,
      finalUrl: row.finalUrl,
      httpStatus: row.httpStatus,
      firstLoad: row.firstLoad ?? null,
      pageTitle: row.pageTitle,
      screenshot: this.file(row, 'screenshot.png', true, openToAll, reader.actor),
      snapshot: this.file(row, 'snapshot.mhtml', reader.mayDownload, downloadPlain, reader.actor),
      headers: this.file(row, 'headers.json', reader.mayDownload, downloadPlain, reader.actor),
      wacz: this.file(row, 'capture.wacz', reader.mayDownload, downloadPlain, reader.actor),
      certificates: this.file(row, 'certificates.pem', reader.mayDownload, downloadPlain, reader.actor),
      timestampedAt: row.timestampedAt?.toISOString() ?? null,
    };
  }

  async of(record: RecordRow, actor: Actor | null): Promise<RecordCapturesDto> {
    const publicDownload = await this.service.publicDownload(record.id);
    const editor = can.modify(actor, record);
    const reader = { publicDownload, editor, mayDownload: publicDownload || editor, actor };
    const rows = await this.service.list(record.id);
    return {
      publicDownload,
      canRequest: this.service.enabled && editor,
      canConfigure: can.toggleAccess(actor),
      captures: rows.map((c) => this.capture(c, record, reader)),
    };
  }
}
