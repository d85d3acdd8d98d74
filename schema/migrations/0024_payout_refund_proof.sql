CREATE TABLE "breb_fee_returns" (
	"id" text PRIMARY KEY NOT NULL,
	"payout_id" text NOT NULL,
	"chain_id" integer NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"token_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"nonce" integer NOT NULL,
	"hash" text NOT NULL,
	"raw" text NOT NULL,
	"status" text NOT NULL,
	"log_index" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "breb_payouts" ADD COLUMN "refund_log_index" integer;--> statement-breakpoint
ALTER TABLE "breb_payouts" ADD COLUMN "refund_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "breb_payouts" ADD COLUMN "fee_return_tx_hash" text;--> statement-breakpoint
ALTER TABLE "breb_fee_returns" ADD CONSTRAINT "breb_fee_returns_payout_id_breb_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."breb_payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "breb_fee_returns_live_idx" ON "breb_fee_returns" USING btree ("payout_id") WHERE "breb_fee_returns"."status" in ('signed', 'sent', 'success');--> statement-breakpoint
CREATE UNIQUE INDEX "breb_fee_returns_hash_idx" ON "breb_fee_returns" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "breb_fee_returns_account_idx" ON "breb_fee_returns" USING btree ("chain_id","from_address","status");--> statement-breakpoint
CREATE UNIQUE INDEX "breb_payouts_refund_transfer_idx" ON "breb_payouts" USING btree ("refund_tx_hash","refund_log_index") WHERE "breb_payouts"."refund_tx_hash" is not null;--> statement-breakpoint
CREATE INDEX "breb_payouts_fee_return_tx_hash_idx" ON "breb_payouts" USING btree ("fee_return_tx_hash") WHERE "breb_payouts"."fee_return_tx_hash" is not null;