import { and, eq, isNull, sql, TransactionRollbackError } from "drizzle-orm";
import type { Hex } from "viem";
import { settlementEvents, settlementOrders } from "../../schema";
import { isUniqueViolation } from "../kernel/db/errors";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { describeError } from "../kernel/log";
import { orderScope } from "./accounts";
import { verifyBurn } from "./burns/verify";
import { verifyDeposit } from "./burns/verify-deposit";
import type { SettlementContext } from "./context";
import type { FundsStatus, OrderStatus } from "./lifecycle";
import { settlementChains, startsOnIntermediate } from "./pricing/prices";
import { scheduleAdvance } from "./progress/advance";
import { recordOrderEvents } from "./progress/events";
import { callerOrderRows } from "./read-order";
import { TIMELINE } from "./timeline";
import type { TimelineDetail } from "./timeline-entries";
import type { SettlementEvent, SettlementOrder } from "./views/order";
import { orderReadView } from "./views/order";

export interface BurnReport {
  orderId: string;
  status: Exclude<OrderStatus, "CREATED">;
  health: SettlementOrder["health"];
  fundsStatus: Exclude<FundsStatus, "IN_USER_WALLET">;
  burnTxHash: string;
}

/** An order with its burn recorded, as the burn endpoint answers it. */
function report(order: SettlementOrder): BurnReport {
  const { status, fundsStatus, burnTxHash } = order;
  // Only an order whose burn is recorded is reported: it has left CREATED and the user's wallet.
  if (status === "CREATED" || fundsStatus === "IN_USER_WALLET" || !burnTxHash) {
    throw new Error(`order ${order.id} is reported as burned without a recorded burn`);
  }
  return { orderId: order.id, status, health: order.health, fundsStatus, burnTxHash };
}

/**
 * Records a verified burn against its order. The same hash again answers the order as it is now;
 * a hash already used by another order of the organization is BURN_ALREADY_USED (another
 * organization's is verified, and refused, as any other order's burn: issue 37, finding 1). Setting the hash and the status is
 * one conditional update, and the database's unique index on the hash decides any race.
 */
