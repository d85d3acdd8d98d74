CREATE TABLE "reconciliation_discrepancies" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"record_type" text NOT NULL,
	"record_id" text NOT NULL,
	"leg" text NOT NULL,
	"chain_id" integer NOT NULL,
	"tx_hash" text,
	"problem" text NOT NULL,
	"token" text,
	"recorded" text,
	"found_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reconciliation_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"covers_from" timestamp with time zone NOT NULL,
	"covers_to" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"cursor" jsonb NOT NULL,
	"records_checked" integer DEFAULT 0 NOT NULL,
	"discrepancies_found" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "reconciliation_discrepancies" ADD CONSTRAINT "reconciliation_discrepancies_run_id_reconciliation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."reconciliation_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_discrepancies" ADD CONSTRAINT "reconciliation_discrepancies_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconciliation_discrepancies_open_idx" ON "reconciliation_discrepancies" USING btree ("organization_id","found_at") WHERE "reconciliation_discrepancies"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "reconciliation_discrepancies_record_idx" ON "reconciliation_discrepancies" USING btree ("record_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_runs_one_open_idx" ON "reconciliation_runs" USING btree ("status") WHERE "reconciliation_runs"."status" = 'open';--> statement-breakpoint
CREATE INDEX "reconciliation_runs_started_idx" ON "reconciliation_runs" USING btree ("started_at");