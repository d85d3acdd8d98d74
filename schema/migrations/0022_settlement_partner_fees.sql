ALTER TABLE "settlement_quotes" ADD COLUMN "partner_fee_bps" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settlement_quotes" ADD COLUMN "partner_fee_usdc" numeric(78, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settlement_quotes" ADD COLUMN "partner_fee_address" text;