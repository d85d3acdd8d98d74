import { encodeFunctionData, type Hex, parseEventLogs } from "viem";
import { z } from "zod";
import { erc20Abi, mentoBrokerAbi, messageTransmitterV2Abi } from "../kernel/chain/abis";
import { decodeCctpBurnMessage } from "../kernel/chain/cctp-message";
import { addressToBytes32, orderHookData } from "../kernel/chain/forwarding";
import type { ConfiguredChain } from "../kernel/chain/registry";
import type { ServiceContext } from "../kernel/context";
import { defineJob } from "../kernel/jobs/definition";
import { describeError } from "../kernel/log";
import { mulDivDown } from "../kernel/money";
import { ProviderFailure } from "../kernel/provider-failure";
import { setAsideByChainReset } from "./chain-reset";
import type { SettlementServices } from "./context";
import { legDeadlines } from "./leg-deadlines";
import { BPS, ROUTE_SLIPPAGE_BPS } from "./limits";
import {
  detailOf,
  loadOrderState,
  type Move,
  markStuck,
  moveOrder,
  noteOnTimeline,
  type OrderState,
  recordedHash,
} from "./progress-state";
import { type SettlementChains, settlementChains } from "./quote-prices";
import { type FaultInjector, type Payment, sendOnce } from "./recorded-transactions";

type Step = "moved" | "wait";
type ProgressContext = SettlementServices & { faults?: FaultInjector };

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
  const poll = ctx.config.SETTLEMENT_POLL_SECONDS * 1000;
  const slot = Math.floor((ctx.clock.now().getTime() + delaySeconds * 1000) / poll);
  await ctx.jobs.enqueue(
    advanceSettlementJob,
    { orderId },
    { delaySeconds, dedupeId: `advance:${orderId}:${slot}` },
  );
}

/**
 * Carries a burned order toward DELIVERED: each call observes the current leg through its provider
 * and moves the order as far as the chains allow, then schedules itself again while it must wait.
 * Safe to run twice at once or again after a crash: moves are compare-and-set and every payment
 * the settlement account makes is recorded before it is broadcast (recorded-transactions.ts).
 */
export async function advanceOrder(ctx: ProgressContext, orderId: string): Promise<void> {
  for (let move = 0; move < MOVES_PER_CALL; move++) {
    const state = await loadOrderState(ctx, orderId);
    if (!state || state.order.status === "DELIVERED" || state.order.status === "CREATED") return;
    if (setAsideByChainReset(state.events)) return;
    let step: Step;
    try {
      step = await advanceOnce(ctx, state);
    } catch (error) {
      if (!(error instanceof ProviderFailure)) throw error;
      ctx.log.warn("settlement leg provider failed; will look again", { orderId, ...describeError(error) });
      step = "wait";
    }
    if (step === "wait") {
      await scheduleAdvance(ctx, orderId, ctx.config.SETTLEMENT_POLL_SECONDS);
      return;
    }
  }
  await scheduleAdvance(ctx, orderId, 0);
}

async function advanceOnce(ctx: ProgressContext, state: OrderState): Promise<Step> {
  const chains = settlementChains(ctx.chains, state.order.status);
  const { order } = state;
  switch (order.status) {
    case "BURNED":
      return order.fundsStatus === "BURNED_ON_SOURCE"
        ? move(ctx, state, {
            status: "BURNED",
            fundsStatus: "AWAITING_ATTESTATION",
            kind: "ATTESTATION_REQUESTED",
          })
        : attest(ctx, state, chains);
    case "ATTESTED":
      return observeForwardedMint(ctx, state, chains);
    case "MINTED":
      return sendRoute(ctx, state, chains);
    case "ROUTING":
      return observeRoute(ctx, state, chains);
    case "ROUTED":
      return order.fundsStatus === "USDM_ON_DESTINATION"
        ? exchange(ctx, state, chains)
        : deliver(ctx, state, chains);
    default:
      return "wait";
  }
}

/** Moves the order; if another job moved it first the next look sees that, so either way: look again. */
async function move(ctx: ProgressContext, state: OrderState, next: Move): Promise<Step> {
  await moveOrder(ctx, state, next);
  return "moved";
}

function burnHash(state: OrderState): Hex {
  if (!state.order.burnTxHash) throw new Error(`order ${state.order.id} has no burn`);
  return state.order.burnTxHash as Hex;
}

function settlementAccount(ctx: SettlementServices): Hex {
  const account = ctx.settlement.accountAddress;
  if (!account) throw new ProviderFailure("unavailable", "settlement", "no settlement account is configured");
  return account;
}

