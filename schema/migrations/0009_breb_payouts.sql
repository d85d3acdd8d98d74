CREATE TABLE "breb_payout_events" (
	"id" text PRIMARY KEY NOT NULL,
	"payout_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"detail" text,
	"tx_hash" text
);
--> statement-breakpoint
CREATE TABLE "breb_payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"quote_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"creation_response" text NOT NULL,
	"user_address" text NOT NULL,
	"breb_key" text NOT NULL,
	"breb_key_type" text NOT NULL,
	"account_owner_name" text NOT NULL,
	"token" text NOT NULL,
	"chain_id" integer NOT NULL,
	"token_address" text NOT NULL,
	"destination_cop" numeric(78, 0) NOT NULL,
	"provider_amount" numeric(78, 0) NOT NULL,
	"service_fee" numeric(78, 0) NOT NULL,
	"source_amount" numeric(78, 0) NOT NULL,
	"deposit_address" text NOT NULL,
	"fee_wallet" text NOT NULL,
	"depositor" text NOT NULL,
	"payout_ref" text NOT NULL,
	"status" text NOT NULL,
	"deposit_deadline" timestamp with time zone NOT NULL,
	"deposit_tx_hash" text,
	"provider_payout_id" text,
	"breb_transaction_id" text,
	"refund_tx_hash" text,
	"failure_reason" text,
	"provider_updated_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "breb_quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"token" text NOT NULL,
	"destination_cop" numeric(78, 0) NOT NULL,
	"cop_per_unit" text NOT NULL,
	"cop_per_usd" text NOT NULL,
	"provider_amount" numeric(78, 0) NOT NULL,
	"provider_developer_fee" numeric(78, 0) NOT NULL,
	"service_fee" numeric(78, 0) NOT NULL,
	"source_amount" numeric(78, 0) NOT NULL,
	"service_fee_bps" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "breb_rates" (
	"provider" text NOT NULL,
	"token" text NOT NULL,
	"cop_per_unit" text NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "breb_rates_provider_token_pk" PRIMARY KEY("provider","token")
);
--> statement-breakpoint
ALTER TABLE "breb_payout_events" ADD CONSTRAINT "breb_payout_events_payout_id_breb_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."breb_payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "breb_payouts" ADD CONSTRAINT "breb_payouts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "breb_payouts" ADD CONSTRAINT "breb_payouts_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "breb_payouts" ADD CONSTRAINT "breb_payouts_quote_id_breb_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."breb_quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "breb_quotes" ADD CONSTRAINT "breb_quotes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "breb_quotes" ADD CONSTRAINT "breb_quotes_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "breb_payout_events_payout_idx" ON "breb_payout_events" USING btree ("payout_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "breb_payouts_quote_idx" ON "breb_payouts" USING btree ("quote_id");--> statement-breakpoint
CREATE UNIQUE INDEX "breb_payouts_idempotency_idx" ON "breb_payouts" USING btree ("organization_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "breb_payouts_deposit_tx_idx" ON "breb_payouts" USING btree ("deposit_tx_hash") WHERE "breb_payouts"."deposit_tx_hash" is not null;--> statement-breakpoint
CREATE INDEX "breb_payouts_integration_idx" ON "breb_payouts" USING btree ("integration_id","id");--> statement-breakpoint
CREATE INDEX "breb_payouts_in_flight_idx" ON "breb_payouts" USING btree ("status","updated_at") WHERE "breb_payouts"."status" in ('awaiting_deposit', 'deposit_confirmed', 'processing', 'failed');