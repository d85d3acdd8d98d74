import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import type { PayoutStatus } from "../../lib/payouts/payout-view";
import type { FundsStatus, HEALTHS, OrderStatus, TimelineKind } from "../../lib/settlement";
import { EVENT_CATALOG, EVENT_TYPES, type EventType } from "../../lib/webhooks/event-types";
import { MAX_ATTEMPTS } from "../../lib/webhooks/retry-schedule";
import { payoutSchema } from "../payouts/schemas";
import { orderReadSchema } from "../settlement/schemas";
import { swapSchema } from "../swaps/schemas";
import { exampleOrderReceipt, examplePayoutReceipt, exampleSwapReceipt } from "./example-receipts";

/**
 * The event catalog in the OpenAPI document's `webhooks` section: one entry per event type, with the
 * body a receiver gets, its Standard Webhooks headers and an example. The examples are checked against
 * the schemas (tests/webhooks/catalog.test.ts), and real deliveries against the same schemas.
 */

const envelope = <T extends z.ZodType>(type: EventType, data: T) =>
  z.object({
    id: z.string().openapi({ description: "The event id; also the `webhook-id` header. Deduplicate on it." }),
    type: z.literal(type),
    createdAt: z.string().datetime(),
    data,
  });

const testEventData = z.object({ endpointId: z.string(), message: z.string() });

/** The body each event type is delivered with. */
export const EVENT_BODY_SCHEMAS = {} as Record<EventType, z.ZodType>;
for (const type of EVENT_TYPES) {
  EVENT_BODY_SCHEMAS[type] = envelope(
    type,
    type === "webhook.test"
      ? testEventData
      : type === "swap.confirmed"
        ? swapSchema
        : type.startsWith("payout.")
          ? payoutSchema
          : orderReadSchema,
  );
}

const webhookHeaders = z.object({
  "webhook-id": z.string().openapi({ description: "The event id, the same on every retry and replay." }),
  "webhook-timestamp": z.string().openapi({
    description: "Unix seconds when this attempt was signed; refuse one more than 5 minutes off.",
  }),
  "webhook-signature": z.string().openapi({
    description:
      "Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>` signatures: two for 24 h after a secret rotation.",
  }),
});

type Health = (typeof HEALTHS)[number];

const ORDER_ID = "ord_01KAZ6XQ4R8N2M5V7B9C1D3F5G";

/** The order as each settlement event's `data` carries it, moved up to `status`. */
function exampleOrder(status: OrderStatus, fundsStatus: FundsStatus, health: Health) {
  const steps: Array<[OrderStatus, FundsStatus, TimelineKind, number | null, string | null]> = [
    ["BURNED", "BURNED_ON_SOURCE", "BURN_VERIFIED", 8453, `0x${"1a".repeat(32)}`],
    ["ATTESTED", "AWAITING_ATTESTATION", "ATTESTED", null, null],
    ["MINTED", "USDC_ON_INTERMEDIATE", "FORWARDED_MINT", 42161, `0x${"2b".repeat(32)}`],
    ["ROUTING", "IN_TRANSIT_TO_DESTINATION", "ROUTE_SENT", 42161, `0x${"3c".repeat(32)}`],
    ["ROUTED", "USDM_ON_DESTINATION", "ROUTE_COMPLETED", 42220, `0x${"4d".repeat(32)}`],
    ["DELIVERED", "DELIVERED_TO_DESTINATION", "DELIVERED", 42220, `0x${"5e".repeat(32)}`],
  ];
  // A return leaves the path after the mint: the USDC goes back to the source chain.
  const returned: typeof steps = [
    ...steps.slice(0, 3),
    ["RETURNING", "RETURNING_TO_SOURCE", "RETURN_BURNED", 42161, `0x${"6f".repeat(32)}`],
    ["RETURNED", "RETURNED_TO_SOURCE", "RETURNED", 8453, `0x${"7a".repeat(32)}`],
  ];
  const path = status === "RETURNING" || status === "RETURNED" ? returned : steps;
  const reached = path.slice(0, path.findIndex(([s]) => s === status) + 1);
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 15, minute)).toISOString();
  const timeline = [
    {
      at: at(0),
      kind: "ORDER_CREATED" as const,
      status: "CREATED",
      fundsStatus: "IN_USER_WALLET",
      chainId: null,
      txHash: null,
      reason: null,
    },
    ...reached.map(([s, f, kind, chainId, txHash], index) => ({
      at: at(index + 1),
      kind,
      status: s,
      fundsStatus: s === status ? fundsStatus : f,
      chainId,
      txHash,
      reason: null,
    })),
    ...(health === "STUCK"
      ? [
          {
            at: at(reached.length + 30),
            kind: "STUCK" as const,
            status,
            fundsStatus,
            chainId: null,
            txHash: null,
            reason: null,
          },
        ]
      : []),
  ];
  return {
    orderId: ORDER_ID,
    status,
    health,
    fundsStatus,
    reference: "invoice-7731",
    quote: {
      quoteId: "qt_01KAZ6XQ4R8N2M5V7B9C1D3F5G",
      sendAmountUsdc: "100",
      receiveAmountCop: null,
      transferUpfrontFeeUsdc: "0.24",
      transferSpeed: "standard",
      totalDebitUsdc: "100.24",
      copAmountMin: "373207.1267925",
      expectedCopAmount: "384749.61525",
      rate: "3847.4961525",
      minimumRate: "3732.071267925",
      fees: {
        fastTransferFeeUsdc: "0",
        forwardingFeeUsdc: "0.2",
        feeBufferUsdc: "0.04",
        serviceFeeUsdc: "1",
        serviceFeeBps: 100,
        partnerFeeUsdc: "0",
        partnerFeeBps: 0,
      },
      routeInputUsdc: "99",
      expectedUsdm: "98.9505",
      legs: [],
      sourceChainId: 42161,
      sourceAddress: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
      destinationAddress: "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B",
      createdAt: at(0),
      expiresAt: at(1),
    },
    execution: {
      chain: "Arbitrum One",
      chainId: 42161,
      estimatedUserConfirmations: 3,
      mode: "signed_burn_plan",
    },
    createdAt: at(0),
    updatedAt: at(reached.length),
    burnTxHash: `0x${"1a".repeat(32)}`,
    receipt: exampleOrderReceipt(timeline),
    timeline,
  };
}

