import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type OrderExecution, organizations, settlementOrders, settlementQuotes } from "../../schema";
import {
  deniedFirst,
  insertUnlessDenied,
  noneDenied,
  recordWithinVolumeLimits,
  screenOnOracles,
} from "../compliance";
import { orderCommitment } from "../kernel/chain/forwarding";
import { startingChains } from "../kernel/chain/source-chains";
import { createOnce } from "../kernel/db/create-once";
import type { Database } from "../kernel/db/database";
import { preparedOn } from "../kernel/db/prepared";
import { rowParameters } from "../kernel/db/row-parameters";
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
import { orderSummaryFacts } from "./views/order-summary";

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
 * Round trips: one read (quote, the order under this key, the order of this quote), one insert
 * (which also reads the deny list).
 */
export async function createOrder(ctx: SettlementContext, request: OrderRequest): Promise<OrderCreation> {
  const [found] = await orderReadQuery(ctx.db).execute({
    organizationId: ctx.caller.organizationId,
    quoteId: request.quoteId,
    idempotencyKey: request.idempotencyKey,
  });

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
        .select(REPLAYED)
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

/** Of an order already under the key, what a replay compares and answers. */
const REPLAYED = {
  quoteId: settlementOrders.quoteId,
  reference: settlementOrders.reference,
  creationResponse: settlementOrders.creationResponse,
};

/**
 * The quote, the order under the key (what a replay needs of it) and the order of the quote (its
 * id: that it exists), built once per database client (preparedOn): building the join's sixty
 * columns anew was half a millisecond of CPU an order, and reading them all a good part of the rest.
 */
function orderReadQuery(db: Database) {
  return preparedOn(db, ORDER_READ, (on) =>
    on
      .select({ quote: settlementQuotes, underKey: REPLAYED, ofQuote: { id: usedBy.id } })
      .from(organizations)
      .leftJoin(
        settlementQuotes,
        and(
          eq(settlementQuotes.id, sql.placeholder("quoteId")),
          eq(settlementQuotes.organizationId, organizations.id),
        ),
      )
      .leftJoin(
        settlementOrders,
        and(
          eq(settlementOrders.organizationId, organizations.id),
          eq(settlementOrders.idempotencyKey, sql.placeholder("idempotencyKey")),
        ),
      )
      .leftJoin(usedBy, eq(usedBy.quoteId, settlementQuotes.id))
      .where(eq(organizations.id, sql.placeholder("organizationId")))
      .prepare(ORDER_READ),
  );
}

const ORDER_READ = "settlement_orders_create_read";

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
  // Screened again at order: an address listed since its quote takes no order. The oracles here,
  // the deny list by the insert itself (noneDenied), which sees a listing made up to that statement.
  const parties = settlementParties(quote);
  // A party on the deny list is told so before any other refusal (docs/compliance.md).
  return deniedFirst(ctx, parties, STAGE, async () => {
    const [repriced] = await Promise.all([
      priceBridge(bookPricing(ctx), chains, settlementAccount, quote.routeInputUsdc, STAGE),
      screenOnOracles(ctx, parties, [chains.source, chains.destination], STAGE),
    ]);
    if (!withinVariance(quote.expectedCopm, repriced.expectedCopm)) {
      throw new ApiError("SLIPPAGE_LIMIT_EXCEEDED", BEFORE_ORDER);
    }

    const now = ctx.clock.now();
    const orderId = newId("ord", ctx.clock);
    // What binds the order's burn (or deposit) to it: in its plan's steps and its row.
    const commitment = orderCommitment(orderId);
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
            commitment,
            chains,
            totalDebitUsdc: quote.totalDebitUsdc,
            settlementAccount: account,
          })
        : burnPlanSteps({
            commitment,
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
      summaryFacts: "",
      burnTxHash: null,
      commitment,
      settlementAccount: account,
      version: 0,
      createdAt: now,
      updatedAt: now,
    };
    const view = orderView(order, quote);
    order.creationResponse = JSON.stringify(view);
    order.summaryFacts = orderSummaryFacts(view);

    const parameters = {
      ...orderRow.values(order),
      sourceParty: quote.sourceAddress,
      destinationParty: quote.destinationAddress,
    };
    // Under the volume locks, in the transaction that records it: two orders cannot both slip under a
    // limit. Nothing written with no party listed: another insert won (createOnce reads it).
    const inserted = await insertUnlessDenied(ctx, parties, STAGE, () =>
      recordWithinVolumeLimits(
        ctx,
        {
          organizationId,
          userAddress: quote.sourceAddress,
          amountUsd: quote.sendAmountUsdc,
          limits: ctx.caller.organization,
          stage: STAGE,
        },
        // Outside a transaction (no volume limit), the insert built once for the client; in one, anew.
        async (db) =>
          (db === ctx.db ? preparedOn(db, INSERT_ORDER, orderInsert) : orderInsert(db)).execute(parameters),
      ),
    );
    return inserted ? order.creationResponse : undefined;
  });
}

const INSERT_ORDER = "settlement_orders_create";
const orderRow = rowParameters(settlementOrders);

/**
 * `insert into settlement_orders (…) select $1::text, … where <neither party is denied> on conflict do
 * nothing returning id`, built as a prepared query: drizzle's building of the seventeen columns and
 * the burn plan's JSON was a millisecond of CPU an order.
 */
function orderInsert(db: Database) {
  // The quote's two parties (settlementParties), as screening names them.
  const screened = noneDenied([sql.placeholder("sourceParty"), sql.placeholder("destinationParty")]);
  return db
    .insert(settlementOrders)
    .select(sql`select ${orderRow.select} where ${screened}`)
    .onConflictDoNothing()
    .returning({ id: settlementOrders.id })
    .prepare(INSERT_ORDER);
}