async function attest(ctx: ProgressContext, state: OrderState, chains: SettlementChains): Promise<Step> {
  const attestation = await ctx.providers.legs.attestation.attestation({
    sourceDomain: chains.source.cctpDomain,
    burnTxHash: burnHash(state),
  });
  if (attestation.status !== "complete") {
    if (attestation.delayReason) await noteDelay(ctx, state, attestation.delayReason);
    return "wait";
  }
  // The nonce is what finds the mint; an answer without one is not an attestation to act on yet.
  if (!attestation.eventNonce) return "wait";
  return move(ctx, state, {
    status: "ATTESTED",
    fundsStatus: "AWAITING_ATTESTATION",
    kind: "ATTESTED",
    chainId: chains.source.chainId,
    txHash: burnHash(state),
    detail: {
      eventNonce: attestation.eventNonce,
      // Kept so the service can relay the mint itself if Circle's forward fails or is late.
      ...(attestation.message ? { message: attestation.message } : {}),
      ...(attestation.attestation ? { attestation: attestation.attestation } : {}),
      ...(attestation.forwardTxHash ? { forwardTxHash: attestation.forwardTxHash } : {}),
      ...(attestation.feeExecuted !== undefined ? { feeExecuted: attestation.feeExecuted.toString() } : {}),
    },
  });
}

/** Circle says why it waits (its fee above the burn's maxFee, …): on the timeline once per reason. */
async function noteDelay(ctx: ProgressContext, state: OrderState, reason: string): Promise<void> {
  if (detailOf(state, "ATTESTATION_DELAYED")?.reason === reason) return;
  await noteOnTimeline(ctx, state.order.id, "ATTESTATION_DELAYED", { reason });
}

async function observeForwardedMint(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const attested = detailOf(state, "ATTESTED") ?? {};
  const eventNonce = hexOrUndefined(attested.eventNonce);
  if (!eventNonce) {
    await markStuck(ctx, state, "the attestation carries no message nonce to find the mint by");
    return "wait";
  }
  const attestation = await ctx.providers.legs.attestation.attestation({
    sourceDomain: chains.source.cctpDomain,
    burnTxHash: burnHash(state),
  });
  const mint = await ctx.providers.legs.forwardedMint.forwardedMint({
    eventNonce,
    mintRecipient: settlementAccount(ctx),
    ...(attestation.forwardTxHash ? { forwardTxHash: attestation.forwardTxHash } : {}),
  });
  if (!mint) {
    const attestedAt = state.events.filter((event) => event.kind === "ATTESTED").at(-1)?.at;
    const overdue =
      attestedAt !== undefined &&
      ctx.clock.now().getTime() - attestedAt.getTime() >= legDeadlines(ctx.config).ATTESTED * 1000;
    if (attestation.forwardState !== "failed" && !overdue) return "wait";
    return relayMessage(ctx, state, chains, {
      eventNonce,
      message: hexOrUndefined(attested.message) ?? attestation.message,
      attestation: hexOrUndefined(attested.attestation) ?? attestation.attestation,
      why: attestation.forwardState === "failed" ? "Circle's forward failed" : "Circle's forward is overdue",
    });
  }
  if (mint.amount < state.quote.routeInputUsdc) {
    await markStuck(
      ctx,
      state,
      `the forwarded mint (${mint.amount}) is less than the route needs (${state.quote.routeInputUsdc})`,
    );
    return "wait";
  }
  const relayed = (await recordedHash(ctx, state.order.id, "relay")) === mint.txHash;
  return move(ctx, state, {
    status: "MINTED",
    fundsStatus: "USDC_ON_INTERMEDIATE",
    kind: "FORWARDED_MINT",
    chainId: chains.intermediate.chainId,
    txHash: mint.txHash,
    detail: {
      amount: mint.amount.toString(),
      feeCollected: mint.feeCollected.toString(),
      // What the burn allowed Circle and it did not take: it stays with the order (docs/settlement.md).
      feeUnusedUsdc: (state.quote.transferUpfrontFeeUsdc - mint.feeCollected).toString(),
      mintedBy: relayed ? "service" : "circle",
    },
  });
}

/**
 * The service mints the burn itself: it relays Circle's attested message with `receiveMessage` on the
 * intermediate chain, a recorded payment like every other (recorded-transactions.ts). Only a message
 * that is this order's burn is relayed (its nonce, the settlement account as recipient, the burned
 * total, the order's commitment, no destination caller); a nonce already received needs no relay:
 * the mint is found by it on the next look.
 */
