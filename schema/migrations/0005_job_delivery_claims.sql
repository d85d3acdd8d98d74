-- Job receipts are keyed on the signed delivery (the QStash JWT's jti) from now on. The old rows are
-- completion receipts keyed on an unsigned header, kept only to answer duplicates: dropped.
DROP TABLE "job_deliveries";--> statement-breakpoint
CREATE TABLE "job_deliveries" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"message_id" text,
	"kind" text NOT NULL,
	"retried" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"failed_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "job_deliveries_claimed_at_idx" ON "job_deliveries" USING btree ("claimed_at");
