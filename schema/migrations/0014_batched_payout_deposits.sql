DROP INDEX "breb_payouts_deposit_tx_idx";--> statement-breakpoint
ALTER TABLE "breb_payouts" ADD COLUMN "deposit_log_index" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "breb_payouts_deposit_idx" ON "breb_payouts" USING btree ("deposit_tx_hash","deposit_log_index") WHERE "breb_payouts"."deposit_tx_hash" is not null;