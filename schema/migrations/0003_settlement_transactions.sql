CREATE TABLE "settlement_transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"purpose" text NOT NULL,
	"chain_id" integer NOT NULL,
	"from_address" text NOT NULL,
	"nonce" integer NOT NULL,
	"hash" text NOT NULL,
	"raw" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "settlement_transactions" ADD CONSTRAINT "settlement_transactions_order_id_settlement_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."settlement_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_transactions_purpose_idx" ON "settlement_transactions" USING btree ("order_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_transactions_nonce_idx" ON "settlement_transactions" USING btree ("chain_id","from_address","nonce");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_transactions_hash_idx" ON "settlement_transactions" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "settlement_transactions_order_idx" ON "settlement_transactions" USING btree ("order_id");