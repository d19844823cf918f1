import { API_BASE, can, type Actor, type CaptureFileDto, type LinkCaptureDto, type RecordCapturesDto } from '@app/shared';
import type { LinkCaptureRow, RecordRow } from '../../db/schema';
import type { PublicCopyAccess } from '../media/public-access';
import { storedFile, type CaptureFileName } from './files';
import type { CaptureService } from './service';

/** What a reader is shown of a record's captures: file links only where they may fetch them. */
export class CaptureViews {
  constructor(
    private readonly service: CaptureService,
    private readonly signer: PublicCopyAccess,
  ) {}

  private file(row: LinkCaptureRow, name: CaptureFileName, allowed: boolean, plain: boolean): CaptureFileDto | null {
    const stored = storedFile(row, name);
    if (!stored) return null;
    const url = `${API_BASE}/captures/${row.id}/${name}`;
    return { sha256: stored.sha256, size: stored.size, url: !allowed ? null : plain ? url : `${url}?v=${this.signer.signature(stored.key)}` };
  }

  /**
   * One capture. Plain URLs where an anonymous reader would be let in anyway, signed ones for what only this reader
   * may fetch. Why a capture failed is for the record's editors: it can tell what the server's DNS resolves.
   */
  capture(row: LinkCaptureRow, record: RecordRow, reader: { mayDownload: boolean; publicDownload: boolean; editor: boolean }): LinkCaptureDto {
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
      pageTitle: row.pageTitle,
      screenshot: this.file(row, 'screenshot.png', true, openToAll),
      snapshot: this.file(row, 'snapshot.mhtml', reader.mayDownload, downloadPlain),
      headers: this.file(row, 'headers.json', reader.mayDownload, downloadPlain),
    };
  }

  async of(record: RecordRow, actor: Actor | null): Promise<RecordCapturesDto> {
    const publicDownload = await this.service.publicDownload(record.id);
    const editor = can.modify(actor, record);
    const reader = { publicDownload, editor, mayDownload: publicDownload || editor };
    const rows = await this.service.list(record.id);
    return {
      publicDownload,
      canRequest: this.service.enabled && editor,
      canConfigure: can.toggleAccess(actor),
      captures: rows.map((c) => this.capture(c, record, reader)),
    };
  }
}
