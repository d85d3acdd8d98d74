import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { brebQuotes } from "./breb-quotes";
import { integrations } from "./integrations";
import { units } from "./money-column";
import { organizations } from "./organizations";

/** The kinds of BRE-B key a payout can be sent to. */
export const BREB_KEY_TYPES = ["phone", "email", "national_id", "alias", "merchant_code"] as const;

/** A payout's life, as its status and each of its timeline entries say it. */
export const PAYOUT_STATUSES = [
  "awaiting_deposit",
  "deposit_confirmed",
  "processing",
  "completed",
  "failed",
  "refunded",
  "expired",
  "refund_required",
] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * Timeline entries that leave a payout where it is: what the chain showed of a refund the provider
 * named, the operator's flags, and the service's return of its own fee (docs/payouts.md, Refunds).
 */
export const PAYOUT_NOTES = [
  "refund_unproven",
  "refund_short",
  "refund_overdue",
  "fee_return_sent",
  "fee_returned",
  "fee_return_overdue",
] as const;
export type PayoutNote = (typeof PAYOUT_NOTES)[number];

/** What a timeline entry says: the status it moved the payout to, or a note. */
export const PAYOUT_TIMELINE_KINDS = [...PAYOUT_STATUSES, ...PAYOUT_NOTES] as const;
export type PayoutTimelineKind = (typeof PAYOUT_TIMELINE_KINDS)[number];

/**
 * A BRE-B payout: one per quote, one per idempotency key within an organization, one per deposit
 * transaction. Its creation answer is kept as text and replayed byte for byte.
 */
export const brebPayouts = pgTable(
  "breb_payouts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    integrationId: text("integration_id")
      .notNull()
      .references(() => integrations.id),
    quoteId: text("quote_id")
      .notNull()
      .references(() => brebQuotes.id),
    idempotencyKey: text("idempotency_key").notNull(),
    /** SHA-256 of the request body: the same key with another body is a conflict. */
    requestHash: text("request_hash").notNull(),
    creationResponse: text("creation_response").notNull(),
    userAddress: text("user_address").notNull(),
    breBKey: text("breb_key").notNull(),
    breBKeyType: text("breb_key_type", { enum: BREB_KEY_TYPES }).notNull(),
    accountOwnerName: text("account_owner_name").notNull(),
    token: text("token").notNull(),
    chainId: integer("chain_id").notNull(),
    tokenAddress: text("token_address").notNull(),
    destinationCop: units("destination_cop").notNull(),
    providerAmount: units("provider_amount").notNull(),
    serviceFee: units("service_fee").notNull(),
    /** The organization's own fee, paid to partnerFeeAddress in the deposit transaction (0: none). */
    partnerFee: units("partner_fee").notNull().default(sql`0`),
    partnerFeeAddress: text("partner_fee_address"),
    sourceAmount: units("source_amount").notNull(),
    /**
     * What the payout is worth in US dollars, in USDC atomic units: its pesos at the quote's COP per
     * USD, rounded up. What the volume limits count (docs/compliance.md).
     */
    usdValue: units("usd_value").notNull(),
    depositAddress: text("deposit_address").notNull(),
    feeWallet: text("fee_wallet").notNull(),
    depositor: text("depositor").notNull(),
    /** keccak256("copm-breb-payout/v1" ‖ id): what the deposit must carry. */
    payoutRef: text("payout_ref").notNull(),
    status: text("status", { enum: PAYOUT_STATUSES }).notNull(),
    depositDeadline: timestamp("deposit_deadline", { withTimezone: true, mode: "date" }).notNull(),
    depositTxHash: text("deposit_tx_hash"),
    /**
     * The index, in the deposit transaction, of the Transfer that paid the provider: a smart wallet
     * may batch several payouts' deposits in one transaction, so a deposit is a (hash, log index).
     */
    depositLogIndex: integer("deposit_log_index"),
    providerPayoutId: text("provider_payout_id"),
    brebTransactionId: text("breb_transaction_id"),
    /** The provider's refund, once the chain shows it: its transaction, set with the two below. */
    refundTxHash: text("refund_tx_hash"),
    /** The index of the Transfer in refundTxHash that paid the user: a refund is a (hash, log index). */
    refundLogIndex: integer("refund_log_index"),
    /** What that Transfer paid the user, in atomic units: less than providerAmount is flagged. */
    refundAmount: units("refund_amount"),
    /** The service's return of its fee (breb_fee_returns), once mined with the chain's confirmations. */
    feeReturnTxHash: text("fee_return_tx_hash"),
    failureReason: text("failure_reason"),
    /** The provider's time of the state held: an older report never overwrites it. */
    providerUpdatedAt: timestamp("provider_updated_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    uniqueIndex("breb_payouts_quote_idx").on(table.quoteId),
    uniqueIndex("breb_payouts_idempotency_idx").on(table.organizationId, table.idempotencyKey),
    uniqueIndex("breb_payouts_deposit_idx")
      .on(table.depositTxHash, table.depositLogIndex)
      .where(sql`${table.depositTxHash} is not null`),
    index("breb_payouts_integration_idx").on(table.integrationId, table.id),
    /** The volume limits' sums: an organization's payouts of one user, by time. */
    index("breb_payouts_user_volume_idx").on(
      table.organizationId,
      sql`lower(${table.userAddress})`,
      table.createdAt,
    ),
    // Lookup by hash (docs/ledger.md): a refund's transaction names its payout.
    index("breb_payouts_refund_tx_hash_idx")
      .on(table.refundTxHash)
      .where(sql`${table.refundTxHash} is not null`),
    // One Transfer refunds one payout, whatever the provider names.
    uniqueIndex("breb_payouts_refund_transfer_idx")
      .on(table.refundTxHash, table.refundLogIndex)
      .where(sql`${table.refundTxHash} is not null`),
    index("breb_payouts_fee_return_tx_hash_idx")
      .on(table.feeReturnTxHash)
      .where(sql`${table.feeReturnTxHash} is not null`),
    index("breb_payouts_in_flight_idx")
      .on(table.status, table.updatedAt)
      .where(sql`${table.status} in ('awaiting_deposit', 'deposit_confirmed', 'processing', 'failed')`),
  ],
);

