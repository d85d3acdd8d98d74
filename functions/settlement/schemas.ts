import { z } from "@hono/zod-openapi";
import { signedPlanFields } from "../../lib/http/signed-plan-schema";
import { sinceQuery } from "../../lib/http/since-query";
import { hasPrefix } from "../../lib/kernel/ids";
import {
  FUNDS_STATUSES,
  HEALTHS,
  MINT_RETURN_STATES,
  ORDER_STATUSES,
  ORDERS_DEFAULT_LIMIT,
  ORDERS_PAGE_LIMIT,
  TIMELINE_KINDS,
} from "../../lib/settlement";
import { receiptSchema } from "../ledger/schemas";

const decimal = (description: string, example: string) => z.string().openapi({ description, example });

const legSchema = z.object({
  kind: z.enum([
    "cctp_burn",
    "usdc_transfer",
    "cctp_forward_mint",
    "aggregator_route",
    "mento_exchange",
    "delivery",
  ]),
  chainId: z.number().int(),
  provider: z.string(),
  tokenIn: z.string(),
  tokenOut: z.string(),
  amountIn: z.string(),
  amountOut: z.string(),
});

export const quoteSchema = z
  .object({
    quoteId: z.string().openapi({ example: "qt_01KAZ6XQ4R0000000000000000" }),
    sendAmountUsdc: decimal(
      "The principal the transfer covers (solved, when quoted by receiveAmountCop).",
      "100",
    ),
    receiveAmountCop: z.string().nullable().openapi({
      description:
        "The COPm the partner asked the destination to receive at least, when it quoted by it; `copAmountMin` is at least this. Null when quoted by sendAmountUsdc.",
      example: null,
    }),
    transferUpfrontFeeUsdc: decimal(
      "The cross-chain transfer's fee, charged on top of the principal and set as the burn's maxFee: Circle's forwarding fee (plus its Fast fee when the organization burns Fast) and a 20% buffer, so a fee that rose before attestation still forwards. What Circle does not take stays with the order (docs/settlement.md, Fees).",
      "0.24",
    ),
    transferSpeed: z.enum(["standard", "fast"]).openapi({
      description:
        "Circle's finality for the burn: `standard` (finalized, the default, as the spec describes) or `fast` (confirmed, an organization's opt-in).",
    }),
    totalDebitUsdc: decimal("sendAmountUsdc + transferUpfrontFeeUsdc: what the user burns.", "100.24"),
    copAmountMin: decimal(
      "The binding floor of COPm delivered: expected less the 3% route slippage.",
      "373463.9",
    ),
    expectedCopAmount: decimal("COPm the route is expected to deliver.", "385014.330"),
    rate: decimal("Expected COP per USDC of principal.", "3850.14333"),
    minimumRate: decimal("COP per USDC of principal at the floor.", "3734.639"),
    fees: z.object({
      fastTransferFeeUsdc: z
        .string()
        .openapi({ description: "Circle's protocol fee for the finality: its Fast fee, 0 for Standard." }),
      forwardingFeeUsdc: z.string().openapi({ description: "Circle's Forwarding Service fee, as quoted." }),
      feeBufferUsdc: z
        .string()
        .openapi({ description: "20% of the two fees above, rounded up: the margin for a fee that rose." }),
      serviceFeeUsdc: z.string().openapi({ description: "Taken from the principal, not charged on top." }),
      serviceFeeBps: z.number().int(),
      partnerFeeUsdc: z.string().openapi({
        description:
          "The organization's own fee (its partnerFeeBps of the principal, rounded up; 0 when it charges none), taken from the principal and paid to its address once the order delivers.",
      }),
      partnerFeeBps: z.number().int(),
    }),
    routeInputUsdc: decimal(
      "Principal less the service's fee and the organization's own: what enters the aggregator route.",
      "99",
    ),
    expectedUsdm: z.string(),
    legs: z.array(legSchema),
    sourceChainId: z.number().int().openapi({
      description:
        "The chain id the USDC leaves (the request's `sourceChain`, else the organization's default source chain); `GET /api/integrations/settlements/chains` lists them.",
      example: 42161,
    }),
    sourceAddress: z.string(),
    destinationAddress: z.string(),
    createdAt: z.string().datetime(),
    expiresAt: z.string().datetime().openapi({ description: "60 seconds after creation." }),
  })
  .openapi("SettlementQuote");

const burnPlanSchema = z
  .object(signedPlanFields(["approve", "depositForBurnWithHook", "transfer"], "BurnPlan"))
  .openapi("BurnPlan", {
    description:
      "The user's transactions on the source chain, in order, signed by the service (docs/settlement.md: verifying a burn plan).",
  });

const executionSchema = z.object({
  chain: z.string().openapi({ description: "The source chain's name." }),
  chainId: z.number().int(),
  estimatedUserConfirmations: z.number().int(),
  mode: z.enum(["pending_burn_plan", "signed_burn_plan"]),
  burnPlan: burnPlanSchema.optional(),
});

