import { and, desc, eq } from "drizzle-orm";
import type { Hex } from "viem";
import { settlementEvents } from "../../../schema";
import { returnCommitment } from "../../kernel/chain/forwarding";
import type { Database } from "../../kernel/db/database";
import { mulDivDown, rescale } from "../../kernel/money";
import { BPS, RETURN_ROUTE_MAX_COST_BPS, ROUTE_SLIPPAGE_BPS, USDC_DECIMALS } from "../limits";
import type { SettlementChains } from "../pricing/prices";
import { entriesOf, markStuck, type OrderState, recordedHash } from "../progress/state";
import { move, type ProgressContext, type Step, sendAll, settlementAccount } from "../progress/steps";
import { timelineDetail } from "../timeline-entries";
import { BRIDGE_ATTEMPTS } from "./bridge";
import { arrivalOnChain } from "./bridge-arrival";
import { transferOnce } from "./exchange";
import type { LegOutcome } from "./outcome";
import { heldOnIntermediate } from "./return";
import { setAsideRefunded } from "./route-refund";
import { bridgeStatusOf } from "./vendor-polls";

/**
 * A return from the destination chain (docs/settlement.md, "Returns"): an order whose USDm reached
 * the destination chain but is returned (its exchange stayed below the floor past its retry window,
 * or the operator decided) sends that USDm back to USDC on the intermediate chain through the
 * aggregator (RETURNING, RETURNING_TO_INTERMEDIATE), then burns what it holds there back to the
 * user's source chain as any return does (return.ts), Celo having no CCTP domain. A way back the
 * aggregator refunded brings the order back to ROUTED with its USDm, and the way back is tried
 * afresh, at most BRIDGE_ATTEMPTS times; then the USDm goes to the user on the destination chain
 * (returnOnDestination).
 */

const USDM_DECIMALS = 18;
const RETURN_ROUTE = "return-route";

/**
 * The USDm the order holds on the destination chain: what its route (or the conversion) gave, or
 * what the aggregator gave back when it refunded the latest way back.
 */
function usdmHeld(state: OrderState): bigint {
  const last = state.events
    .filter((event) => event.kind === "ROUTE_COMPLETED" || event.kind === "RETURN_ROUTE_REFUNDED")
    .at(-1);
  const amount =
    last?.kind === "ROUTE_COMPLETED"
      ? timelineDetail("ROUTE_COMPLETED", last.detail)?.receivedUsdm
      : timelineDetail("RETURN_ROUTE_REFUNDED", last?.detail)?.amount;
  return BigInt(amount ?? "0");
}

/** ROUTED with USDm and a return decided: the settlement account routes the USDm back to USDC. */
export async function sendBridgeBack(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const held = usdmHeld(state);
  const tries = state.events.filter((event) => event.kind === "RETURN_ROUTE_SENT").length;
  if (held <= 0n) {
    await markStuck(ctx, state, "the return cannot leave the destination chain: the order holds no USDm");
    return "wait";
  }
  if (tries >= BRIDGE_ATTEMPTS) return returnOnDestination(ctx, state, chains, held);
  const account = settlementAccount(ctx);
  const sent = await sendAll(ctx, state, chains.destination, [
    {
      purpose: RETURN_ROUTE,
      // An exchange recorded meanwhile wins: the order met its floor after all.
      withdrawn: async (tx) => (await recordedHash(tx, state.order.id, "exchange")) !== undefined,
      prepare: () =>
        ctx.providers.routes.routeTransaction({
          from: chains.destination,
          to: chains.intermediate,
          tokenIn: chains.destination.contracts.usdm,
          tokenOut: chains.intermediate.contracts.usdc,
          amountIn: held,
          account,
          minAmountOut: mulDivDown(
            rescale(held, USDM_DECIMALS, USDC_DECIMALS),
            BPS - RETURN_ROUTE_MAX_COST_BPS,
            BPS,
          ),
          slippageBps: Number(ROUTE_SLIPPAGE_BPS),
          memo: returnCommitment(state.order.id),
        }),
    },
  ]);
  if (sent === "wait") return "wait";
  return move(ctx, state, {
    kind: "RETURN_ROUTE_SENT",
    chainId: chains.destination.chainId,
    ...(sent.hashes[RETURN_ROUTE] ? { txHash: sent.hashes[RETURN_ROUTE] } : {}),
    detail: { usdm: held.toString() },
  });
}

