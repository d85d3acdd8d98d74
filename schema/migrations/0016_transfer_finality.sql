-- Quotes made before this were Fast burns with no fee buffer: they keep that meaning. New quotes
-- always name their finality and buffer, so the defaults go once the rows are filled.
ALTER TABLE "organizations" ADD COLUMN "fast_transfer" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settlement_quotes" ADD COLUMN "finality_threshold" integer NOT NULL DEFAULT 1000;--> statement-breakpoint
ALTER TABLE "settlement_quotes" ALTER COLUMN "finality_threshold" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "settlement_quotes" ADD COLUMN "fee_buffer_usdc" numeric(78, 0) NOT NULL DEFAULT 0;--> statement-breakpoint
ALTER TABLE "settlement_quotes" ALTER COLUMN "fee_buffer_usdc" DROP DEFAULT;
