import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { CATEGORY_LIST } from '@app/shared';
import type { Db, Executor } from '../../db';
import { galleryCounts, media, records } from '../../db/schema';
import type { Page } from './paging';

const GALLERY_CATEGORIES = CATEGORY_LIST.filter((c) => c.inGallery).map((c) => c.slug);

/**
 * Live images of live records in gallery categories: newest record first, then the record's own image order. The
 * conditions and the order read only media's copies of its record's columns (kept by triggers, 0002_gallery.sql), so a
 * page walks media_gallery_idx and stops after `limit` rows, however many records there are.
 */
function galleryConditions(includePrivate: boolean): SQL[] {
  const conditions: SQL[] = [
    sql`${media.kind} = 'image'`,
    isNull(media.removedAt),
    sql`${media.recordLive}`,
    inArray(media.recordCategory, GALLERY_CATEGORIES),
  ];
  if (!includePrivate) conditions.push(sql`${media.recordPublic}`);
  return conditions;
}

const galleryOrder = [
  sql`${media.recordCreatedAt} desc nulls last`,
  sql`${media.recordId} desc nulls last`,
  asc(media.position),
  asc(media.createdAt),
  // Files added in one statement share created_at: the id makes the order total, so pages never overlap.
  asc(media.id),
];

const galleryColumns = { media, record: { id: records.id, category: records.category, title: records.title } };

/** One gallery page (exported so the index test can EXPLAIN exactly what the API runs). */
export function galleryQuery(db: Executor, includePrivate: boolean, page: Page) {
  return db
    .select(galleryColumns)
    .from(media)
    .innerJoin(records, eq(records.id, media.recordId))
    .where(and(...galleryConditions(includePrivate)))
    .orderBy(...galleryOrder)
    .limit(page.limit)
    .offset(page.offset);
}

/** The gallery total from the trigger-maintained gallery_counts: a sum of at most a few rows. */
export async function countGallery(db: Executor, includePrivate: boolean): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${galleryCounts.n}), 0)` })
    .from(galleryCounts)
    .where(and(eq(galleryCounts.visibility, includePrivate ? 'all' : 'public'), inArray(galleryCounts.category, GALLERY_CATEGORIES)));
  return Number(row?.n ?? 0);
}

export async function listGallery(db: Db, includePrivate: boolean, page: Page) {
  const [rows, total] = await Promise.all([galleryQuery(db, includePrivate, page), countGallery(db, includePrivate)]);
  return { rows, total };
}

export async function findGalleryImage(db: Db, mediaId: string, includePrivate: boolean) {
  const [row] = await db
    .select(galleryColumns)
    .from(media)
    .innerJoin(records, eq(records.id, media.recordId))
    .where(and(eq(media.id, mediaId), ...galleryConditions(includePrivate)))
    .limit(1);
  return row ?? null;
}
