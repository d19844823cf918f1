CREATE TABLE "known_mirrors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"fingerprint" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "intake_key_wraps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_id" uuid NOT NULL,
	"user_id" uuid,
	"salt" "bytea" NOT NULL,
	"ops_limit" integer NOT NULL,
	"mem_limit" integer NOT NULL,
	"wrapped" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "intake_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"public_key" "bytea" NOT NULL,
	"current" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "testimonies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_id" uuid NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"unverified" boolean DEFAULT false NOT NULL,
	"sealed_key" "bytea" NOT NULL,
	"envelope" "bytea" NOT NULL,
	"receipt_bucket" integer NOT NULL,
	"receipt_salt" "bytea" NOT NULL,
	"witness_secret" "bytea" NOT NULL,
	"witness_public_key" "bytea" NOT NULL,
	"sealed_bytes" bigint DEFAULT 0 NOT NULL,
	"record_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "testimony_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"testimony_id" uuid NOT NULL,
	"storage_key" text NOT NULL,
	"sealed_key" "bytea" NOT NULL,
	"meta" "bytea" NOT NULL,
	"sealed_bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "testimony_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"testimony_id" uuid NOT NULL,
	"author" text NOT NULL,
	"for_witness" "bytea",
	"for_reviewers" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_mappings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"category" text NOT NULL,
	"name" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_problems" (
	"import_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"row" integer NOT NULL,
	"kind" text NOT NULL,
	"field" text NOT NULL,
	"message" text NOT NULL,
	"matches" jsonb
);
--> statement-breakpoint
CREATE TABLE "import_rows" (
	"import_id" uuid NOT NULL,
	"row" integer NOT NULL,
	"category" text NOT NULL,
	"fingerprint" text NOT NULL,
	"record_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"source_key" text
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"category" text NOT NULL,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"decisions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'checked' NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"valid" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"already_imported" integer DEFAULT 0 NOT NULL,
	"job_id" uuid,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"address_prefix" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"enrol_only" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signin_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "access_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" uuid,
	"record_id" uuid NOT NULL,
	"category" text NOT NULL,
	"kind" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "reviewer" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "organisation" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "invited_by" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "decided_by" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_last_step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "intake_key_wraps" ADD CONSTRAINT "intake_key_wraps_key_id_intake_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."intake_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_key_wraps" ADD CONSTRAINT "intake_key_wraps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimonies" ADD CONSTRAINT "testimonies_key_id_intake_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."intake_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimony_files" ADD CONSTRAINT "testimony_files_testimony_id_testimonies_id_fk" FOREIGN KEY ("testimony_id") REFERENCES "public"."testimonies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimony_messages" ADD CONSTRAINT "testimony_messages_testimony_id_testimonies_id_fk" FOREIGN KEY ("testimony_id") REFERENCES "public"."testimonies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signin_challenges" ADD CONSTRAINT "signin_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "intake_key_wraps_user_idx" ON "intake_key_wraps" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "testimonies_bucket_idx" ON "testimonies" USING btree ("receipt_bucket");--> statement-breakpoint
CREATE INDEX "testimonies_status_idx" ON "testimonies" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "testimony_files_testimony_idx" ON "testimony_files" USING btree ("testimony_id");--> statement-breakpoint
CREATE INDEX "testimony_messages_testimony_idx" ON "testimony_messages" USING btree ("testimony_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "import_mappings_name_idx" ON "import_mappings" USING btree ("owner_id","category","name");--> statement-breakpoint
CREATE UNIQUE INDEX "import_problems_pk" ON "import_problems" USING btree ("import_id","seq");--> statement-breakpoint
CREATE INDEX "import_problems_row_idx" ON "import_problems" USING btree ("import_id","kind","row");--> statement-breakpoint
CREATE UNIQUE INDEX "import_rows_pk" ON "import_rows" USING btree ("import_id","row");--> statement-breakpoint
CREATE INDEX "import_rows_fingerprint_idx" ON "import_rows" USING btree ("category","fingerprint");--> statement-breakpoint
CREATE INDEX "import_rows_source_key_idx" ON "import_rows" USING btree ("source_key") WHERE "import_rows"."source_key" is not null;--> statement-breakpoint
CREATE INDEX "import_rows_record_idx" ON "import_rows" USING btree ("record_id");--> statement-breakpoint
CREATE INDEX "imports_owner_idx" ON "imports" USING btree ("owner_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "recovery_codes_user_idx" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "access_log_at_idx" ON "access_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "access_log_user_idx" ON "access_log" USING btree ("user_id","at");--> statement-breakpoint
-- hand-written below
-- Existing contributors stay approved (their role is unchanged). Accounts that signed up but never activated have
-- not been trusted by anyone yet: they become pending, like every sign-up from now on.
UPDATE "users" SET "role" = 'pending'
WHERE "role" = 'contributor' AND "active" = false
  AND NOT EXISTS (SELECT 1 FROM "tokens" t WHERE t."user_id" = "users"."id" AND t."purpose" = 'activation' AND t."used_at" IS NOT NULL);
