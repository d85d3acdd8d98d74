-- Each order's summary's fixed fields, written with the order from now on (lib/settlement/views/order-summary.ts).
-- Orders made before: the same fields from the order and its quote, as the list built them until now.
ALTER TABLE "settlement_orders" ADD COLUMN "summary_facts" text;--> statement-breakpoint
UPDATE "settlement_orders" AS o SET "summary_facts" = json_build_object(
  'reference', o."reference",
  'quoteId', o."quote_id",
  'sourceChain', o."execution"->>'chain',
  'sourceChainId', (o."execution"->>'chainId')::int,
  'destinationChainId', (q."legs"->-1->>'chainId')::int,
  'sourceAddress', q."source_address",
  'destinationAddress', q."destination_address",
  'sendAmountUsdc', trim_scale(q."send_amount_usdc" * 0.000001)::text,
  'totalDebitUsdc', trim_scale(q."total_debit_usdc" * 0.000001)::text,
  'expectedCopAmount', trim_scale(q."expected_copm" * 0.000000000000000001)::text,
  'copAmountMin', trim_scale(q."cop_amount_min" * 0.000000000000000001)::text,
  'createdAt', to_char(o."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
)::text FROM "settlement_quotes" AS q WHERE q."id" = o."quote_id";--> statement-breakpoint
ALTER TABLE "settlement_orders" ALTER COLUMN "summary_facts" SET NOT NULL;
