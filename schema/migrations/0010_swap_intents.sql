CREATE TABLE "swap_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"wallet" text NOT NULL,
	"token_in" text NOT NULL,
	"token_out" text NOT NULL,
	"amount_in" numeric(78, 0) NOT NULL,
	"expected_amount_out" numeric(78, 0) NOT NULL,
	"min_amount_out" numeric(78, 0) NOT NULL,
	"slippage_bps" integer NOT NULL,
	"path" jsonb NOT NULL,
	"chain_id" integer NOT NULL,
	"target" text NOT NULL,
	"calldata" text NOT NULL,
	"status" text NOT NULL,
	"tx_hash" text,
	"amount_in_swapped" numeric(78, 0),
	"amount_out_received" numeric(78, 0),
	"block_number" numeric(78, 0),
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "swap_intents" ADD CONSTRAINT "swap_intents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_intents" ADD CONSTRAINT "swap_intents_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "swap_intents_tx_hash_idx" ON "swap_intents" USING btree ("tx_hash") WHERE "swap_intents"."tx_hash" is not null;--> statement-breakpoint
CREATE INDEX "swap_intents_confirmed_idx" ON "swap_intents" USING btree ("integration_id","confirmed_at","id") WHERE "swap_intents"."status" = 'confirmed';