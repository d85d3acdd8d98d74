import { z } from "@hono/zod-openapi";
import { signedPlanFields } from "../../lib/http/signed-plan-schema";
import { sinceQuery } from "../../lib/http/since-query";
import { hasPrefix } from "../../lib/kernel/ids";
import { BREB_TOKENS } from "../../lib/payouts/breb-provider";
import { PAYOUT_STATUSES } from "../../lib/payouts/payout-view";
import { PAYOUTS_DEFAULT_LIMIT, PAYOUTS_PAGE_LIMIT } from "../../lib/payouts/read-payouts";
import { userAddressSchema } from "../identity/schemas";
import { receiptSchema } from "../ledger/schemas";

export const payoutQuoteSchema = z
  .object({
    quoteId: z.string().openapi({ example: "bq_01KAZ6XQ4R8N2M5V7B9C1D3F5G" }),
    fromToken: z.enum(BREB_TOKENS),
    destinationCop: z.string().openapi({ description: "Whole pesos the recipient receives." }),
    sourceAmount: z
      .string()
      .openapi({ description: "What the user pays: providerAmount + the service fee." }),
    providerAmount: z
      .string()
      .openapi({ description: "What the provider receives: after its 0.5% it pays destinationCop." }),
    effectiveRate: z.string().openapi({ description: "COP delivered per whole source token, all fees in." }),
    rate: z.string().openapi({ description: "The provider's COP per whole source token." }),
    display: z.string().openapi({ example: "1 USD = 3,912.45 COP" }),
    fees: z.array(
      z.object({
        type: z.enum(["service", "provider_developer", "partner"]).openapi({
          description:
            "`partner`: the organization's own fee, listed only when it charges one, paid to its address in the deposit transaction.",
        }),
        bps: z.number().int(),
        amount: z.string(),
        token: z.enum(BREB_TOKENS),
        recipient: z.enum(["fee_wallet", "payout_provider", "partner"]),
      }),
    ),
    cached: z.boolean().openapi({ description: "True when the provider's rate came from the cache." }),
    createdAt: z.string().datetime(),
    expiresAt: z.string().datetime(),
  })
  .openapi("PayoutQuote", {
    example: {
      quoteId: "bq_01KAZ6XQ4R8N2M5V7B9C1D3F5G",
      fromToken: "USDC",
      destinationCop: "100000",
      sourceAmount: "25.944752",
      providerAmount: "25.687873",
      effectiveRate: "3854.34403",
      rate: "3912.45",
      display: "1 USD = 3,912.45 COP",
      fees: [
        { type: "service", bps: 100, amount: "0.256879", token: "USDC", recipient: "fee_wallet" },
        {
          type: "provider_developer",
          bps: 50,
          amount: "0.12844",
          token: "USDC",
          recipient: "payout_provider",
        },
      ],
      cached: false,
      createdAt: "2026-11-23T15:00:00.000Z",
      expiresAt: "2026-11-23T15:02:00.000Z",
    },
  });

export const payoutSchema = z
  .object({
    payoutId: z.string().openapi({ example: "po_01KAZ6XQ4R8N2M5V7B9C1D3F5G" }),
    status: z.enum(PAYOUT_STATUSES),
    quoteId: z.string(),
    userAddress: z.string(),
    fromToken: z.enum(BREB_TOKENS),
    destinationCop: z.string(),
    sourceAmount: z.string(),
    providerAmount: z.string(),
    serviceFee: z.string(),
    partnerFee: z.string().openapi({ description: "The organization's own fee (0 when it charges none)." }),
    destination: z.object({
      breBKey: z.string().openapi({ description: "Masked.", example: "30••••••67" }),
      keyType: z.enum(["phone", "email", "national_id", "alias", "merchant_code"]),
      accountOwnerName: z.string(),
    }),
    depositDeadline: z.string().datetime(),
    depositTxHash: z.string().nullable(),
    providerPayoutId: z.string().nullable(),
    brebTransactionId: z.string().nullable(),
    refundTxHash: z.string().nullable().openapi({
      description:
        "The provider's refund, set only once the payout chain shows its Transfer of the token to `userAddress` (the payout is then `refunded`); the receipt's `refund` leg has what it paid.",
    }),
    failureReason: z.string().nullable(),
    receipt: receiptSchema,
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
    timeline: z.array(
      z.object({
        at: z.string().datetime(),
        status: z.string().openapi({
          description:
            "The status the entry moved the payout to, or a note that leaves it where it is: `refund_unproven` (the provider named a refund the payout chain does not show as one; the payout stays `failed`), `refund_short` (the refund paid less than was owed), `refund_overdue` and `fee_return_overdue` (the operator was told), `fee_return_sent` and `fee_returned` (the service's fee going back to the user). docs/payouts.md, Refunds.",
        }),
        detail: z.string().nullable(),
        txHash: z.string().nullable(),
      }),
    ),
  })
  .openapi("Payout");

export const payoutCreationSchema = z
  .object({
    payout: payoutSchema,
    deposit: z.object({
      chainId: z.number().int(),
      chain: z.string(),
      token: z.enum(BREB_TOKENS),
      tokenAddress: z.string(),
      amount: z
        .string()
        .openapi({ description: "What the user pays in all: providerAmount + serviceFee + partnerFee." }),
      providerAmount: z.string(),
      serviceFee: z.string(),
      partnerFee: z.string(),
      partnerFeeAddress: z.string().nullable().openapi({
        description: "Where the deposit pays the organization's own fee; null when it charges none.",
      }),
      depositAddress: z.string().openapi({ description: "The payout provider's deposit address." }),
      feeWallet: z.string(),
      depositor: z.string().openapi({ description: "The payout depositor contract the deposit step calls." }),
      payoutRef: z.string().openapi({ description: 'keccak256("copm-breb-payout/v1" ‖ payoutId).' }),
      ...signedPlanFields(["approve", "deposit"], "PayoutPlan"),
    }),
  })
  .openapi("PayoutCreation");

/** The payout listing's query: the API's and the dashboard's Payouts page's. */
export const listPayoutsQuery = z.object({
  userAddress: userAddressSchema.optional(),
  status: z.enum(PAYOUT_STATUSES).optional(),
  since: sinceQuery("Created at or after."),
  limit: z.coerce.number().int().min(1).max(PAYOUTS_PAGE_LIMIT).default(PAYOUTS_DEFAULT_LIMIT),
  cursor: z
    .string()
    .refine((value) => hasPrefix(value, "po"), "a payout id, as nextCursor gives it")
    .optional(),
});
