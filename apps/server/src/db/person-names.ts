import anyAscii from 'any-ascii';
import { CATEGORY_LIST } from '@app/shared';

/**
 * The key that person records are compared by when duplicates are looked for: the name in Latin letters, so that a
 * name written in the Ge'ez script and the same name spelt in Latin letters can match ("ተስፋዬ" and "Tesfaye" both
 * become "tesfaye"). Ge'ez syllables are transliterated as AnyAscii does (the library `any-ascii`, which follows the
 * usual Amharic-English spellings: ጌታቸው -> getachew, ዓለሙ -> alemu); its table for the Ethiopic blocks is written
 * into the SQL function `person_name_key` by registry-sql.ts, so records are keyed in the database (a generated
 * column, whatever wrote the row) and a name asked about is keyed by the same function.
 *
 * Then the spellings that differ most between writers are made alike: lower case, q as k (ቀ is written k or q), the
 * ejective marks and ayn dropped (k', `a), anything but letters as one space, and doubled letters as one (gemination
 * is seldom written in Ge'ez and often in Latin: Abbebe, Abebe).
 */

/** The Ethiopic block and the Ethiopic Supplement (U+1200-U+139F): the letters the table holds. */
export const ETHIOPIC_RANGE_SQL = '[\u1200-\u139f]';

/** Each Ethiopic letter with its Latin spelling (AnyAscii's). */
export function ethiopicToLatin(): Record<string, string> {
  const table: Record<string, string> = {};
  for (let cp = 0x1200; cp <= 0x139f; cp++) {
    const letter = String.fromCodePoint(cp);
    if (/\p{L}/u.test(letter)) table[letter] = anyAscii(letter).toLowerCase();
  }
  return table;
}

/** `person_name_key(name)` in SQL, IMMUTABLE so that a generated column and its index can use it. */
export function personNameKeySql(): string {
  const table = JSON.stringify(ethiopicToLatin()).replace(/'/g, "''");
  return `CREATE OR REPLACE FUNCTION person_name_key(name text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT trim(regexp_replace(regexp_replace(translate(lower(
    CASE WHEN name ~ '${ETHIOPIC_RANGE_SQL}' THEN
      (SELECT string_agg(coalesce('${table}'::jsonb ->> c, c), '' ORDER BY i) FROM regexp_split_to_table(name, '') WITH ORDINALITY AS t(c, i))
    ELSE name END
  ), 'q''\`', 'k'), '[^a-z]+', ' ', 'g'), '([a-z])\\1+', '\\1', 'g'))
$$;`;
}

/**
 * The duplicate check's other ways to a candidate than its name (modules/duplicates/check.ts): the same woreda (by its
 * Latin key) and a date within a few days, among person records. Their conditions name person_name, so they go when
 * it is made again, and are made again after it (migration 0019 made the first ones).
 */
export const PERSON_REASON_INDEXES = [
  'CREATE INDEX "records_person_woreda_idx" ON "records" USING btree ("category", person_name_key("woreda")) WHERE "deleted_at" is null and "person_name" is not null;',
  // With the name, public flag and id: the date read tests a week's names without reading the table (migration 0022).
  'CREATE INDEX "records_person_date_idx" ON "records" USING btree ("category", "happened_on") INCLUDE ("person_name", "public", "id") WHERE "deleted_at" is null and "person_name" is not null;',
];

/**
 * The trigram indexes of person_name, one per category that checks duplicates: a check asks within one category, and
 * an index of all three read and rechecked every category's names sharing the trigrams (migration 0023 halved the
 * check's work at 1M). fastupdate off: see migration 0019 (the pending list of new names is read by every check until a
 * vacuum).
 */
export function personNameIndexes(): string[] {
  return CATEGORY_LIST.filter((c) => c.checksDuplicates).map(
    (c) =>
      `CREATE INDEX "records_person_name_${c.slug}_idx" ON "records" USING gin ("person_name" gin_trgm_ops) WITH (fastupdate = off) WHERE "deleted_at" is null and "person_name" is not null and "category" = '${c.slug}';`,
  );
}
