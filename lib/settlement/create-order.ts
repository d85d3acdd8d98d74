import { and, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type OrderExecution, organizations, settlementOrders, settlementQuotes } from "../../schema";
import { recordWithinVolumeLimits, screenAddresses } from "../compliance";
import { orderCommitment } from "../kernel/chain/forwarding";
import { startingChains } from "../kernel/chain/source-chains";
import { createOnce } from "../kernel/db/create-once";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { accountForNewOrder } from "./accounts";
import { burnPlanSteps, depositPlanSteps, signBurnPlan } from "./burns/plan";
import type { SettlementContext } from "./context";
import { assertIntakeOpen, settlementParties } from "./intake";
import { withinVariance } from "./pricing/arithmetic";
import { bookPricing } from "./pricing/book";
import { priceBridge, settlementChains, startsOnIntermediate } from "./pricing/prices";
import { orderView, type SettlementOrder } from "./views/order";

export interface OrderRequest {
  quoteId: string;
  idempotencyKey: string;
  reference?: string;
}

/** An order's creation answer as JSON text, kept with the order and replayed byte for byte. */
export type OrderCreation = string;

/** Errors before an order exists: the order was being created, the USDC is still the user's. */
const STAGE = "CREATED";
const BEFORE_ORDER = { stage: STAGE, fundsStatus: "IN_USER_WALLET", fundsMoved: false } as const;

const usedBy = alias(settlementOrders, "used_by");

/**
 * Creates the order for a quote, once. Same key and same request (quote and reference): the first
 * answer again. Same key, another quote or reference: IDEMPOTENCY_CONFLICT. Quote ordered under another key: QUOTE_ALREADY_USED. The
 * uniqueness is the database's (one order per quote, one per key in an organization), so racing
 * requests end with one order whatever their timing.
 *
 * Round trips: one read (quote, the order under this key, the order of this quote), one insert.
 */
export async function createOrder(ctx: SettlementContext, request: OrderRequest): Promise<OrderCreation> {
  const organizationId = ctx.caller.organizationId;
  const [found] = await ctx.db
    .select({ quote: settlementQuotes, underKey: settlementOrders, ofQuote: usedBy })
    .from(organizations)
    .leftJoin(
      settlementQuotes,
      and(eq(settlementQuotes.id, request.quoteId), eq(settlementQuotes.organizationId, organizations.id)),
    )
    .leftJoin(
      settlementOrders,
      and(
        eq(settlementOrders.organizationId, organizations.id),
        eq(settlementOrders.idempotencyKey, request.idempotencyKey),
      ),
    )
    .leftJoin(usedBy, eq(usedBy.quoteId, settlementQuotes.id))
    .where(eq(organizations.id, organizationId));

  return createOnce({
    found,
    // The same request is the same quote and reference, an absent reference being another than a present one.
    sameRequest: (existing) =>
      existing.quoteId === request.quoteId && existing.reference === (request.reference ?? null),
    answerOf: (existing) => existing.creationResponse,
    // A quote is good before its expiresAt, not at it.
    expired: (quote) => ctx.clock.now().getTime() >= quote.expiresAt.getTime(),
    create: (quote) => insertOrder(ctx, request, quote),
    underKeyNow: async () => {
      const [underKey] = await ctx.db
        .select()
        .from(settlementOrders)
        .where(
          and(
            eq(settlementOrders.organizationId, ctx.caller.organizationId),
            eq(settlementOrders.idempotencyKey, request.idempotencyKey),
          ),
        );
      return underKey;
    },
    stage: BEFORE_ORDER,
  });
}

