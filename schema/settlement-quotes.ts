import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { integrations } from "./integrations";
import { units } from "./money-column";
import { organizations } from "./organizations";

/** The legs of a priced route, as shown to the partner and re-priced at order time. */
export interface QuoteLeg {
  kind:
    | "cctp_burn"
    | "usdc_transfer"
    | "cctp_forward_mint"
    | "aggregator_route"
    | "mento_exchange"
    | "delivery";
  chainId: number;
  provider: string;
  amountIn: string;
  amountOut: string;
  tokenIn: string;
  tokenOut: string;
}

/** A priced settlement, reserved for one organization for 60 seconds. All amounts in atomic units. */
export const settlementQuotes = pgTable(
  "settlement_quotes",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    integrationId: text("integration_id")
      .notNull()
      .references(() => integrations.id),
    sourceAddress: text("source_address").notNull(),
    destinationAddress: text("destination_address").notNull(),
    sendAmountUsdc: units("send_amount_usdc").notNull(),
    /** The COPm the partner asked the destination to receive at least, when it quoted by it (the send amount then solved). */
    receiveAmountCop: units("receive_amount_cop"),
    /**
     * The burn's CCTP finality: 2000 Standard (the default) or 1000 Fast (an organization's opt-in).
     * The burn plan's minFinalityThreshold and the burn's verification use it.
     */
    /**
     * The chain the user's USDC leaves (its chain id): the quote's `sourceChain`, else the
     * organization's default, else the profile's. Null on quotes made before sources could be chosen
     * (the default source chain then).
     */
    sourceChainId: integer("source_chain_id"),
    finalityThreshold: integer("finality_threshold").notNull(),
    /** Circle's protocol fee for that finality (Fast: its bps of the burn; Standard: usually 0). */
    fastTransferFeeUsdc: units("fast_transfer_fee_usdc").notNull(),
    forwardingFeeUsdc: units("forwarding_fee_usdc").notNull(),
    /** What the upfront fee holds beyond Circle's quoted fee, so a fee that rose still forwards. */
    feeBufferUsdc: units("fee_buffer_usdc").notNull(),
    transferUpfrontFeeUsdc: units("transfer_upfront_fee_usdc").notNull(),
    totalDebitUsdc: units("total_debit_usdc").notNull(),
    serviceFeeBps: integer("service_fee_bps").notNull(),
    serviceFeeUsdc: units("service_fee_usdc").notNull(),
    /**
     * The organization's own fee (its partnerFeeBps of the principal, rounded up), taken from the
     * principal like the service's and paid to partnerFeeAddress once the order delivers.
     */
    partnerFeeBps: integer("partner_fee_bps").notNull().default(0),
    partnerFeeUsdc: units("partner_fee_usdc").notNull().default(sql`0`),
    partnerFeeAddress: text("partner_fee_address"),
    routeInputUsdc: units("route_input_usdc").notNull(),
    expectedUsdm: units("expected_usdm").notNull(),
    expectedCopm: units("expected_copm").notNull(),
    copAmountMin: units("cop_amount_min").notNull(),
    legs: jsonb("legs").$type<QuoteLeg[]>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    index("settlement_quotes_organization_id_idx").on(table.organizationId),
    /** The volume limits' sums: an organization's quotes of one sender. */
    index("settlement_quotes_source_address_idx").on(
      table.organizationId,
      sql`lower(${table.sourceAddress})`,
    ),
  ],
);