async function relayMessage(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
  attested: { eventNonce: Hex; message?: Hex | undefined; attestation?: Hex | undefined; why: string },
): Promise<Step> {
  const transmitter = chains.intermediate.contracts.messageTransmitter;
  if (!attested.message || !attested.attestation || !transmitter) {
    await markStuck(
      ctx,
      state,
      `${attested.why}, and there is no attested message or transmitter to relay it`,
    );
    return "wait";
  }
  const decoded = decodeCctpBurnMessage(attested.message);
  const ours =
    decoded !== undefined &&
    decoded.nonce.toLowerCase() === attested.eventNonce.toLowerCase() &&
    decoded.destinationDomain === chains.intermediate.cctpDomain &&
    BigInt(decoded.destinationCaller) === 0n &&
    decoded.mintRecipient.toLowerCase() === addressToBytes32(settlementAccount(ctx)) &&
    decoded.amount === state.quote.totalDebitUsdc &&
    decoded.hookData.toLowerCase() === orderHookData(state.order.id).toLowerCase();
  if (!ours) {
    await markStuck(ctx, state, `${attested.why}, and the attested message is not this order's burn`);
    return "wait";
  }
  const used = await chains.intermediate.client.readContract({
    address: transmitter,
    abi: messageTransmitterV2Abi,
    functionName: "usedNonces",
    args: [attested.eventNonce],
  });
  if (used !== 0n) return "wait";
  const message = attested.message;
  const signatures = attested.attestation;
  const sent = await sendAll(ctx, state, chains.intermediate, [
    {
      purpose: "relay",
      prepare: async () => ({
        to: transmitter,
        data: encodeFunctionData({
          abi: messageTransmitterV2Abi,
          functionName: "receiveMessage",
          args: [message, signatures],
        }),
        value: 0n,
      }),
    },
  ]);
  return sent === "wait" ? "wait" : "moved";
}

function hexOrUndefined(value: unknown): Hex | undefined {
  return typeof value === "string" && /^0x[0-9a-fA-F]*$/.test(value) ? (value as Hex) : undefined;
}

/** One payment of the settlement account for an order's leg (see recorded-transactions.ts). */
type LegPayment = Omit<Payment, "orderId" | "chain" | "account">;

/**
 * Makes an order's payments on a chain in order; waits on the first not yet made with the chain's
 * confirmations. A reverted payment (or the allowance it needed) marks the order STUCK.
 */
async function sendAll(
  ctx: ProgressContext,
  state: OrderState,
  chain: ConfiguredChain,
  payments: LegPayment[],
): Promise<{ hashes: Record<string, Hex> } | "wait"> {
  const signer = ctx.settlement.accountSigner;
  if (!signer) {
    await markStuck(ctx, state, "no settlement account signer is configured");
    return "wait";
  }
  const hashes: Record<string, Hex> = {};
  for (const payment of payments) {
    const outcome = await sendOnce(ctx, { ...payment, orderId: state.order.id, chain, account: signer });
    if (outcome.state === "pending") return "wait";
    if (outcome.state === "refused") {
      // Looked at again every poll: it goes out as soon as it can.
      await markStuck(ctx, state, `the ${outcome.purpose} cannot be sent now: ${outcome.reason}`);
      return "wait";
    }
    if (outcome.state === "reverted") {
      await markStuck(ctx, state, `the ${outcome.purpose} transaction ${outcome.hash} reverted`);
      return "wait";
    }
    hashes[payment.purpose] = outcome.hash;
    ctx.faults?.at("after-confirm", payment.purpose);
  }
  return { hashes };
}

async function sendRoute(ctx: ProgressContext, state: OrderState, chains: SettlementChains): Promise<Step> {
  const account = settlementAccount(ctx);
  const sent = await sendAll(ctx, state, chains.intermediate, [
    {
      purpose: "route",
      // A fresh route (LI.FI quotes afresh) only when none is recorded for the order.
      prepare: () =>
        ctx.providers.routes.routeTransaction({
          from: chains.intermediate,
          to: chains.destination,
          tokenIn: chains.intermediate.contracts.usdc,
          tokenOut: chains.destination.contracts.usdm,
          amountIn: state.quote.routeInputUsdc,
          account,
          minAmountOut: mulDivDown(state.quote.expectedUsdm, BPS - ROUTE_SLIPPAGE_BPS, BPS),
          slippageBps: Number(ROUTE_SLIPPAGE_BPS),
        }),
    },
  ]);
  if (sent === "wait") return "wait";
  return move(ctx, state, {
    status: "ROUTING",
    fundsStatus: "IN_TRANSIT_TO_DESTINATION",
    kind: "ROUTE_SENT",
    chainId: chains.intermediate.chainId,
    ...(sent.hashes.route ? { txHash: sent.hashes.route } : {}),
  });
}

