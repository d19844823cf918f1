-- Full-text and name search over every category (apps/server/src/modules/search). The columns are generated, so they
-- can never disagree with the record, and are left out of the Drizzle schema so that no read of a record carries them.
-- The 'simple' configuration lower-cases and splits words without stemming: Amharic (Ge'ez script) words match as
-- written, and no English stemmer mangles them. Ge'ez punctuation (word space, full stop, commas, colons) is turned into
-- spaces first: the parser would otherwise read it as part of the word.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
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
    '፠፡።፣፤፥፦፧፨', '         ')), 'C')
) STORED;
--> statement-breakpoint
-- Names and titles, for trigram similarity: a name misspelt by a letter still finds its record.
ALTER TABLE "records" ADD COLUMN "search_names" text GENERATED ALWAYS AS (
  coalesce("title", '') || ' ' || coalesce("full_name", '')
) STORED;
--> statement-breakpoint
-- When it happened: the incident date, or an event's start. Date filters and the year facet read it.
ALTER TABLE "records" ADD COLUMN "search_date" timestamp with time zone GENERATED ALWAYS AS (
  coalesce("happened_on", "start_at")
) STORED;
--> statement-breakpoint
CREATE INDEX "records_search_vector_idx" ON "records" USING gin ("search_vector") WHERE "deleted_at" is null;
--> statement-breakpoint
CREATE INDEX "records_search_names_idx" ON "records" USING gin ("search_names" gin_trgm_ops) WHERE "deleted_at" is null;
--> statement-breakpoint
CREATE INDEX "records_search_date_idx" ON "records" USING btree ("search_date") WHERE "deleted_at" is null;
