ALTER TABLE "settlement_mints" ADD COLUMN "recipient" text;--> statement-breakpoint
ALTER TABLE "settlement_orders" ADD COLUMN "settlement_account" text;