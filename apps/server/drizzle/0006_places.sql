ALTER TABLE "records" ADD COLUMN "region" text;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "zone" text;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "woreda" text;--> statement-breakpoint
CREATE INDEX "records_region_idx" ON "records" USING btree ("region") WHERE "records"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "records_zone_idx" ON "records" USING btree ("zone") WHERE "records"."deleted_at" is null and "records"."zone" is not null;--> statement-breakpoint
CREATE INDEX "records_woreda_idx" ON "records" USING btree ("woreda") WHERE "records"."deleted_at" is null and "records"."woreda" is not null;