CREATE TABLE "settlement_events" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"funds_status" text NOT NULL,
	"chain_id" text,
	"tx_hash" text,
	"detail" jsonb,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlement_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"quote_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"reference" text,
	"status" text NOT NULL,
	"health" text NOT NULL,
	"funds_status" text NOT NULL,
	"execution" jsonb NOT NULL,
	"creation_response" text NOT NULL,
	"burn_tx_hash" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlement_quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"source_address" text NOT NULL,
	"destination_address" text NOT NULL,
	"send_amount_usdc" numeric(78, 0) NOT NULL,
	"fast_transfer_fee_usdc" numeric(78, 0) NOT NULL,
	"forwarding_fee_usdc" numeric(78, 0) NOT NULL,
	"transfer_upfront_fee_usdc" numeric(78, 0) NOT NULL,
	"total_debit_usdc" numeric(78, 0) NOT NULL,
	"service_fee_bps" integer NOT NULL,
	"service_fee_usdc" numeric(78, 0) NOT NULL,
	"route_input_usdc" numeric(78, 0) NOT NULL,
	"expected_usdm" numeric(78, 0) NOT NULL,
	"expected_copm" numeric(78, 0) NOT NULL,
	"cop_amount_min" numeric(78, 0) NOT NULL,
	"legs" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "settlement_events" ADD CONSTRAINT "settlement_events_order_id_settlement_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."settlement_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_orders" ADD CONSTRAINT "settlement_orders_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_orders" ADD CONSTRAINT "settlement_orders_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_orders" ADD CONSTRAINT "settlement_orders_quote_id_settlement_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."settlement_quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_quotes" ADD CONSTRAINT "settlement_quotes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_quotes" ADD CONSTRAINT "settlement_quotes_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "settlement_events_order_id_idx" ON "settlement_events" USING btree ("order_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_orders_quote_id_idx" ON "settlement_orders" USING btree ("quote_id");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_orders_idempotency_idx" ON "settlement_orders" USING btree ("organization_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_orders_burn_tx_hash_idx" ON "settlement_orders" USING btree ("burn_tx_hash");--> statement-breakpoint
CREATE INDEX "settlement_orders_organization_id_idx" ON "settlement_orders" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "settlement_quotes_organization_id_idx" ON "settlement_quotes" USING btree ("organization_id");