import { and, eq, inArray, notExists, notInArray } from "drizzle-orm";
import {
  settlementEvents,
  settlementMintScans,
  settlementMints,
  settlementOrders,
  settlementTransactions,
} from "../../../schema";
import type { ServiceContext } from "../../kernel/context";
import { newId } from "../../kernel/ids";
import { FINAL_STATUSES } from "../lifecycle";
import { TIMELINE } from "../timeline";
import { recordOrderEvents } from "./events";

/**
 * What the local stack does when its chains start afresh (they live in memory, the database does
 * not): every settlement-account transaction recorded on those chains is orphaned (it will never be
 * mined, and the fresh chain's nonces start over), and every order caught between its burn and its
 * delivery is marked STUCK with a CHAIN_RESET entry saying why, and is no longer advanced. Delivered
 * and created orders stay as they were and readable. Mints to the settlement account found on those
 * chains and not returned are forgotten (they are not on the fresh chains: returning one would burn
 * other money), and the search for mints starts again at the fresh chains' start. Only the local stack calls it, before the
 * worker runs, so nothing runs its after-work: the webhook sweep sends the stuck events it records.
 */
export async function reconcileResetChains(
  ctx: Pick<ServiceContext, "db" | "clock" | "log" | "afterWork">,
  chainIds: number[],
): Promise<{ orphanedTransactions: number; stuckOrders: number; forgottenMints: number }> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const orphaned = await tx
      .update(settlementTransactions)
      .set({ status: "orphaned", updatedAt: now })
      .where(
        and(
          inArray(settlementTransactions.chainId, chainIds),
          notInArray(settlementTransactions.status, ["orphaned"]),
        ),
      )
      .returning({ id: settlementTransactions.id });
    const stuck = await tx
      .update(settlementOrders)
      .set({ health: "STUCK", updatedAt: now })
      .where(
        and(
          notInArray(settlementOrders.status, ["CREATED", ...FINAL_STATUSES]),
          // An order set aside by an earlier restart is told once.
          notExists(
            tx
              .select({ id: settlementEvents.id })
              .from(settlementEvents)
              .where(
                and(
                  eq(settlementEvents.orderId, settlementOrders.id),
                  eq(settlementEvents.kind, "CHAIN_RESET"),
                ),
              ),
          ),
        ),
      )
      .returning();
    for (const order of stuck) {
      await tx.insert(settlementEvents).values({
        id: newId("evt", ctx.clock),
        orderId: order.id,
        kind: "CHAIN_RESET",
        status: order.status,
        fundsStatus: order.fundsStatus,
        detail: {
          reason:
            "the local chains were started afresh: this order's burn and payments are not on them, so it will not move again",
        },
        at: now,
      });
      await recordOrderEvents(ctx, tx, order.id, [TIMELINE.CHAIN_RESET.webhook]);
    }
    const forgotten = await tx
      .delete(settlementMints)
      .where(
        and(inArray(settlementMints.chainId, chainIds), notInArray(settlementMints.status, ["returned"])),
      )
      .returning({ id: settlementMints.id });
    await tx.delete(settlementMintScans).where(inArray(settlementMintScans.chainId, chainIds));
    if (orphaned.length > 0 || stuck.length > 0) {
      ctx.log.warn("local chains started afresh: in-flight settlement orders set aside", {
        orphanedTransactions: orphaned.length,
        stuckOrders: stuck.map((order) => order.id),
      });
    }
    return {
      orphanedTransactions: orphaned.length,
      stuckOrders: stuck.length,
      forgottenMints: forgotten.length,
    };
  });
}

/** Whether an order was set aside by a chain reset: nothing on the chains can move it any more. */
export function setAsideByChainReset(events: ReadonlyArray<{ kind: string }>): boolean {
  return events.some((event) => event.kind === "CHAIN_RESET");
}
