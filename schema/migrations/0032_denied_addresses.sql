CREATE TABLE "denied_addresses" (
	"id" text PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"reason" text NOT NULL,
	"added_by" text NOT NULL,
	"added_from_ip" text,
	"added_at" timestamp with time zone NOT NULL,
	"removed_at" timestamp with time zone,
	"removed_by" text,
	"removed_from_ip" text,
	"removal_reason" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "denied_addresses_active_idx" ON "denied_addresses" USING btree ("address") WHERE "denied_addresses"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "denied_addresses_added_idx" ON "denied_addresses" USING btree ("added_at","id");