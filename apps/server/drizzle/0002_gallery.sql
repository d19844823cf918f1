CREATE TABLE "gallery_counts" (
	"category" text NOT NULL,
	"visibility" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "gallery_counts_category_visibility_pk" PRIMARY KEY("category","visibility")
);
--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "record_category" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "record_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "record_live" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "record_public" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "media_gallery_idx" ON "media" USING btree ("record_created_at" DESC NULLS LAST,"record_id" DESC NULLS LAST,"position","created_at","id") WHERE "media"."kind" = 'image' and "media"."removed_at" is null and "media"."record_live";--> statement-breakpoint
-- A media row carries the columns of its record that decide whether and where it shows in the gallery. Filled when
-- the row is made, moved to another record, taken off or put back (and when its record is purged: the foreign key
-- sets record_id to null, which is an update of record_id).
CREATE OR REPLACE FUNCTION media_copy_record_columns() RETURNS trigger AS $$
DECLARE
  r records%ROWTYPE;
BEGIN
  SELECT * INTO r FROM records WHERE id = NEW.record_id;
  NEW.record_category := r.category;
  NEW.record_created_at := r.created_at;
  NEW.record_live := FOUND AND r.deleted_at IS NULL;
  NEW.record_public := FOUND AND r.public;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER media_record_columns BEFORE INSERT OR UPDATE OF record_id, removed_at ON media
  FOR EACH ROW EXECUTE FUNCTION media_copy_record_columns();
--> statement-breakpoint
-- A record's category, date, trash state or visibility change is copied to its images in one statement.
CREATE OR REPLACE FUNCTION records_copy_to_media() RETURNS trigger AS $$
BEGIN
  UPDATE media m
    SET record_category = n.category, record_created_at = n.created_at, record_live = n.deleted_at IS NULL, record_public = n.public
    FROM new_rows n
    WHERE m.record_id = n.id AND m.removed_at IS NULL
      AND (m.record_category, m.record_created_at, m.record_live, m.record_public)
        IS DISTINCT FROM (n.category, n.created_at, n.deleted_at IS NULL, n.public);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER records_media_columns AFTER UPDATE ON records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION records_copy_to_media();
--> statement-breakpoint
-- Keeps gallery_counts exact, as record_counts is kept (0001): the rows a statement added and took away.
CREATE OR REPLACE FUNCTION gallery_counts_statement() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO gallery_counts (category, visibility, n)
      SELECT o.record_category, v.visibility, -count(*)
      FROM old_rows o CROSS JOIN (VALUES ('all'), ('public')) AS v(visibility)
      WHERE o.kind = 'image' AND o.removed_at IS NULL AND o.record_live AND (v.visibility = 'all' OR o.record_public)
      GROUP BY o.record_category, v.visibility
      ON CONFLICT (category, visibility) DO UPDATE SET n = gallery_counts.n + EXCLUDED.n;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO gallery_counts (category, visibility, n)
      SELECT m.record_category, v.visibility, count(*)
      FROM new_rows m CROSS JOIN (VALUES ('all'), ('public')) AS v(visibility)
      WHERE m.kind = 'image' AND m.removed_at IS NULL AND m.record_live AND (v.visibility = 'all' OR m.record_public)
      GROUP BY m.record_category, v.visibility
      ON CONFLICT (category, visibility) DO UPDATE SET n = gallery_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER media_gallery_counts_insert AFTER INSERT ON media
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION gallery_counts_statement();
--> statement-breakpoint
CREATE TRIGGER media_gallery_counts_update AFTER UPDATE ON media
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION gallery_counts_statement();
--> statement-breakpoint
CREATE TRIGGER media_gallery_counts_delete AFTER DELETE ON media
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION gallery_counts_statement();
--> statement-breakpoint
-- Existing rows: copy their records' columns, which the update trigger above also counts.
UPDATE media m
  SET record_category = r.category, record_created_at = r.created_at, record_live = r.deleted_at IS NULL, record_public = r.public
  FROM records r
  WHERE m.record_id = r.id;