/** The payout as each payout event's `data` carries it, at `status`. */
function examplePayout(status: PayoutStatus) {
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 16, minute)).toISOString();
  const reached = PAYOUT_PATHS[status];
  const example = {
    payoutId: "po_01KAZ6XQ4R8N2M5V7B9C1D3F5G",
    status,
    quoteId: "bq_01KAZ6XQ4R8N2M5V7B9C1D3F5G",
    userAddress: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
    fromToken: "USDC",
    destinationCop: "100000",
    sourceAmount: "25.944752",
    providerAmount: "25.687873",
    serviceFee: "0.256879",
    partnerFee: "0",
    destination: { breBKey: "30••••••67", keyType: "phone", accountOwnerName: "Ana Pérez" },
    depositDeadline: at(30),
    depositTxHash: reached.includes("deposit_confirmed") ? `0x${"6f".repeat(32)}` : null,
    providerPayoutId: reached.includes("processing") ? "pp_8812" : null,
    brebTransactionId: status === "completed" ? "BREB-202611231602" : null,
    refundTxHash: status === "refunded" ? `0x${"7a".repeat(32)}` : null,
    failureReason:
      status === "failed" || status === "refunded" ? "the receiving bank refused the transfer" : null,
    createdAt: at(0),
    updatedAt: at(reached.length - 1),
    timeline: reached.map((step, minute) => ({ at: at(minute), status: step, detail: null, txHash: null })),
  };
  return { ...example, receipt: examplePayoutReceipt(example) };
}

const SWAP_EXAMPLE_FIELDS = {
  intentId: "si_01KAZ6XQ4R8N2M5V7B9C1D3F5G",
  status: "confirmed",
  wallet: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
  tokenIn: "USDC",
  tokenOut: "COPm",
  amountIn: "25000000",
  expectedAmountOut: "97250000000000000000000",
  minAmountOut: "96763750000000000000000",
  slippageBps: 50,
  chainId: 42220,
  txHash: `0x${"8b".repeat(32)}`,
  amountInSwapped: "25000000",
  amountOutReceived: "97250000000000000000000",
  blockNumber: "31234567",
  createdAt: "2026-11-23T17:00:00.000Z",
  expiresAt: "2026-11-23T17:05:00.000Z",
  confirmedAt: "2026-11-23T17:00:20.000Z",
};

