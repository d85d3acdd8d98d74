CREATE TABLE "breb_otps" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"email" text NOT NULL,
	"user_address" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone,
	"superseded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "kyc_records" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"user_address" text NOT NULL,
	"email" text NOT NULL,
	"email_verified_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"provider_customer_id" text,
	"kyc_link" text,
	"terms_link" text,
	"provider_updated_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "webhook_deliveries_pending_idx";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "sequence" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "webhook_deliveries_sequence_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_secrets" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "next_wake_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "breb_otps" ADD CONSTRAINT "breb_otps_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "breb_otps" ADD CONSTRAINT "breb_otps_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_records" ADD CONSTRAINT "kyc_records_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_records" ADD CONSTRAINT "kyc_records_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "breb_otps_integration_email_idx" ON "breb_otps" USING btree ("integration_id","email","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_records_integration_user_idx" ON "kyc_records" USING btree ("integration_id","user_address");--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_records_provider_customer_idx" ON "kyc_records" USING btree ("provider_customer_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries" USING btree ("endpoint_id","sequence") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "webhook_endpoints" DROP COLUMN "previous_secret_ciphertext";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" DROP COLUMN "previous_secret_until";