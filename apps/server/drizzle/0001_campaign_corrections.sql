ALTER TABLE "campaign_messages" ADD COLUMN "representative_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "representatives" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "representatives" ADD COLUMN "corrected_at" timestamp with time zone;