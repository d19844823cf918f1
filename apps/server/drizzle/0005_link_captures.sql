CREATE TABLE "link_captures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"record_id" uuid,
	"field" text NOT NULL,
	"url" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"requested_by" uuid,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"captured_at" timestamp with time zone,
	"final_url" text,
	"http_status" integer,
	"page_title" text,
	"snapshot_key" text,
	"snapshot_sha256" text,
	"snapshot_size" bigint,
	"screenshot_key" text,
	"screenshot_sha256" text,
	"screenshot_size" bigint,
	"headers_key" text,
	"headers_sha256" text,
	"headers_size" bigint
);
--> statement-breakpoint
CREATE TABLE "record_capture_settings" (
	"record_id" uuid PRIMARY KEY NOT NULL,
	"public_download" boolean DEFAULT false NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "link_captures" ADD CONSTRAINT "link_captures_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_capture_settings" ADD CONSTRAINT "record_capture_settings_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_captures_record_idx" ON "link_captures" USING btree ("record_id","requested_at" DESC NULLS LAST);