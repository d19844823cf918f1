CREATE TABLE "media_public_files" (
	"key" text NOT NULL,
	"media_id" uuid NOT NULL,
	CONSTRAINT "media_public_files_key_media_id_pk" PRIMARY KEY("key","media_id")
);
--> statement-breakpoint
ALTER TABLE "media_public_files" ADD CONSTRAINT "media_public_files_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_public_files_media_idx" ON "media_public_files" USING btree ("media_id");--> statement-breakpoint
-- A file's public copies are its public key and every variant's key; rewritten whenever either changes.
CREATE OR REPLACE FUNCTION media_public_files_sync() RETURNS trigger AS $$
BEGIN
  DELETE FROM media_public_files WHERE media_id = NEW.id;
  INSERT INTO media_public_files (key, media_id)
    SELECT DISTINCT k, NEW.id FROM (
      SELECT NEW.public_key AS k
      UNION ALL SELECT v->>'key' FROM jsonb_array_elements(NEW.variants) AS v
    ) AS keys
    WHERE k IS NOT NULL;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER media_public_files_keys AFTER INSERT OR UPDATE OF public_key, variants ON media
  FOR EACH ROW EXECUTE FUNCTION media_public_files_sync();
--> statement-breakpoint
INSERT INTO media_public_files (key, media_id)
  SELECT DISTINCT k, id FROM (
    SELECT id, public_key AS k FROM media
    UNION ALL SELECT m.id, v->>'key' FROM media m CROSS JOIN LATERAL jsonb_array_elements(m.variants) AS v
  ) AS keys
  WHERE k IS NOT NULL;