export const orderSchema = z
  .object({
    orderId: z.string().openapi({ example: "ord_01KAZ6XQ4R0000000000000000" }),
    status: z.enum(ORDER_STATUSES),
    health: z.enum(HEALTHS),
    fundsStatus: z.enum(FUNDS_STATUSES),
    reference: z.string().nullable(),
    quote: quoteSchema,
    execution: executionSchema,
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi("SettlementOrder");

export const orderReadSchema = orderSchema
  .extend({
    burnTxHash: z.string().nullable(),
    receipt: receiptSchema,
    timeline: z.array(
      z.object({
        at: z.string().datetime(),
        kind: z.enum(TIMELINE_KINDS).openapi({
          description:
            "What happened (docs/timeline.md lists each kind with the status it moves the order to). New kinds may be added: show an unknown one as its code.",
        }),
        status: z.enum(ORDER_STATUSES),
        fundsStatus: z.enum(FUNDS_STATUSES),
        chainId: z.number().int().nullable(),
        txHash: z.string().nullable(),
        reason: z.string().nullable().openapi({
          description:
            "Why the order waits, as a code: on `ATTESTATION_DELAYED`, Circle's delay reason as Iris gives it (`insufficient_fee`: the burn's maxFee is below Circle's fee for now); on `EXCHANGE_DELAYED`, `mento_trading_limit` (Mento's trading limit refuses the exchange until it frees) or `below_floor` (Mento's rate gives less than `copAmountMin`: the order waits for its retry window, then is returned). Null on every other entry.",
        }),
      }),
    ),
  })
  .openapi("SettlementOrderRead");

/** An order as the list tells it (API-Version 2026-11-28 on); its read answers the rest. */
export const orderSummarySchema = orderSchema
  .pick({ orderId: true, status: true, health: true, fundsStatus: true, reference: true })
  .extend({
    quoteId: z.string(),
    sourceChain: z.string().openapi({ description: "The source chain's name, as the order was made." }),
    sourceChainId: z.number().int(),
    destinationChainId: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The chain the COPm is delivered on (the quote's last leg's)." }),
    sourceAddress: z.string(),
    destinationAddress: z.string(),
    sendAmountUsdc: z.string(),
    totalDebitUsdc: z.string(),
    expectedCopAmount: z.string(),
    copAmountMin: z.string(),
    burnTxHash: z.string().nullable(),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi("SettlementOrderSummary");

/** Errors every settlement route that prices a route or takes a body can answer. */
export const PRICING_ERRORS = [
  "ROUTE_UNAVAILABLE",
  "MENTO_CAPACITY_EXCEEDED",
  "INTAKE_PAUSED",
  "SETTLEMENT_ACCOUNT_INACTIVE",
  "PROVIDER_UNAVAILABLE",
  "UNSUPPORTED_MEDIA_TYPE",
  "PAYLOAD_TOO_LARGE",
] as const;

/** The order listing's query: the API's and the dashboard's Orders page's. */
export const listOrdersQuery = z.object({
  status: z.enum(ORDER_STATUSES).optional().openapi({ description: "Only orders in this status now." }),
  since: sinceQuery("Orders created at or after this instant (ISO 8601 with an offset)."),
  limit: z.coerce.number().int().min(1).max(ORDERS_PAGE_LIMIT).default(ORDERS_DEFAULT_LIMIT),
  cursor: z
    .string()
    .refine((value) => hasPrefix(value, "ord"), "an order id, as nextCursor gives it")
    .optional(),
});

const usdcOrNull = (description: string) => z.string().nullable().openapi({ description });

/** A mint to the settlement account that no order claims, as the operator sees it (docs/settlement.md, "Unclaimed mints"). */
export const unclaimedMintSchema = z.object({
  id: z.string().openapi({ example: "mnt_01KAZ6XQ4R0000000000000000" }),
  chainId: z.number().int().openapi({ description: "The intermediate chain the mint happened on." }),
  nonce: z.string().openapi({ description: "Circle's message nonce (bytes32)." }),
  sourceDomain: z.number().int().openapi({ description: "The CCTP domain the USDC was burned on." }),
  sourceChainId: z.number().int().nullable().openapi({
    description: "The served chain of that domain, where a return goes; null when none is served.",
  }),
  depositor: z
    .string()
    .openapi({ description: "Who burned (the message's sender): the return goes to this address." }),
  amountUsdc: decimal("What the settlement account received.", "1"),
  feeCollectedUsdc: decimal("What Circle kept of the burn.", "0"),
  txHash: z.string().openapi({ description: "The mint's transaction on the intermediate chain." }),
  logIndex: z.number().int().openapi({ description: "Its MessageReceived's index in that transaction." }),
  mintedAt: z.string().datetime(),
  status: z.enum(MINT_RETURN_STATES),
  returnable: z.boolean().openapi({ description: "Whether POST …/return would return it now." }),
  claimableBy: z.string().nullable().openapi({
    description: "An order not attested yet whose commitment the mint carries: it may still claim it.",
  }),
  returnFeeUsdc: usdcOrNull(
    "The most Circle may take to carry it back now (Standard finality, with the service's buffer); null when Circle's fees could not be read.",
  ),
  return: z
    .object({
      reason: z.string().nullable(),
      requestedAt: z.string().datetime().nullable(),
      burnTxHash: z
        .string()
        .nullable()
        .openapi({ description: "The return burn on the intermediate chain." }),
      amountUsdc: usdcOrNull("What the return burned."),
      maxFeeUsdc: usdcOrNull("The most Circle may take of it."),
      mintTxHash: z
        .string()
        .nullable()
        .openapi({ description: "The mint to the depositor on the source chain." }),
      receivedUsdc: usdcOrNull("What the depositor received."),
      feeCollectedUsdc: usdcOrNull("What Circle kept on the way back."),
    })
    .nullable(),
  attention: z
    .string()
    .nullable()
    .openapi({ description: "Why the return cannot go on now, for the operator." }),
});