export async function submitBurn(ctx: SettlementContext, orderId: string, txHash: Hex): Promise<BurnReport> {
  const hash = txHash.toLowerCase() as Hex;
  // The order, its timeline (for the event's view) and whichever order holds this hash: one statement.
  const rows = await callerOrderRows(ctx, orderId, hash);
  const [found] = rows;
  if (!found) throw new ApiError("ORDER_NOT_FOUND");
  const { order, quote } = found;
  if (order.burnTxHash === hash) return report(order);
  const stage = {
    stage: order.status,
    fundsStatus: order.fundsStatus,
    fundsMoved: order.fundsStatus !== "IN_USER_WALLET",
  };
  if (order.burnTxHash) {
    throw new ApiError("INVALID_BURN", {
      ...stage,
      detail: { en: "The order already has a verified burn.", es: "La orden ya tiene una quema verificada." },
    });
  }
  // No plan, no commitment on chain to bind a burn to this order: nothing can be accepted for it.
  if (order.execution.mode !== "signed_burn_plan") {
    throw new ApiError("INVALID_BURN", {
      ...stage,
      detail: {
        en: "The order has no burn plan (execution mode pending_burn_plan): no burn can be bound to it. Create a new order once the signed burn plan is enabled for the organization.",
        es: "La orden no tiene plan de quema (modo pending_burn_plan): ninguna quema puede asociarse a ella. Cree una nueva orden cuando el plan de quema firmado esté habilitado para la organización.",
      },
    });
  }
  if (found.burnHashOrder) throw new ApiError("BURN_ALREADY_USED", stage);

  // The account of the pool the order's plan names as the mint's recipient.
  const settlementAccount = orderScope(ctx, order).settlement.accountAddress;
  if (!settlementAccount) throw new ApiError("SETTLEMENT_ACCOUNT_INACTIVE", stage);
  const chains = settlementChains(ctx.chains, order.status, order.execution.chainId);
  const requiredConfirmations = Number(
    order.execution.estimatedUserConfirmations ?? chains.source.confirmations,
  );
  // USDC already on the intermediate chain is a transfer there, verified as such; else a CCTP burn.
  const deposit = startsOnIntermediate(chains);
  const burn = await (deposit ? verifyDeposit : verifyBurn)({
    orderId: order.id,
    chains,
    quote,
    settlementAccount,
    requiredConfirmations,
    txHash: hash,
  }).catch((error: unknown) => {
    if (error instanceof ApiError) throw error;
    ctx.log.warn("burn verification could not reach the source chain", describeError(error));
    throw new ApiError("PROVIDER_UNAVAILABLE", { ...stage, detail: `(${chains.source.name})` });
  });

  const now = ctx.clock.now();
  const kind = deposit ? "DEPOSIT_VERIFIED" : "BURN_VERIFIED";
  const verified = TIMELINE[kind];
  const detail: TimelineDetail<"BURN_VERIFIED"> | TimelineDetail<"DEPOSIT_VERIFIED"> = deposit
    ? {
        amount: burn.amount.toString(),
        blockNumber: burn.blockNumber.toString(),
        logIndex: burn.logIndex,
        depositedAt: burn.burnedAt.toISOString(),
      }
    : {
        amount: burn.amount.toString(),
        maxFee: burn.maxFee.toString(),
        blockNumber: burn.blockNumber.toString(),
        logIndex: burn.logIndex,
        burnedAt: burn.burnedAt.toISOString(),
      };
  const entry: SettlementEvent = {
    id: newId("evt", ctx.clock),
    orderId: order.id,
    kind,
    ...verified.moves,
    chainId: String(chains.source.chainId),
    txHash: hash,
    detail,
    at: now,
  };
  try {
    const burned = await ctx.db
      .transaction(async (tx) => {
        // The timeline entry rides along the update as a data-modifying CTE (one statement); an
        // update that matched nothing rolls it back.
        const timelineEntry = tx
          .$with("timeline_entry")
          .as(tx.insert(settlementEvents).values(entry).returning({ id: settlementEvents.id }));
        const [updated] = await tx
          .with(timelineEntry)
          .update(settlementOrders)
          .set({
            ...verified.moves,
            burnTxHash: hash,
            version: sql`${settlementOrders.version} + 1`,
            updatedAt: now,
          })
          .where(and(eq(settlementOrders.id, order.id), isNull(settlementOrders.burnTxHash)))
          .returning();
        if (!updated) {
          tx.rollback(); // throws: the entry goes with it
          return undefined;
        }
        // Nothing else moved the order since it was read: its view is what was read plus this entry.
        const untouched = updated.version === order.version + 1;
        const timeline = rows.flatMap((row) => (row.event ? [row.event] : []));
        await recordOrderEvents(
          ctx,
          tx,
          order.id,
          [verified.webhook],
          untouched
            ? {
                organizationId: updated.organizationId,
                integrationId: updated.integrationId,
                view: orderReadView(updated, quote, [...timeline, entry]),
              }
            : undefined,
        );
        return updated;
      })
      .catch((error: unknown) => {
        if (error instanceof TransactionRollbackError) return undefined;
        throw error;
      });
    if (burned) {
      // The cross-chain flow starts now; the cron sweep restarts it if this message is lost.
      await scheduleAdvance(ctx, burned.id, 0);
      return report(burned);
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("BURN_ALREADY_USED", stage);
    throw error;
  }
  // Another request recorded a burn for this order first: answer what it recorded.
  const [current] = await ctx.db.select().from(settlementOrders).where(eq(settlementOrders.id, order.id));
  if (current?.burnTxHash === hash) return report(current);
  throw new ApiError("INVALID_BURN", {
    ...stage,
    detail: { en: "The order already has a verified burn.", es: "La orden ya tiene una quema verificada." },
  });
}