/** RETURNING_TO_INTERMEDIATE: the aggregator carries the USDm back; USDC arrives, or the USDm comes back. */
export async function observeBridgeBack(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const hash = await recordedHash(ctx.db, state.order.id, RETURN_ROUTE);
  if (!hash) throw new Error(`order ${state.order.id} is returning from the destination without a way back`);
  const status = await bridgeStatusOf(ctx, {
    txHash: hash,
    fromChainId: chains.destination.chainId,
    toChainId: chains.intermediate.chainId,
  });
  const usdc = chains.intermediate.contracts.usdc;
  const usdm = chains.destination.contracts.usdm;
  const token = status.receivedToken?.toLowerCase();
  if (status.status === "pending") return "wait";
  // What came back, on either chain, is what the named transaction's Transfer shows.
  const arrival = async (
    chain: SettlementChains["intermediate"] | SettlementChains["destination"],
    want: Hex,
  ) =>
    status.receivingTxHash
      ? arrivalOnChain(ctx.db, {
          orderId: state.order.id,
          known: new Set(state.events.map((event) => event.id)),
          chain,
          txHash: status.receivingTxHash.toLowerCase() as Hex,
          token: want,
          to: settlementAccount(ctx),
          reported: status.receivedAmount,
        })
      : ("missing" as const);
  if (status.status === "done" && (token === undefined || token === usdc.toLowerCase())) {
    const arrived = await arrival(chains.intermediate, usdc);
    if (arrived === "pending") return "wait";
    if (arrived !== "missing" && arrived !== "taken") {
      return move(ctx, state, {
        kind: "RETURN_ROUTE_COMPLETED",
        chainId: chains.intermediate.chainId,
        txHash: arrived.txHash,
        arrivedAt: arrived.minedAt,
        detail: { receivedUsdc: arrived.amount.toString(), logIndex: arrived.logIndex },
      });
    }
  }
  if (status.status === "refunded" && (token === undefined || token === usdm.toLowerCase())) {
    const back = await arrival(chains.destination, usdm);
    if (back === "pending") return "wait";
    if (back !== "missing" && back !== "taken") {
      const orderId = state.order.id;
      return move(
        ctx,
        state,
        {
          kind: "RETURN_ROUTE_REFUNDED",
          chainId: chains.destination.chainId,
          txHash: back.txHash,
          arrivedAt: back.minedAt,
          detail: {
            amount: back.amount.toString(),
            logIndex: back.logIndex,
            substatus: status.substatus ?? "REFUNDED",
          },
        },
        (tx) => setAsideRefunded(tx, orderId, RETURN_ROUTE),
      );
    }
  }
  await markStuck(
    ctx,
    state,
    `the aggregator reports the way back ${status.status}${status.substatus ? ` (${status.substatus})` : ""}${token ? ` with ${token}` : ""}${status.receivingTxHash ? `, which ${status.receivingTxHash} does not show arriving in the settlement account` : ""}`,
  );
  return "wait";
}

/**
 * Every way back was refunded: the return ends on the destination chain. The USDm goes to the
 * address the operator named (RETURN_REDIRECTED), else to the user's source address when it is a
 * plain account on every chain of the order (no code on the source, intermediate or destination
 * chain: whoever holds its key on the source chain holds it on these). A contract anywhere (a smart
 * wallet has no key, and its address may be someone else's on another chain) makes the order wait,
 * STUCK, for the operator to name one. What the order still holds on the intermediate chain (the fees
 * a returned order does not keep) goes to the same address there, so nothing is left behind. A name
 * given after the transfers were priced withdraws them before they are signed (the account lock).
 */
