import { and, eq, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type OrderExecution, organizations, settlementOrders, settlementQuotes } from "../../schema";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { burnPlanSteps, signBurnPlan } from "./burns/plan";
import type { SettlementContext } from "./context";
import { assertIntakeOpen } from "./intake";
import { withinVariance } from "./pricing/arithmetic";
import { priceBridge, settlementChains } from "./pricing/prices";
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
    .select({ quote: settlementQuotes, underKey: settlementOrders, usedBy })
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

  if (found?.underKey) return replayOrConflict(found.underKey, request);
  const quote = found?.quote;
  if (!quote) throw new ApiError("QUOTE_NOT_FOUND", BEFORE_ORDER);
  if (found.usedBy) throw new ApiError("QUOTE_ALREADY_USED", BEFORE_ORDER);
  // A quote is good before its expiresAt, not at it.
  if (ctx.clock.now().getTime() >= quote.expiresAt.getTime())
    throw new ApiError("QUOTE_EXPIRED", BEFORE_ORDER);

  const settlementAccount = assertIntakeOpen(ctx, STAGE);
  const chains = settlementChains(ctx.chains, STAGE);
  const repriced = await priceBridge(
    ctx.providers.pricing,
    chains,
    settlementAccount,
    quote.routeInputUsdc,
    STAGE,
  );
  if (!withinVariance(quote.expectedCopm, repriced.expectedCopm)) {
    throw new ApiError("SLIPPAGE_LIMIT_EXCEEDED", BEFORE_ORDER);
  }

  const now = ctx.clock.now();
  const orderId = newId("ord", ctx.clock);
  const burnPlanEnabled = ctx.caller.organization.burnPlanEnabled;
  const signer = ctx.settlement.burnPlanSigner;
  if (burnPlanEnabled && !signer)
    throw new ApiError("SETTLEMENT_ACCOUNT_INACTIVE", { ...BEFORE_ORDER, detail: "(no burn plan signer)" });
  const execution: OrderExecution = {
    chain: chains.source.name,
    chainId: chains.source.chainId,
    estimatedUserConfirmations: chains.source.confirmations,
    mode: burnPlanEnabled ? "signed_burn_plan" : "pending_burn_plan",
  };
  if (burnPlanEnabled && signer) {
    const steps = burnPlanSteps({
      orderId,
      chains,
      totalDebitUsdc: quote.totalDebitUsdc,
      maxFeeUsdc: quote.transferUpfrontFeeUsdc,
      finalityThreshold: quote.finalityThreshold,
      settlementAccount,
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
    version: 0,
    createdAt: now,
    updatedAt: now,
  };
  order.creationResponse = JSON.stringify(orderView(order, quote));

  const [inserted] = await ctx.db.insert(settlementOrders).values(order).onConflictDoNothing().returning();
  if (inserted) return inserted.creationResponse;
  return resolveLostRace(ctx, request);
}

/**
 * The same key answers the first order only for the same request (as Stripe compares the request):
 * the quote and the reference, an absent reference being another request than a present one.
 */
function replayOrConflict(existing: SettlementOrder, request: OrderRequest): OrderCreation {
  const sameRequest =
    existing.quoteId === request.quoteId && existing.reference === (request.reference ?? null);
  if (!sameRequest) throw new ApiError("IDEMPOTENCY_CONFLICT", BEFORE_ORDER);
  return existing.creationResponse;
}

/** Another request inserted first (a retry in flight, or another key for this quote): see which. */
async function resolveLostRace(ctx: SettlementContext, request: OrderRequest): Promise<OrderCreation> {
  const rivals = await ctx.db
    .select()
    .from(settlementOrders)
    .where(
      and(
        eq(settlementOrders.organizationId, ctx.caller.organizationId),
        or(
          eq(settlementOrders.idempotencyKey, request.idempotencyKey),
          eq(settlementOrders.quoteId, request.quoteId),
        ),
      ),
    );
  const underKey = rivals.find((order) => order.idempotencyKey === request.idempotencyKey);
  if (underKey) return replayOrConflict(underKey, request);
  throw new ApiError("QUOTE_ALREADY_USED", BEFORE_ORDER);
}
