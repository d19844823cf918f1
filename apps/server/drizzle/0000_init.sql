CREATE TABLE "record_counts" (
	"category" text NOT NULL,
	"visibility" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "record_counts_category_visibility_pk" PRIMARY KEY("category","visibility")
);
--> statement-breakpoint
CREATE TABLE "records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category" text NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" uuid,
	"approved" boolean DEFAULT false NOT NULL,
	"approved_by" uuid,
	"approved_at" timestamp with time zone,
	"public" boolean DEFAULT true NOT NULL,
	"graphic" boolean DEFAULT false NOT NULL,
	"sample" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"full_name" text,
	"location" text,
	"victimizer" text,
	"killing_type" text,
	"happened_on" timestamp with time zone,
	"remark" text,
	"quantity" integer,
	"case_num" text,
	"short_description" text,
	"evidence" text,
	"video_url" text,
	"link_url" text,
	"country" text,
	"city" text,
	"street_name" text,
	"start_at" timestamp with time zone,
	"end_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"record_id" uuid,
	"kind" text NOT NULL,
	"role" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"storage_key" text NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"mime" text NOT NULL,
	"original_name" text,
	"width" integer,
	"height" integer,
	"variants" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"public_key" text,
	"restricted" jsonb,
	"caption" text,
	"graphic" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'ready' NOT NULL,
	"status_reason" text,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text DEFAULT 'contributor' NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_id" uuid,
	"actor_role" text,
	"action" text NOT NULL,
	"category" text,
	"record_id" uuid,
	"subject" text,
	"changes" jsonb NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 3 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_at" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_defaults" (
	"country" text PRIMARY KEY NOT NULL,
	"message" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"state" text NOT NULL,
	"representative_id" uuid,
	"representative_name" text DEFAULT '' NOT NULL,
	"country" text NOT NULL,
	"province" text NOT NULL,
	"district" text NOT NULL,
	"authority_email" text NOT NULL,
	"message" text NOT NULL,
	"message_hash" text NOT NULL,
	"email" text,
	"first_name" text,
	"last_name" text,
	"city" text,
	"street_name" text,
	"zipcode" text,
	"ip_hash" text,
	"confirm_token_hash" text,
	"failed_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"scrubbed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "representatives" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"country" text NOT NULL,
	"province" text NOT NULL,
	"district" text NOT NULL,
	"name" text NOT NULL,
	"party" text,
	"email" text,
	"unreachable" boolean DEFAULT false NOT NULL,
	"note" text,
	"corrected_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_messages" ADD CONSTRAINT "campaign_messages_representative_id_representatives_id_fk" FOREIGN KEY ("representative_id") REFERENCES "public"."representatives"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "records_category_list_idx" ON "records" USING btree ("category","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "records"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "records_category_public_list_idx" ON "records" USING btree ("category","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "records"."deleted_at" is null and "records"."public";--> statement-breakpoint
CREATE INDEX "records_news_idx" ON "records" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "records"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "records_user_idx" ON "records" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "records_trash_idx" ON "records" USING btree ("deleted_at" DESC NULLS LAST) WHERE "records"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "media_record_idx" ON "media" USING btree ("record_id","position") WHERE "media"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "media_sha256_idx" ON "media" USING btree ("sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "tokens_hash_idx" ON "tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "tokens_user_idx" ON "tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_idx" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role");--> statement-breakpoint
CREATE INDEX "audit_record_idx" ON "audit_log" USING btree ("record_id","seq");--> statement-breakpoint
CREATE INDEX "audit_actor_idx" ON "audit_log" USING btree ("actor_id","seq");--> statement-breakpoint
CREATE INDEX "jobs_ready_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "campaign_state_idx" ON "campaign_messages" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "campaign_sent_idx" ON "campaign_messages" USING btree ("sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_token_idx" ON "campaign_messages" USING btree ("confirm_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "representatives_district_idx" ON "representatives" USING btree ("country","province","district");