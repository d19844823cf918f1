CREATE TABLE "record_stats" (
	"category" text NOT NULL,
	"visibility" text NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"month" text DEFAULT '' NOT NULL,
	"victimizer" text DEFAULT '' NOT NULL,
	"killing_type" text DEFAULT '' NOT NULL,
	"confirmed" boolean NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	"quantity" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "record_stats_pk" PRIMARY KEY("category","visibility","region","month","victimizer","killing_type","confirmed")
);
