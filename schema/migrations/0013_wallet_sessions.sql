CREATE TABLE "wallet_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"user_address" text NOT NULL,
	"nonce" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"challenge_expires_at" timestamp with time zone NOT NULL,
	"token_hash" text,
	"signed_in_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "wallet_sessions" ADD CONSTRAINT "wallet_sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_sessions" ADD CONSTRAINT "wallet_sessions_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_sessions_nonce_idx" ON "wallet_sessions" USING btree ("nonce");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_sessions_token_idx" ON "wallet_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "wallet_sessions_user_idx" ON "wallet_sessions" USING btree ("integration_id","user_address");