async function observeRoute(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const routeHash = await recordedHash(ctx, state.order.id, "route");
  if (!routeHash) throw new Error(`order ${state.order.id} is ROUTING without a recorded route transaction`);
  const status = await ctx.providers.legs.route.status({
    txHash: routeHash,
    fromChainId: chains.intermediate.chainId,
    toChainId: chains.destination.chainId,
  });
  if (status.status === "failed") {
    await markStuck(ctx, state, `the aggregator reports ${status.substatus ?? "a failure"}`);
    return "wait";
  }
  if (status.status !== "done" || status.receivedAmount === undefined) return "wait";
  return move(ctx, state, {
    status: "ROUTED",
    fundsStatus: "USDM_ON_DESTINATION",
    kind: "ROUTE_COMPLETED",
    chainId: chains.destination.chainId,
    ...(status.receivingTxHash ? { txHash: status.receivingTxHash } : {}),
    detail: { receivedUsdm: status.receivedAmount.toString() },
  });
}

async function exchange(ctx: ProgressContext, state: OrderState, chains: SettlementChains): Promise<Step> {
  const received = BigInt(String(detailOf(state, "ROUTE_COMPLETED")?.receivedUsdm ?? "0"));
  const { usdm, copm } = chains.destination.contracts;
  const broker = chains.destination.contracts.broker;
  if (!broker || received === 0n)
    throw new Error(`order ${state.order.id} cannot exchange: no broker or no USDm`);
  const sent = await sendAll(ctx, state, chains.destination, [
    {
      purpose: "exchange",
      // Priced afresh only when no exchange is recorded: a recorded one is watched as signed.
      prepare: async () => {
        const quote = await ctx.providers.pricing.exchange.quoteExchange({
          tokenIn: usdm,
          tokenOut: copm,
          amountIn: received,
        });
        if (quote.amountOut < state.quote.copAmountMin) {
          return {
            refused: `Mento now gives ${quote.amountOut} COPm, below the floor ${state.quote.copAmountMin}`,
          };
        }
        return {
          allowance: { token: usdm, spender: broker, amount: received },
          to: broker,
          data: encodeFunctionData({
            abi: mentoBrokerAbi,
            functionName: "swapIn",
            args: [quote.exchangeProvider, quote.exchangeId, usdm, copm, received, state.quote.copAmountMin],
          }),
          value: 0n,
        };
      },
    },
  ]);
  if (sent === "wait") return "wait";
  const exchangeHash = sent.hashes.exchange as Hex;
  const receipt = await chains.destination.client.getTransactionReceipt({ hash: exchangeHash });
  const account = settlementAccount(ctx).toLowerCase();
  const bought = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).find(
    (log) => log.address.toLowerCase() === copm.toLowerCase() && log.args.to.toLowerCase() === account,
  );
  if (!bought) throw new Error(`the exchange ${exchangeHash} shows no COPm to the settlement account`);
  return move(ctx, state, {
    status: "ROUTED",
    fundsStatus: "COPM_ON_DESTINATION",
    kind: "EXCHANGED",
    chainId: chains.destination.chainId,
    txHash: exchangeHash,
    detail: { usdmIn: received.toString(), copmOut: bought.args.value.toString() },
  });
}

async function deliver(ctx: ProgressContext, state: OrderState, chains: SettlementChains): Promise<Step> {
  const amount = BigInt(String(detailOf(state, "EXCHANGED")?.copmOut ?? "0"));
  const { copm } = chains.destination.contracts;
  const destination = state.quote.destinationAddress as Hex;
  if (amount < state.quote.copAmountMin)
    throw new Error(`order ${state.order.id} has ${amount} COPm, below its floor`);
  const sent = await sendAll(ctx, state, chains.destination, [
    {
      purpose: "delivery",
      prepare: async () => ({
        to: copm,
        data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [destination, amount] }),
        value: 0n,
      }),
    },
  ]);
  if (sent === "wait") return "wait";
  const deliveryHash = sent.hashes.delivery as Hex;
  // DELIVERED only on the Transfer read back from the successful receipt.
  const receipt = await chains.destination.client.getTransactionReceipt({ hash: deliveryHash });
  const delivered = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).find(
    (log) =>
      log.address.toLowerCase() === copm.toLowerCase() &&
      log.args.to.toLowerCase() === destination.toLowerCase() &&
      log.args.value >= state.quote.copAmountMin,
  );
  if (receipt.status !== "success" || !delivered) {
    await markStuck(ctx, state, `the delivery ${deliveryHash} shows no COPm Transfer of at least the floor`);
    return "wait";
  }
  return move(ctx, state, {
    status: "DELIVERED",
    fundsStatus: "DELIVERED_TO_DESTINATION",
    kind: "DELIVERED",
    chainId: chains.destination.chainId,
    txHash: deliveryHash,
    detail: { copm: delivered.args.value.toString(), to: destination },
  });
}