/** Prices the quote's route again, signs the burn plan and inserts the order: its answer, or undefined if another insert won. */
async function insertOrder(
  ctx: SettlementContext,
  request: OrderRequest,
  quote: typeof settlementQuotes.$inferSelect,
): Promise<OrderCreation | undefined> {
  const organizationId = ctx.caller.organizationId;
  const settlementAccount = assertIntakeOpen(ctx, STAGE);
  const chains = settlementChains(ctx.chains, STAGE, quote.sourceChainId);
  // A source chain dropped since the quote (its RPC URL removed) takes no new order.
  if (!startingChains(ctx.chains).some((chain) => chain.chainId === chains.source.chainId)) {
    throw new ApiError("ROUTE_UNAVAILABLE", {
      ...BEFORE_ORDER,
      detail: `(${chains.source.name} is no longer served)`,
    });
  }
  // Screened again at order: an address listed since its quote takes no order.
  const [repriced] = await Promise.all([
    priceBridge(bookPricing(ctx), chains, settlementAccount, quote.routeInputUsdc, STAGE),
    screenAddresses(ctx, settlementParties(quote), [chains.source, chains.destination], STAGE),
  ]);
  if (!withinVariance(quote.expectedCopm, repriced.expectedCopm)) {
    throw new ApiError("SLIPPAGE_LIMIT_EXCEEDED", BEFORE_ORDER);
  }

  const now = ctx.clock.now();
  const orderId = newId("ord", ctx.clock);
  // The pool's account this order's mint goes to and its legs send from (accounts.ts).
  const account = accountForNewOrder(ctx.settlement, orderId)?.address ?? settlementAccount;
  const burnPlanEnabled = ctx.caller.organization.burnPlanEnabled;
  const signer = ctx.settlement.burnPlanSigner;
  if (burnPlanEnabled && !signer)
    throw new ApiError("SETTLEMENT_ACCOUNT_INACTIVE", { ...BEFORE_ORDER, detail: "(no burn plan signer)" });
  const execution: OrderExecution = {
    chain: chains.source.name,
    chainId: chains.source.chainId,
    // The source chain's (for USDC already on the intermediate chain, that chain's).
    estimatedUserConfirmations: chains.source.confirmations,
    mode: burnPlanEnabled ? "signed_burn_plan" : "pending_burn_plan",
  };
  if (burnPlanEnabled && signer) {
    const steps = startsOnIntermediate(chains)
      ? depositPlanSteps({
          orderId,
          chains,
          totalDebitUsdc: quote.totalDebitUsdc,
          settlementAccount: account,
        })
      : burnPlanSteps({
          orderId,
          chains,
          totalDebitUsdc: quote.totalDebitUsdc,
          maxFeeUsdc: quote.transferUpfrontFeeUsdc,
          finalityThreshold: quote.finalityThreshold,
          settlementAccount: account,
        });
    execution.burnPlan = await signBurnPlan(signer, {
      orderId,
      quoteId: quote.id,
      depositor: quote.sourceAddress as `0x${string}`,
      chainId: chains.source.chainId,
      steps,
    });
  }

  const order: SettlementOrder = {
    id: orderId,
    organizationId,
    integrationId: ctx.caller.integrationId,
    quoteId: quote.id,
    idempotencyKey: request.idempotencyKey,
    reference: request.reference ?? null,
    status: "CREATED",
    health: "HEALTHY",
    fundsStatus: "IN_USER_WALLET",
    execution,
    creationResponse: "",
    burnTxHash: null,
    commitment: orderCommitment(orderId),
    settlementAccount: account,
    version: 0,
    createdAt: now,
    updatedAt: now,
  };
  order.creationResponse = JSON.stringify(orderView(order, quote));

  // Under the volume locks, in the transaction that records it: two orders cannot both slip under a limit.
  const inserted = await recordWithinVolumeLimits(
    ctx,
    {
      organizationId,
      userAddress: quote.sourceAddress,
      amountUsd: quote.sendAmountUsdc,
      limits: ctx.caller.organization,
      stage: STAGE,
    },
    async (db) => (await db.insert(settlementOrders).values(order).onConflictDoNothing().returning())[0],
  );
  return inserted?.creationResponse;
}
