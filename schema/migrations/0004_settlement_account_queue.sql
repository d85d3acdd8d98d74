CREATE TABLE "settlement_account_locks" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	CONSTRAINT "settlement_account_locks_chain_id_address_pk" PRIMARY KEY("chain_id","address")
);
--> statement-breakpoint
DROP INDEX "settlement_transactions_purpose_idx";--> statement-breakpoint
DROP INDEX "settlement_transactions_nonce_idx";--> statement-breakpoint
DROP INDEX "settlement_transactions_hash_idx";--> statement-breakpoint
ALTER TABLE "settlement_transactions" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "settlement_transactions" ADD COLUMN "request" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_transactions_live_purpose_idx" ON "settlement_transactions" USING btree ("order_id","purpose") WHERE status not in ('replaced', 'dropped', 'orphaned');--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_transactions_live_nonce_idx" ON "settlement_transactions" USING btree ("chain_id","from_address","nonce") WHERE status not in ('replaced', 'dropped', 'orphaned');--> statement-breakpoint
CREATE INDEX "settlement_transactions_account_idx" ON "settlement_transactions" USING btree ("chain_id","from_address","status");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_transactions_hash_idx" ON "settlement_transactions" USING btree ("hash") WHERE status <> 'orphaned';
