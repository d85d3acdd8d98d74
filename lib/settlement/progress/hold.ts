import { and, eq, inArray } from "drizzle-orm";
import { settlementEvents, settlementOrders } from "../../../schema";
import { listedAmong } from "../../compliance";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import type { ServiceContext } from "../../kernel/context";
import { ApiError } from "../../kernel/errors/api-error";
import { newId } from "../../kernel/ids";
import { ProviderFailure } from "../../kernel/provider-failure";
import { settlementParties } from "../intake";
import { TIMELINE } from "../timeline";
import type { TimelineDetail } from "../timeline-entries";
import { recordOrderEvents } from "./events";
import type { OrderState } from "./state";

/**
 * Whether the order is held (docs/compliance.md, "Held orders"): a HELD entry not yet followed by the
 * operator's HOLD_RELEASED. A held order pays nothing forward; the operator's return still goes on.
 */
export function isHeld(state: OrderState): boolean {
  let held = false;
  for (const event of state.events) {
    if (event.kind === "HELD") held = true;
    if (event.kind === "HOLD_RELEASED") held = false;
  }
  return held;
}

/** The operator released a hold of this order once: screening never holds it again. */
function releasedOnce(state: OrderState): boolean {
  return state.events.some((event) => event.kind === "HOLD_RELEASED");
}

/**
 * Before the service pays an order's next leg forward: its parties screened again (the deny list and
 * the oracle on the source and destination chains). One listed since the order holds it, health
 * STUCK with a HELD entry (its fields), and the answer is true: nothing is paid until the operator
 * releases it or returns it. An oracle that does not answer is a provider failure: the order waits
 * and is looked at again, never paid unscreened.
 */
export async function holdIfListed(
  ctx: ServiceContext,
  state: OrderState,
  chains: { source: ConfiguredChain; destination: ConfiguredChain },
): Promise<boolean> {
  if (releasedOnce(state)) return false;
  const parties = settlementParties(state.quote);
  let listed: Set<string>;
  try {
    listed = await listedAmong(
      ctx,
      parties.map((party) => party.address),
      [chains.source, chains.destination],
      state.order.status,
    );
  } catch (error) {
    if (error instanceof ApiError && error.code === "SCREENING_UNAVAILABLE") {
      throw new ProviderFailure("unavailable", "sanctions-oracle", "the sanctions oracle did not answer");
    }
    throw error;
  }
  const fields = parties
    .filter((party) => listed.has(party.address.toLowerCase()))
    .map((party) => party.field);
  if (fields.length === 0) return false;
  await markHeld(ctx, state, { reason: "sanctions_listed", fields });
  return true;
}

async function markHeld(
  ctx: ServiceContext,
  state: OrderState,
  detail: TimelineDetail<"HELD">,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [marked] = await tx
      .update(settlementOrders)
      .set({ health: "STUCK", updatedAt: now })
      .where(
        and(eq(settlementOrders.id, state.order.id), inArray(settlementOrders.health, ["HEALTHY", "STUCK"])),
      )
      .returning({ id: settlementOrders.id });
    if (!marked) return;
    await tx.insert(settlementEvents).values({
      id: newId("evt", ctx.clock),
      orderId: state.order.id,
      kind: "HELD",
      status: state.order.status,
      fundsStatus: state.order.fundsStatus,
      detail,
      at: now,
    });
    // The partner hears the order stopped (health STUCK), as for any stop; the timeline says why.
    if (state.order.health === "HEALTHY")
      await recordOrderEvents(ctx, tx, state.order.id, [TIMELINE.HELD.webhook]);
  });
  ctx.log.warn("settlement order held: a party is listed", {
    orderId: state.order.id,
    status: state.order.status,
    fields: detail.fields,
  });
}
