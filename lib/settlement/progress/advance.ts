import { z } from "zod";
import type { ServiceContext } from "../../kernel/context";
import { defineJob } from "../../kernel/jobs/definition";
import { describeError } from "../../kernel/log";
import { ProviderFailure } from "../../kernel/provider-failure";
import { orderScope } from "../accounts";
import type { SettlementServices } from "../context";
import { observeBridge, sendBridge } from "../legs/bridge";
import { observeBridgeBack, sendBridgeBack } from "../legs/bridge-back";
import { attest, observeForwardedMint } from "../legs/circle";
import { deliver, exchange } from "../legs/exchange";
import { observeReturn, returnRequested, sendReturn } from "../legs/return";
import { isFinal } from "../lifecycle";
import { settlementChains } from "../pricing/prices";
import { setAsideByChainReset } from "./chain-reset";
import { holdIfListed, isHeld } from "./hold";
import { loadOrderState, type OrderState, recordedHash } from "./state";
import { move, type ProgressContext, type Step } from "./steps";

/** At most this many moves per job call; the rest happen in the next call. */
const MOVES_PER_CALL = 12;

export const advanceSettlementJob = defineJob<{ orderId: string }, SettlementServices>({
  kind: "settlement.advance",
  payload: z.object({ orderId: z.string().min(1) }),
  run: (ctx, { orderId }) => advanceOrder(ctx, orderId),
});

/** Asks for the order to be looked at again after `delaySeconds` (duplicates within a poll collapse). */
export async function scheduleAdvance(
  ctx: ServiceContext,
  orderId: string,
  delaySeconds: number,
): Promise<void> {
  await ctx.jobs.enqueue(
    advanceSettlementJob,
    { orderId },
    { delaySeconds, dedupeId: pollDedupeId(ctx, `advance:${orderId}`, delaySeconds) },
  );
}

/** One job per poll slot: asks for the same look within a poll collapse into one. */
export function pollDedupeId(ctx: ServiceContext, key: string, delaySeconds: number): string {
  const poll = ctx.config.SETTLEMENT_POLL_SECONDS * 1000;
  return `${key}:${Math.floor((ctx.clock.now().getTime() + delaySeconds * 1000) / poll)}`;
}

/** A wait grows by one poll for every this many polls an order has spent without moving. */
const POLLS_PER_STEP = 24;
/** And never grows past this many polls. */
const MAX_POLLS_APART = 12;

/**
 * How long an order waits before it is looked at again: one poll while its leg is young, then one
 * more poll for every POLLS_PER_STEP polls it has spent without moving (at the default 5 s: 5 s for
 * two minutes, 10 s to four, … at most a minute apart), so a burn Circle has not attested after half
 * an hour, or a route that takes an hour, costs the vendors a call a minute, not twelve.
 */
export function pollDelaySeconds(pollSeconds: number, waitingMs: number): number {
  const steps = Math.floor(Math.max(0, waitingMs) / (POLLS_PER_STEP * pollSeconds * 1000));
  return pollSeconds * Math.min(MAX_POLLS_APART, 1 + steps);
}

/**
 * Carries a burned order toward DELIVERED: each call observes the current leg through its provider
 * and moves the order as far as the chains allow, then schedules itself again while it must wait.
 * Safe to run twice at once or again after a crash: moves are compare-and-set and every payment
 * the settlement account makes is recorded before it is broadcast (payments/).
 */
export async function advanceOrder(ctx: ProgressContext, orderId: string): Promise<void> {
  for (let move = 0; move < MOVES_PER_CALL; move++) {
    const state = await loadOrderState(ctx, orderId);
    if (!state || isFinal(state.order.status) || state.order.status === "CREATED") return;
    if (setAsideByChainReset(state.events)) return;
    // Held for compliance: looked at again when the operator releases or returns it, not before.
    if (isHeld(state) && !returnRequested(state)) return;
    let step: Step;
    // A vendor that asked callers to stay away (a 429, the spent budget) is not asked again before then.
    let stayAwayMs = 0;
    try {
      // Every leg of the order receives and sends from the account its burn plan named.
      step = await advanceOnce(orderScope(ctx, state.order), state);
    } catch (error) {
      if (!(error instanceof ProviderFailure)) throw error;
      ctx.log.warn("settlement leg provider failed; will look again", { orderId, ...describeError(error) });
      stayAwayMs = error.retryAfterMs ?? 0;
      step = "wait";
    }
    if (step === "wait") {
      const waited = ctx.clock.now().getTime() - enteredAt(state).getTime();
      const delay = pollDelaySeconds(ctx.config.SETTLEMENT_POLL_SECONDS, waited);
      await scheduleAdvance(ctx, orderId, Math.max(delay, Math.ceil(stayAwayMs / 1000)));
      return;
    }
  }
  await scheduleAdvance(ctx, orderId, 0);
}

/** When the order came to its current status and funds status: the first entry of the run that left it there. */
function enteredAt(state: OrderState): Date {
  const { status, fundsStatus } = state.order;
  let at = state.order.updatedAt;
  for (let index = state.events.length - 1; index >= 0; index--) {
    const event = state.events[index];
    if (!event || event.status !== status || event.fundsStatus !== fundsStatus) break;
    at = event.at;
  }
  return at;
}

async function advanceOnce(ctx: ProgressContext, state: OrderState): Promise<Step> {
  const chains = settlementChains(ctx.chains, state.order.status, state.order.execution.chainId);
  const { order } = state;
  switch (order.status) {
    case "BURNED":
      if (order.fundsStatus !== "BURNED_ON_SOURCE") return attest(ctx, state, chains);
      // The first look after the burn report: its parties (the depositor among them) screened again.
      if (!returnRequested(state) && (await holdIfListed(ctx, state, chains))) return "wait";
      return move(ctx, state, { kind: "ATTESTATION_REQUESTED" });
    case "ATTESTED":
      return observeForwardedMint(ctx, state, chains);
    // A return goes from where the money is; a payment already recorded forward goes on; before the
    // service pays a leg forward for the first time, the order's parties are screened again (hold.ts).
    case "MINTED":
      if (await recordedHash(ctx.db, order.id, "route")) return sendBridge(ctx, state, chains);
      if (returnRequested(state)) return sendReturn(ctx, state, chains);
      return (await holdIfListed(ctx, state, chains)) ? "wait" : sendBridge(ctx, state, chains);
    case "ROUTING":
      return observeBridge(ctx, state, chains);
    case "ROUTED":
      if (order.fundsStatus !== "USDM_ON_DESTINATION") {
        const delivering = await recordedHash(ctx.db, order.id, "delivery");
        return !delivering && (await holdIfListed(ctx, state, chains)) ? "wait" : deliver(ctx, state, chains);
      }
      if (await recordedHash(ctx.db, order.id, "exchange")) return exchange(ctx, state, chains);
      if (returnRequested(state)) return sendBridgeBack(ctx, state, chains);
      return (await holdIfListed(ctx, state, chains)) ? "wait" : exchange(ctx, state, chains);
    case "RETURNING":
      switch (order.fundsStatus) {
        case "RETURNING_TO_INTERMEDIATE":
          return observeBridgeBack(ctx, state, chains);
        case "USDC_ON_INTERMEDIATE":
          return sendReturn(ctx, state, chains);
        default:
          return observeReturn(ctx, state, chains);
      }
    // Nothing to do: not burned yet, or at an end.
    case "CREATED":
    case "DELIVERED":
    case "RETURNED":
      return "wait";
    default:
      // A status added to ORDER_STATUSES fails to compile here until this switch handles it.
      return order.status satisfies never;
  }
}
