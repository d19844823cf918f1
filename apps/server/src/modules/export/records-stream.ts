import { and, sql, type SQL } from 'drizzle-orm';
import type { Actor, RecordDto, SearchFilters } from '@app/shared';
import type { Db } from '../../db';
import { records } from '../../db/schema';
import type { MediaService } from '../media/service';
import { toRecordDto } from '../records/dto';
import { createdAtExact, newestFirst } from '../records/list-query';
import { liveFilesOfRecord } from '../records/repository';
import { incidentOfRecord } from '../records/links';
import { filterConditions, searchColumns, textQuery, type Visibility } from '../collection/filters';

/** Records read per statement: large enough that round trips cost little, small enough that memory stays flat. */
const EXPORT_BATCH = 1000;

/**
 * Every record the filters select that the reader may see, newest first, as the API shows them, a batch at a time.
 * Each batch is one keyset step (created_at, id) past the last, so the thousandth batch costs what the first does and
 * memory holds one batch whatever the size; the consumer's pace (a slow download) sets when the next is read. A record
 * changed while an export runs appears as it was when its batch was read. A signed-in `reader` is shown who created
 * each record; files are linked plainly for everyone (an export is kept apart: links signed for a reader would hand
 * out every private file at once, and expire anyway).
 */
export async function* exportedRecords(
  db: Db,
  media: MediaService,
  filters: SearchFilters,
  visibility: Visibility,
  reader: Actor | null = null,
): AsyncGenerator<RecordDto[]> {
  const where = filterConditions(filters, visibility);
  if (filters.q) where.push(sql`${searchColumns.vector} @@ ${textQuery(filters.q)}`);
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    const position: SQL[] = after ? [sql`(${records.createdAt}, ${records.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`] : [];
    // The records and their files in one statement per batch.
    const page = await db
      .select({ record: records, files: liveFilesOfRecord, incident: incidentOfRecord, createdAt: createdAtExact })
      .from(records)
      .where(and(...where, ...position))
      .orderBy(...newestFirst)
      .limit(EXPORT_BATCH);
    if (!page.length) return;
    yield page.map(({ record, files, incident }) => toRecordDto(record, files, media, { reader, plainLinks: true, incident }));
    if (page.length < EXPORT_BATCH) return;
    const last = page.at(-1)!;
    after = { createdAt: last.createdAt, id: last.record.id };
  }
}
