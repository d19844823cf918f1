import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { listRecords } from '../src/modules/records/list-query';
import { findRecordView } from '../src/modules/records/repository';
import type { MediaView } from '../src/modules/media/service';

/**
 * The reads bring a record's files in the record's own statement (JSON built by PostgreSQL); what they bring must be
 * exactly the media rows the rest of the server reads through drizzle.
 */
describe('record views', () => {
  let t: TestApp;
  let recordId: string;

  beforeAll(async () => {
    t = await createTestApp();
    [{ id: recordId }] = (await t.database.query<{ id: string }>(
      `insert into records (category, title, description, public, sample) values ('massacres', 'Test record', 'Test data, not real.', true, true) returning id`,
    )) as [{ id: string }];
    for (const [position, removed] of [[2, false], [0, false], [1, true]] as const) {
      await t.database.query(
        `insert into media (record_id, kind, role, position, storage_key, sha256, size, mime, width, height, variants, public_key, caption, graphic, removed_at)
         values ($1, 'image', 'gallery', $2::int, 'test/' || $2::int, repeat('a', 64), 1234567890123, 'image/jpeg', 640, 480,
                 '[{"width": 320, "format": "webp", "key": "k.webp"}]', 'p' || $2::int, 'caption ' || $2::int, $2::int = 2, ${removed ? 'now()' : 'null'})`,
        [recordId, position],
      );
    }
  });
  afterAll(async () => t.close());

  const pick = (file: MediaView): MediaView => ({
    id: file.id,
    kind: file.kind,
    width: file.width,
    height: file.height,
    variants: file.variants,
    sha256: file.sha256,
    size: file.size,
    mime: file.mime,
    caption: file.caption,
    graphic: file.graphic,
    status: file.status,
    publicKey: file.publicKey,
    removedAt: file.removedAt,
    recordLive: file.recordLive,
    recordPublic: file.recordPublic,
  });

  it('a record and a list page carry the live files in order, equal to the media rows', async () => {
    const expected = ((await t.app.media.forRecords([recordId])).get(recordId) ?? []).map(pick);
    expect(expected.map((f) => f.caption)).toEqual(['caption 0', 'caption 2']);

    const view = await findRecordView(t.app.db, recordId);
    expect(view?.record.id).toBe(recordId);
    expect(view?.files).toEqual(expected);

    const { rows, total } = await listRecords(t.app.db, { category: 'massacres', includePrivate: false }, { limit: 50, offset: 0, cursor: null });
    expect(total).toBe(1);
    expect(rows[0]?.files).toEqual(expected);
    expect(await findRecordView(t.app.db, '00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('a page past the end still answers the total', async () => {
    const { rows, total } = await listRecords(t.app.db, { category: 'massacres', includePrivate: false }, { limit: 50, offset: 10, cursor: null });
    expect(rows).toEqual([]);
    expect(total).toBe(1);
  });
});
