-- The search's filters as terms of the full-text index (apps/server/src/modules/search/facet-terms.ts). A search for a
-- common word within one region and one perpetrator was answered by reading every record of the region (62,500 pages at
-- a million records) to test the rest; with the filters in the same GIN index as the words, PostgreSQL intersects the
-- lists of the words and of each filter inside the index and reads only the records that match. The terms hold a
-- character ('=') that the text parser always splits on, so no word a visitor types can be one of them; free-text
-- values (perpetrator, killing type) are hashed, so any value makes one term of fixed length.
-- A generated column's expression cannot be altered on PostgreSQL 15, so the column is made again (its index goes with
-- it). The text part is that of 0007_search.
ALTER TABLE "records" DROP COLUMN "search_vector";
--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple'::regconfig, translate(
    coalesce("title", '') || ' ' || coalesce("full_name", ''),
    '፠፡።፣፤፥፦፧፨', '         ')), 'A') ||
  setweight(to_tsvector('simple'::regconfig, translate(
    coalesce("subtitle", '') || ' ' || coalesce("location", '') || ' ' || coalesce("zone", '') || ' ' ||
    coalesce("woreda", '') || ' ' || coalesce("city", '') || ' ' || coalesce("case_num", ''),
    '፠፡።፣፤፥፦፧፨', '         ')), 'B') ||
  setweight(to_tsvector('simple'::regconfig, translate(
    coalesce("short_description", '') || ' ' || coalesce("remark", '') || ' ' || coalesce("victimizer", '') || ' ' ||
    coalesce("killing_type", '') || ' ' || coalesce("description", ''),
    '፠፡።፣፤፥፦፧፨', '         ')), 'C') ||
  array_to_tsvector(array_remove(ARRAY[
    'category=' || "category",
    'region=' || coalesce("region", 'unknown'),
    'victimizer=' || md5("victimizer"),
    'killingtype=' || md5("killing_type"),
    'confirmed=' || "approved"::text
  ], NULL))
) STORED;
--> statement-breakpoint
CREATE INDEX "records_search_vector_idx" ON "records" USING gin ("search_vector") WHERE "deleted_at" is null;
