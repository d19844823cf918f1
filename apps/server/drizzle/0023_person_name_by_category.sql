-- The duplicate check asks within one category: a trigram index per category that checks duplicates instead of one
-- of all three, whose every hit of another category was read and rechecked (registry-sql.ts personNameIndexes).
DROP INDEX IF EXISTS "records_person_name_idx";--> statement-breakpoint
CREATE INDEX "records_person_name_victims_idx" ON "records" USING gin ("person_name" gin_trgm_ops) WITH (fastupdate = off) WHERE "deleted_at" is null and "person_name" is not null and "category" = 'victims';--> statement-breakpoint
CREATE INDEX "records_person_name_orphans_idx" ON "records" USING gin ("person_name" gin_trgm_ops) WITH (fastupdate = off) WHERE "deleted_at" is null and "person_name" is not null and "category" = 'orphans';--> statement-breakpoint
CREATE INDEX "records_person_name_missings_idx" ON "records" USING gin ("person_name" gin_trgm_ops) WITH (fastupdate = off) WHERE "deleted_at" is null and "person_name" is not null and "category" = 'missings';
