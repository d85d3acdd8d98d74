CREATE TABLE "price_book" (
	"key" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"request" jsonb NOT NULL,
	"answer" jsonb,
	"fetched_at" timestamp with time zone,
	"refreshing_until" timestamp with time zone,
	"demanded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "price_book_demanded_at" ON "price_book" USING btree ("demanded_at");