CREATE TABLE "job_deliveries" (
	"message_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"completed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "job_deliveries_completed_at_idx" ON "job_deliveries" USING btree ("completed_at");