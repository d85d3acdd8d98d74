ALTER TABLE "breb_payouts" ADD COLUMN "partner_fee" numeric(78, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "breb_payouts" ADD COLUMN "partner_fee_address" text;--> statement-breakpoint
ALTER TABLE "breb_quotes" ADD COLUMN "partner_fee" numeric(78, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "breb_quotes" ADD COLUMN "partner_fee_bps" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "breb_quotes" ADD COLUMN "partner_fee_address" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "partner_fee_bps" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "partner_fee_address" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_partner_fee_bps_range" CHECK ("organizations"."partner_fee_bps" between 0 and 100);--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_partner_fee_address" CHECK ("organizations"."partner_fee_bps" = 0 or "organizations"."partner_fee_address" is not null);