CREATE INDEX "breb_payout_events_at_idx" ON "breb_payout_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "settlement_events_at_idx" ON "settlement_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "swap_intents_organization_confirmed_idx" ON "swap_intents" USING btree ("organization_id","confirmed_at") WHERE "swap_intents"."status" = 'confirmed';