/** What happened to a payout, oldest first: each move, with the references it brought. */
export const brebPayoutEvents = pgTable(
  "breb_payout_events",
  {
    id: text("id").primaryKey(),
    payoutId: text("payout_id")
      .notNull()
      .references(() => brebPayouts.id),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
    status: text("status", { enum: PAYOUT_TIMELINE_KINDS }).notNull(),
    /** A provider reference, the BRE-B transaction id, a transaction hash or a reason. */
    detail: text("detail"),
    txHash: text("tx_hash"),
  },
  (table) => [
    index("breb_payout_events_payout_idx").on(table.payoutId, table.at),
    // Statements (docs/ledger.md) read what happened in a window of time.
    index("breb_payout_events_at_idx").on(table.at),
  ],
);

/** A fee return's signed transaction: signed → sent → success | reverted, or dropped (its nonce went elsewhere). */
export const FEE_RETURN_STATES = ["signed", "sent", "success", "reverted", "dropped"] as const;
export type FeeReturnState = (typeof FEE_RETURN_STATES)[number];

/**
 * The service's return of a refunded payout's fee from the fee wallet: every transaction it signs
 * for that, recorded before it is broadcast, so a retried job watches the recorded one instead of
 * paying twice. At most one live (signed, sent or success) per payout.
 */
export const brebFeeReturns = pgTable(
  "breb_fee_returns",
  {
    id: text("id").primaryKey(),
    payoutId: text("payout_id")
      .notNull()
      .references(() => brebPayouts.id),
    chainId: integer("chain_id").notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    tokenAddress: text("token_address").notNull(),
    amount: units("amount").notNull(),
    nonce: integer("nonce").notNull(),
    hash: text("hash").notNull(),
    /** The signed transaction, so a lost broadcast is repeated byte for byte. */
    raw: text("raw").notNull(),
    status: text("status", { enum: FEE_RETURN_STATES }).notNull(),
    /** The index of its Transfer to the user, once mined. */
    logIndex: integer("log_index"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    uniqueIndex("breb_fee_returns_live_idx")
      .on(table.payoutId)
      .where(sql`${table.status} in ('signed', 'sent', 'success')`),
    uniqueIndex("breb_fee_returns_hash_idx").on(table.hash),
    index("breb_fee_returns_account_idx").on(table.chainId, table.fromAddress, table.status),
  ],
);
