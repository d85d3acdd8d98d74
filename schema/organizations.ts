import { sql } from "drizzle-orm";
import { boolean, check, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { units } from "./money-column";

/** A partner company. Owns integrations; settlement orders are scoped to it. */
export const organizations = pgTable(
  "organizations",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** New quotes and orders are refused while paused; orders already burned continue. */
    intakePaused: boolean("intake_paused").notNull().default(false),
    /** Orders carry a signed burn plan only once this is on (spec: pending_burn_plan until enabled). */
    burnPlanEnabled: boolean("burn_plan_enabled").notNull().default(false),
    /** Service fee taken from the settlement principal, in basis points (100 = 1%). */
    serviceFeeBps: integer("service_fee_bps").notNull().default(100),
    /**
     * Burns with Circle's Fast finality (its fee shown apart in the quote) instead of the Standard
     * transfer the spec describes; an operator's switch (admin API).
     */
    fastTransfer: boolean("fast_transfer").notNull().default(false),
    settlementAccountActive: boolean("settlement_account_active").notNull().default(true),
    /**
     * The organization's own fee, in basis points (at most PARTNER_FEE_MAX_BPS) of a settlement's
     * principal and of a payout's provider amount, paid to `partnerFeeAddress`: in the user's deposit
     * transaction for a payout, by the settlement account once a settlement delivers.
     */
    partnerFeeBps: integer("partner_fee_bps").notNull().default(0),
    partnerFeeAddress: text("partner_fee_address"),
    /**
     * The chain id a quote's USDC leaves when the quote names no `sourceChain`; null for the
     * profile's default source chain (docs/settlement.md, "Source chains").
     */
    defaultSourceChainId: integer("default_source_chain_id"),
    /**
     * Volume limits (docs/compliance.md, "Volume limits") in USDC atomic units (6 decimals, one US
     * dollar each), null for none: per end-user address over the last 24 hours and 30 days, and the
     * whole organization's over the last 24 hours, across settlements (principal) and payouts (their
     * US dollar value).
     */
    perUserDailyLimitUsd: units("per_user_daily_limit_usd"),
    perUserMonthlyLimitUsd: units("per_user_monthly_limit_usd"),
    organizationDailyLimitUsd: units("organization_daily_limit_usd"),
    /** Every member must sign in with a second factor (TOTP); set by an owner or the operator. */
    requireTwoFactor: boolean("require_two_factor").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    check("organizations_service_fee_bps_range", sql`${table.serviceFeeBps} between 0 and 1000`),
    check("organizations_partner_fee_bps_range", sql`${table.partnerFeeBps} between 0 and 100`),
    check(
      "organizations_partner_fee_address",
      sql`${table.partnerFeeBps} = 0 or ${table.partnerFeeAddress} is not null`,
    ),
  ],
);