async function returnOnDestination(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
  held: bigint,
): Promise<Step> {
  const named = entriesOf(state, "RETURN_REDIRECTED").at(-1)?.detail?.to as Hex | undefined;
  const source = state.quote.sourceAddress as Hex;
  const plain =
    named === undefined &&
    (
      await Promise.all(
        [chains.source, chains.intermediate, chains.destination].map((chain) =>
          chain.client.getCode({ address: source }),
        ),
      )
    ).every((code) => !code || code === "0x");
  const to = named ?? (plain ? source : undefined);
  if (!to) {
    await markStuck(
      ctx,
      state,
      `the aggregator refunded ${BRIDGE_ATTEMPTS} ways back, and the source address is a contract on one of the order's chains: POST /admin/settlements/orders/${state.order.id}/return-to names where its money goes`,
    );
    return "wait";
  }
  const renamed = async (tx: Database) => (await latestRedirect(tx, state.order.id)) !== named;
  const usdm = await transferOnce(ctx, state, chains.destination, {
    purpose: "return-destination",
    token: chains.destination.contracts.usdm,
    to,
    amount: held,
    withdrawn: renamed,
  });
  if (usdm === "wait") return "wait";
  if (usdm.value !== held) {
    await markStuck(ctx, state, `the return ${usdm.txHash} shows no USDm Transfer of ${held} to ${to}`);
    return "wait";
  }
  const remainder = heldOnIntermediate(state);
  let usdc: { amount: string; txHash: Hex; chainId: number } | undefined;
  if (remainder > 0n) {
    const sent = await transferOnce(ctx, state, chains.intermediate, {
      purpose: "return-destination-usdc",
      token: chains.intermediate.contracts.usdc,
      to,
      amount: remainder,
    });
    if (sent === "wait") return "wait";
    if (sent.value !== remainder) {
      await markStuck(
        ctx,
        state,
        `the return ${sent.txHash} shows no USDC Transfer of ${remainder} to ${to}`,
      );
      return "wait";
    }
    usdc = { amount: remainder.toString(), txHash: sent.txHash, chainId: chains.intermediate.chainId };
  }
  return move(ctx, state, {
    kind: "RETURNED_ON_DESTINATION",
    chainId: chains.destination.chainId,
    txHash: usdm.txHash,
    detail: { amount: held.toString(), to, ...(usdc ? { usdc } : {}) },
  });
}

/** The address the operator named last for the order's return, if any, as the database has it now. */
async function latestRedirect(tx: Database, orderId: string): Promise<Hex | undefined> {
  const [named] = await tx
    .select({ detail: settlementEvents.detail })
    .from(settlementEvents)
    .where(and(eq(settlementEvents.orderId, orderId), eq(settlementEvents.kind, "RETURN_REDIRECTED")))
    .orderBy(desc(settlementEvents.at))
    .limit(1);
  return timelineDetail("RETURN_REDIRECTED", named?.detail)?.to as Hex | undefined;
}

/**
 * Every outcome the aggregator can report of a way back (the destination chain's USDm to USDC on the
 * intermediate chain) and what this leg does with it, for docs/outcomes.md.
 */
export const RETURN_ROUTE_OUTCOMES = {
  pending: {
    reported: "`PENDING` or `NOT_FOUND`",
    does: "asks again within the service's LI.FI budget",
    endsIn: "`RETURNING` / `RETURNING_TO_INTERMEDIATE`; `STUCK` past the deadline, and still asked",
  },
  done: {
    reported: "`DONE` with USDC on the intermediate chain in `receiving`",
    does: "reads the Transfer to the settlement account (`RETURN_ROUTE_COMPLETED`), then burns it home over CCTP",
    endsIn: "`RETURNED` / `RETURNED_TO_SOURCE`",
  },
  refunded: {
    reported: "`DONE`/`REFUNDED` or `FAILED`/`REFUNDED`, the USDm back in `receiving`",
    does: "reads the USDm back (`RETURN_ROUTE_REFUNDED`, the order `ROUTED` again) and tries a fresh way back, at most 3",
    endsIn: "`RETURNING` again",
  },
  refunded_every_time: {
    reported: "the third way back refunded",
    does: "sends the USDm (and what the order holds on the intermediate chain) to the user's own plain account, or waits `STUCK` for the address the operator names (`POST /admin/settlements/orders/{orderId}/return-to`)",
    endsIn: "`RETURNED` / `RETURNED_ON_DESTINATION`",
  },
  other: {
    reported: "`FAILED` or `INVALID` with nothing back, another token, or a receipt showing no such Transfer",
    does: "marks the order `STUCK` for the operator, still asked",
    endsIn: "`RETURNING`, `STUCK`",
  },
} satisfies Record<string, LegOutcome>;
