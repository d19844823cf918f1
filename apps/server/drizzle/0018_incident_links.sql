ALTER TABLE "records" ADD COLUMN "incident_id" uuid;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "sources" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "geo_precision" text;--> statement-breakpoint
CREATE INDEX "records_incident_idx" ON "records" USING btree ("incident_id","category") WHERE "records"."deleted_at" is null and "records"."incident_id" is not null;