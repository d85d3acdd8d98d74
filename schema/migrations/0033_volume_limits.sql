ALTER TABLE "breb_payouts" ADD COLUMN "usd_value" numeric(78, 0);--> statement-breakpoint
-- Payouts made before: their pesos at their quote's COP per USD, in USDC atomic units, rounded up.
UPDATE "breb_payouts" AS p SET "usd_value" = ceil(p."destination_cop" * 1000000 / q."cop_per_usd"::numeric) FROM "breb_quotes" AS q WHERE q."id" = p."quote_id";--> statement-breakpoint
ALTER TABLE "breb_payouts" ALTER COLUMN "usd_value" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "per_user_daily_limit_usd" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "per_user_monthly_limit_usd" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "organization_daily_limit_usd" numeric(78, 0);--> statement-breakpoint
CREATE INDEX "breb_payouts_user_volume_idx" ON "breb_payouts" USING btree ("organization_id",lower("user_address"),"created_at");--> statement-breakpoint
CREATE INDEX "settlement_quotes_source_address_idx" ON "settlement_quotes" USING btree ("organization_id",lower("source_address"));