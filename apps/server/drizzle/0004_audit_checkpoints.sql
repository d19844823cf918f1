CREATE TABLE "audit_checkpoints" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"key_id" text NOT NULL,
	"public_key" text NOT NULL,
	"signature" text NOT NULL,
	"timestamp_token" text,
	"timestamped_at" timestamp with time zone
);
