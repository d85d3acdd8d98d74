import { encodeFunctionData, type Hex } from "viem";
import { messageTransmitterV2Abi } from "../kernel/chain/abis";
import { decodeCctpBurnMessage } from "../kernel/chain/cctp-message";
import { addressToBytes32, orderHookData } from "../kernel/chain/forwarding";
import type { ConfiguredChain } from "../kernel/chain/registry";
import { legOverdue } from "./leg-deadlines";
import { detailOf, markStuck, noteOnce, type OrderState, recordedHash } from "./progress-state";
import {
  burnHash,
  hexOrUndefined,
  move,
  type ProgressContext,
  type Step,
  sendAll,
  settlementAccount,
} from "./progress-steps";
import type { SettlementChains } from "./quote-prices";

/**
 * Circle's leg of a settlement: the attestation of the user's burn (BURNED → ATTESTED) and the
 * forwarded mint to the settlement account (ATTESTED → MINTED), relayed by the service itself when
 * Circle's forward failed or is overdue.
 */

export async function attest(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const attestation = await ctx.providers.legs.attestation.attestation({
    sourceDomain: chains.source.cctpDomain,
    burnTxHash: burnHash(state),
  });
  if (attestation.status !== "complete") {
    if (attestation.delayReason) await noteOnce(ctx, state, "ATTESTATION_DELAYED", attestation.delayReason);
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

export async function observeForwardedMint(
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
    const overdue = attestedAt !== undefined && legOverdue(ctx, "ATTESTED", attestedAt);
    if (attestation.forwardState !== "failed" && !overdue) return "wait";
    return relayAttestedMessage(ctx, state, {
      chain: chains.intermediate,
      purpose: "relay",
      eventNonce,
      message: hexOrUndefined(attested.message) ?? attestation.message,
      attestation: hexOrUndefined(attested.attestation) ?? attestation.attestation,
      mintRecipient: settlementAccount(ctx),
      amount: state.quote.totalDebitUsdc,
      hookData: orderHookData(state.order.id),
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
  const relayed = (await recordedHash(ctx.db, state.order.id, "relay")) === mint.txHash;
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

/** What a relayed message must be: one burn, to one recipient, of one amount, with one commitment. */
export interface RelayedBurn {
  /** The chain the message mints on, with its MessageTransmitterV2. */
  chain: ConfiguredChain;
  /** The recorded payment's purpose: one relay per purpose and order. */
  purpose: string;
  eventNonce: Hex;
  message: Hex | undefined;
  attestation: Hex | undefined;
  mintRecipient: Hex;
  amount: bigint;
  hookData: Hex;
  /** Why the service relays, for the operator when it cannot. */
  why: string;
}

/**
 * The service mints a burn itself: it relays Circle's attested message with `receiveMessage`, a
 * recorded payment like every other (recorded-transactions.ts). Only a message that is the expected
 * burn is relayed (its nonce, this chain's domain, no destination caller, the recipient, the burned
 * amount, the commitment); a nonce already received needs no relay: the mint is found by it on the
 * next look.
 */
export async function relayAttestedMessage(
  ctx: ProgressContext,
  state: OrderState,
  relay: RelayedBurn,
): Promise<Step> {
  const transmitter = relay.chain.contracts.messageTransmitter;
  if (!relay.message || !relay.attestation || !transmitter) {
    await markStuck(ctx, state, `${relay.why}, and there is no attested message or transmitter to relay it`);
    return "wait";
  }
  const decoded = decodeCctpBurnMessage(relay.message);
  const expected =
    decoded !== undefined &&
    decoded.nonce.toLowerCase() === relay.eventNonce.toLowerCase() &&
    decoded.destinationDomain === relay.chain.cctpDomain &&
    BigInt(decoded.destinationCaller) === 0n &&
    decoded.mintRecipient.toLowerCase() === addressToBytes32(relay.mintRecipient) &&
    decoded.amount === relay.amount &&
    decoded.hookData.toLowerCase() === relay.hookData.toLowerCase();
  if (!expected) {
    await markStuck(ctx, state, `${relay.why}, and the attested message is not this order's burn`);
    return "wait";
  }
  const used = await relay.chain.client.readContract({
    address: transmitter,
    abi: messageTransmitterV2Abi,
    functionName: "usedNonces",
    args: [relay.eventNonce],
  });
  if (used !== 0n) return "wait";
  const message = relay.message;
  const signatures = relay.attestation;
  const sent = await sendAll(ctx, state, relay.chain, [
    {
      purpose: relay.purpose,
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
