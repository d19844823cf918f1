ALTER TABLE "audit_checkpoints" ADD COLUMN "timestamp_failure" text;--> statement-breakpoint
ALTER TABLE "audit_checkpoints" ADD COLUMN "timestamp_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "link_captures" ADD COLUMN "wacz_key" text;--> statement-breakpoint
ALTER TABLE "link_captures" ADD COLUMN "wacz_sha256" text;--> statement-breakpoint
ALTER TABLE "link_captures" ADD COLUMN "wacz_size" bigint;--> statement-breakpoint
ALTER TABLE "link_captures" ADD COLUMN "certificates_key" text;--> statement-breakpoint
ALTER TABLE "link_captures" ADD COLUMN "certificates_sha256" text;--> statement-breakpoint
ALTER TABLE "link_captures" ADD COLUMN "certificates_size" bigint;--> statement-breakpoint
ALTER TABLE "link_captures" ADD COLUMN "timestamped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "link_captures" ADD COLUMN "timestamp_failure" text;