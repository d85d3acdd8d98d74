CREATE TABLE "settlement_mint_scans" (
	"chain_id" integer PRIMARY KEY NOT NULL,
	"next_block" numeric(78, 0) NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlement_mints" (
	"id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"nonce" text NOT NULL,
	"source_domain" integer NOT NULL,
	"depositor" text NOT NULL,
	"hook_data" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"fee_collected" numeric(78, 0) NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" numeric(78, 0) NOT NULL,
	"minted_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"return_reason" text,
	"return_requested_at" timestamp with time zone,
	"return_burn_tx_hash" text,
	"return_amount" numeric(78, 0),
	"return_max_fee" numeric(78, 0),
	"return_burned_at" timestamp with time zone,
	"return_mint_tx_hash" text,
	"returned_amount" numeric(78, 0),
	"return_fee_collected" numeric(78, 0),
	"attention" text,
	"found_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "settlement_orders" ADD COLUMN "commitment" text;--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_mints_nonce_idx" ON "settlement_mints" USING btree ("chain_id","nonce");--> statement-breakpoint
CREATE INDEX "settlement_mints_status_idx" ON "settlement_mints" USING btree ("status","found_at");--> statement-breakpoint
CREATE INDEX "settlement_events_attested_nonce_idx" ON "settlement_events" USING btree (lower("detail"->>'eventNonce')) WHERE "settlement_events"."kind" = 'ATTESTED';--> statement-breakpoint
CREATE INDEX "settlement_orders_commitment_idx" ON "settlement_orders" USING btree ("commitment");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_transactions_live_unowned_purpose_idx" ON "settlement_transactions" USING btree ("purpose") WHERE order_id is null and purpose <> 'allowance' and status not in ('replaced', 'dropped', 'orphaned');