const PAYOUT_PATHS: Record<PayoutStatus, PayoutStatus[]> = {
  awaiting_deposit: ["awaiting_deposit"],
  deposit_confirmed: ["awaiting_deposit", "deposit_confirmed"],
  processing: ["awaiting_deposit", "deposit_confirmed", "processing"],
  completed: ["awaiting_deposit", "deposit_confirmed", "processing", "completed"],
  failed: ["awaiting_deposit", "deposit_confirmed", "processing", "failed"],
  refunded: ["awaiting_deposit", "deposit_confirmed", "processing", "failed", "refunded"],
  expired: ["awaiting_deposit", "expired"],
  refund_required: ["awaiting_deposit", "refund_required"],
};

const orderExamples = (): Record<`settlement.${string}` & EventType, ReturnType<typeof exampleOrder>> => ({
  "settlement.order.burned": exampleOrder("BURNED", "BURNED_ON_SOURCE", "HEALTHY"),
  "settlement.order.attested": exampleOrder("ATTESTED", "AWAITING_ATTESTATION", "HEALTHY"),
  "settlement.order.minted": exampleOrder("MINTED", "USDC_ON_INTERMEDIATE", "HEALTHY"),
  "settlement.order.routing": exampleOrder("ROUTING", "IN_TRANSIT_TO_DESTINATION", "HEALTHY"),
  "settlement.order.routed": exampleOrder("ROUTED", "USDM_ON_DESTINATION", "HEALTHY"),
  "settlement.order.delivered": exampleOrder("DELIVERED", "DELIVERED_TO_DESTINATION", "HEALTHY"),
  "settlement.order.returning": exampleOrder("RETURNING", "RETURNING_TO_SOURCE", "HEALTHY"),
  "settlement.order.returned": exampleOrder("RETURNED", "RETURNED_TO_SOURCE", "HEALTHY"),
  "settlement.order.stuck": exampleOrder("MINTED", "USDC_ON_INTERMEDIATE", "STUCK"),
  "settlement.order.recovered": exampleOrder("MINTED", "USDC_ON_INTERMEDIATE", "HEALTHY"),
  "settlement.order.incident": exampleOrder("ROUTING", "IN_TRANSIT_TO_DESTINATION", "HEALTHY"),
});

type EventExample = { id: string; type: EventType; createdAt: string; data: unknown };

let examples: Record<EventType, EventExample> | undefined;

/**
 * An example delivery body of each event type, made at the first call (the OpenAPI document's), not
 * at import: the examples' receipts take longer to build than the rest of the worker's modules.
 */
export function eventExamples(): Record<EventType, EventExample> {
  examples ??= buildEventExamples();
  return examples;
}

function buildEventExamples(): Record<EventType, EventExample> {
  const swapExample = { ...SWAP_EXAMPLE_FIELDS, receipt: exampleSwapReceipt(SWAP_EXAMPLE_FIELDS) };
  const orders = orderExamples();
  return Object.fromEntries(
    (Object.keys(EVENT_CATALOG) as EventType[]).map((type, index) => [
      type,
      {
        id: `evt_01KAZ6XQ4R8N2M5V7B9C1D3F${String(index).padStart(2, "0")}`,
        type,
        createdAt: new Date(Date.UTC(2026, 10, 23, 15, 10, index)).toISOString(),
        data:
          type === "webhook.test"
            ? {
                endpointId: "wep_01KAZ6XQ4R8N2M5V7B9C1D3F5G",
                message: "A test event: your endpoint receives and verifies webhooks.",
              }
            : type === "swap.confirmed"
              ? swapExample
              : type.startsWith("payout.")
                ? examplePayout(type.slice("payout.".length) as PayoutStatus)
                : orders[type as keyof typeof orders],
      },
    ]),
  ) as Record<EventType, EventExample>;
}

export function register(app: OpenAPIHono<AppEnv>) {
  for (const [type, when] of Object.entries(EVENT_CATALOG) as Array<[EventType, string]>) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: `webhook_${type.replaceAll(".", "_")}`,
      summary: type,
      description: `${when} POSTed as JSON to the integration's endpoint, signed per Standard Webhooks.`,
      tags: ["Webhook events"],
      security: [],
      request: {
        headers: webhookHeaders,
        body: {
          required: true,
          content: {
            "application/json": {
              schema: EVENT_BODY_SCHEMAS[type],
              // Read when the document is generated, so the examples are made then, not at import.
              get example() {
                return eventExamples()[type];
              },
            },
          },
        },
      },
      responses: {
        200: { description: "Any 2xx acknowledges the event: it is not sent again." },
        410: { description: "Gone: the endpoint is disabled and its pending deliveries fail." },
        default: {
          description: `Anything else, or no answer within 15 s, is retried: ${MAX_ATTEMPTS} attempts in all (docs/webhooks.md).`,
        },
      },
    });
  }
}
