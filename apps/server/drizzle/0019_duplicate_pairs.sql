CREATE TABLE "duplicate_pairs" (
	"first" uuid NOT NULL,
	"second" uuid NOT NULL,
	"score" integer NOT NULL,
	"name_similarity" integer NOT NULL,
	"reasons" text[] NOT NULL,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "duplicate_pairs_first_second_pk" PRIMARY KEY("first","second")
);
--> statement-breakpoint
CREATE TABLE "duplicate_scan_queue" (
	"record_id" uuid PRIMARY KEY NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "duplicate_pairs_best_idx" ON "duplicate_pairs" USING btree ("score","first","second");--> statement-breakpoint
CREATE INDEX "duplicate_pairs_second_idx" ON "duplicate_pairs" USING btree ("second");--> statement-breakpoint
-- The duplicate check's other ways to a candidate than its name (registry-sql.ts PERSON_REASON_INDEXES).
CREATE INDEX "records_person_woreda_idx" ON "records" USING btree ("category", person_name_key("woreda")) WHERE "deleted_at" is null and "person_name" is not null;
--> statement-breakpoint
CREATE INDEX "records_person_date_idx" ON "records" USING btree ("category", "happened_on") WHERE "deleted_at" is null and "person_name" is not null;
--> statement-breakpoint
-- New names go straight into the trigram index rather than into its pending list, which every check reads in full
-- until a vacuum merges it: at 200,000 people a check read 620 index pages (80 ms) with a full pending list and 94
-- (10 ms) without one. Person records are written by hand, a few at a time; a check is asked at every keystroke pause.
ALTER INDEX "records_person_name_idx" SET (fastupdate = off);
--> statement-breakpoint
SELECT gin_clean_pending_list('records_person_name_idx');
--> statement-breakpoint
-- Queues for the duplicate scan (modules/duplicates/scan.ts) every live person record written, whatever wrote it: a
-- new one, one whose name, category, woreda, date or incident changed, and one taken out of the trash. Statement
-- triggers with transition tables queue a bulk write in one step (a trigger with transition tables has one event).
CREATE OR REPLACE FUNCTION duplicate_scan_inserted() RETURNS trigger AS $$
BEGIN
  INSERT INTO duplicate_scan_queue (record_id)
    SELECT n.id FROM new_rows n WHERE n.person_name IS NOT NULL AND n.deleted_at IS NULL
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION duplicate_scan_updated() RETURNS trigger AS $$
BEGIN
  INSERT INTO duplicate_scan_queue (record_id)
    SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.person_name IS NOT NULL AND n.deleted_at IS NULL
      AND (n.person_name, n.category, n.woreda, n.happened_on, n.incident_id, n.deleted_at)
        IS DISTINCT FROM (o.person_name, o.category, o.woreda, o.happened_on, o.incident_id, o.deleted_at)
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER "records_duplicate_scan_insert" AFTER INSERT ON "records"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION duplicate_scan_inserted();
--> statement-breakpoint
CREATE TRIGGER "records_duplicate_scan_update" AFTER UPDATE ON "records"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION duplicate_scan_updated();
--> statement-breakpoint
-- The records of an existing site are checked once, in the background (the scan of every process).
INSERT INTO duplicate_scan_queue (record_id) SELECT id FROM records WHERE person_name IS NOT NULL AND deleted_at IS NULL;
