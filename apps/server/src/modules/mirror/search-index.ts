import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import MiniSearch from 'minisearch';
import { CATEGORIES, type CategorySlug } from '@app/shared';
import type { Db } from '../../db';
import { records } from '../../db/schema';

/**
 * The mirror's search index: MiniSearch (https://lucaong.github.io/minisearch/) over every public record's title,
 * subtitle, place and the start of its description, built here and loaded whole by the mirror's search page. Its
 * default tokeniser splits on Unicode spaces and punctuation, which takes in the Ethiopic word space (U+1361 ፡) and
 * full stop (U+1362 ።): Amharic words are terms as English ones are. The page loads the same options (SEARCH_OPTIONS).
 */
export const SEARCH_OPTIONS = {
  fields: ['title', 'subtitle', 'place', 'text'],
  storeFields: ['title', 'category', 'file'],
} as const;

/** How much of a description is indexed: the words a reader searches for are near its start, and the index stays small. */
const TEXT_CHARACTERS = 600;
const BATCH = 2000;

/** Every public record, in batches by id: never a trashed or private one. */
async function* publicRows(db: Db) {
  let after: string | null = null;
  for (;;) {
    const conditions = [isNull(records.deletedAt), eq(records.public, true)];
    if (after) conditions.push(gt(records.id, after));
    const rows = await db
      .select({
        id: records.id,
        category: records.category,
        title: records.title,
        subtitle: records.subtitle,
        place: sql<string>`concat_ws(' ', ${records.location}, ${records.zone}, ${records.woreda}, ${records.city}, ${records.fullName})`,
        text: sql<string>`left(${records.description}, ${TEXT_CHARACTERS})`,
      })
      .from(records)
      .where(and(...conditions))
      .orderBy(asc(records.id))
      .limit(BATCH);
    if (!rows.length) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
  }
}

/** The index as JSON, and how many records it holds. `fileOf` says where a record's page is in the mirror. */
export async function buildSearchIndex(db: Db, fileOf: (category: CategorySlug, id: string) => string): Promise<{ json: string; count: number }> {
  const index = new MiniSearch({ ...SEARCH_OPTIONS, fields: [...SEARCH_OPTIONS.fields], storeFields: [...SEARCH_OPTIONS.storeFields] });
  let count = 0;
  for await (const rows of publicRows(db)) {
    const known = rows.filter((row) => row.category in CATEGORIES);
    index.addAll(
      known.map((row) => ({
        id: row.id,
        title: row.title,
        subtitle: row.subtitle ?? '',
        place: row.place,
        text: row.text,
        category: CATEGORIES[row.category as CategorySlug].listName,
        file: fileOf(row.category as CategorySlug, row.id),
      })),
    );
    count += known.length;
  }
  return { json: JSON.stringify(index), count };
}
