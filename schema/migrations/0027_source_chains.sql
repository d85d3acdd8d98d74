ALTER TABLE "organizations" ADD COLUMN "default_source_chain_id" integer;--> statement-breakpoint
ALTER TABLE "settlement_quotes" ADD COLUMN "source_chain_id" integer;