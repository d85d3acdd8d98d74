import { encodeFunctionData, type Hex } from "viem";
import { messageTransmitterV2Abi } from "../../kernel/chain/abis";
import { decodeCctpBurnMessage } from "../../kernel/chain/cctp-message";
import { addressToBytes32, orderHookData } from "../../kernel/chain/forwarding";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import type { PaymentRequest } from "../payments";
import type { SettlementChains } from "../pricing/prices";
import { detailOf, markStuck, noteOnce, noteUnless, type OrderState, recordedHash } from "../progress/state";
import {
  burnHash,
  hexOrUndefined,
  move,
  type ProgressContext,
  type Step,
  sendAll,
  settlementAccount,
} from "../progress/steps";
import { legOverdue } from "./deadlines";
import type { ForwardedMint } from "./ports";
import { askReattestation, attestationOfBurn, type VerifiedBurnMessage } from "./vendor-polls";

/**
 * Circle's leg of a settlement: the attestation of the user's burn (BURNED → ATTESTED) and the
 * forwarded mint to the settlement account (ATTESTED → MINTED), relayed by the service itself when
 * Circle's forward failed or is overdue.
 */

/** The order's burn as its CCTP message must carry it: what the burn verification checked. */
function orderBurn(ctx: ProgressContext, state: OrderState, chains: SettlementChains): VerifiedBurnMessage {
  return {
    sourceDomain: chains.source.cctpDomain,
    burnTxHash: burnHash(state),
    destinationDomain: chains.intermediate.cctpDomain,
    mintRecipient: settlementAccount(ctx),
    amount: state.quote.totalDebitUsdc,
    hookData: orderHookData(state.order.id),
  };
}

/** When the order's burn was mined (BURN_VERIFIED's block time; the chain's word for older orders). */
async function burnedAt(state: OrderState, chains: SettlementChains): Promise<Date | undefined> {
  const verified = detailOf(state, "BURN_VERIFIED");
  if (verified?.burnedAt) return new Date(verified.burnedAt);
  if (!verified?.blockNumber) return undefined;
  const block = await chains.source.client.getBlock({ blockNumber: BigInt(verified.blockNumber) });
  return new Date(Number(block.timestamp) * 1000);
}

/**
 * Who minted, for the timeline: the service's own relay (its recorded payment, or its account as the
 * caller), Circle's Forwarding Service (the transaction Iris reported), or anyone else who relayed
 * the attested message (`other`: the order names the caller).
 */
export async function mintedBy(
  ctx: ProgressContext,
  state: OrderState,
  purpose: string,
  mint: ForwardedMint,
  /** The transaction Iris names as Circle's forward, if it named one. */
  forwardTxHash: Hex | undefined,
): Promise<{ mintedBy: "service" | "circle" | "other"; mintCaller: Hex }> {
  const account = ctx.settlement.accountAddress?.toLowerCase();
  const relayed =
    (await recordedHash(ctx.db, state.order.id, purpose)) === mint.txHash ||
    mint.caller.toLowerCase() === account;
  const forwarded = forwardTxHash?.toLowerCase() === mint.txHash.toLowerCase();
  return { mintedBy: relayed ? "service" : forwarded ? "circle" : "other", mintCaller: mint.caller };
}

export async function attest(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const attestation = await attestationOfBurn(ctx, orderBurn(ctx, state, chains));
  if (attestation.status !== "complete") {
    if (attestation.delayReason) await noteOnce(ctx, state, "ATTESTATION_DELAYED", attestation.delayReason);
    return "wait";
  }
  // The nonce is what finds the mint; an answer without one is not an attestation to act on yet.
  if (!attestation.eventNonce) return "wait";
  return move(ctx, state, {
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
  const attested = detailOf(state, "ATTESTED");
  const eventNonce = hexOrUndefined(attested?.eventNonce);
  if (!eventNonce) {
    await markStuck(ctx, state, "the attestation carries no message nonce to find the mint by");
    return "wait";
  }
  const after = await burnedAt(state, chains);
  const findMint = (forwardTxHash: Hex | undefined) =>
    ctx.providers.legs.forwardedMint.forwardedMint({
      eventNonce,
      mintRecipient: settlementAccount(ctx),
      after,
      ...(forwardTxHash ? { forwardTxHash } : {}),
    });
  // The chain first, by the message's nonce: a mint already there needs no word from Iris, whose
  // 35 requests a second all waiting orders share. Iris is asked while it is not (its forward may
  // have failed), and to tell Circle's forward from another relayer's when the attestation did not.
  const attestedForward = hexOrUndefined(attested?.forwardTxHash);
  const onChain = await findMint(attestedForward);
  const knownForward = onChain && attestedForward?.toLowerCase() === onChain.txHash.toLowerCase();
  const ownRelay = onChain && onChain.caller.toLowerCase() === ctx.settlement.accountAddress?.toLowerCase();
  if (onChain && (knownForward || ownRelay))
    return mintForwarded(ctx, state, chains, onChain, attestedForward);
  const attestation = await attestationOfBurn(ctx, orderBurn(ctx, state, chains));
  const mint =
    onChain ??
    (attestation.forwardTxHash && attestation.forwardTxHash !== attestedForward
      ? await findMint(attestation.forwardTxHash)
      : undefined);
  if (!mint) {
    const attestedAt = state.events.filter((event) => event.kind === "ATTESTED").at(-1)?.at;
    const overdue = attestedAt !== undefined && legOverdue(ctx, "ATTESTED", attestedAt);
    if (attestation.forwardState !== "failed" && !overdue) return "wait";
    return relayAttestedMessage(ctx, state, {
      chain: chains.intermediate,
      purpose: "relay",
      eventNonce,
      // Iris's message as it stands now (signed again once an expired one was re-attested), else the one kept.
      message: attestation.message ?? hexOrUndefined(attested?.message),
      attestation: attestation.message ? attestation.attestation : hexOrUndefined(attested?.attestation),
      mintRecipient: settlementAccount(ctx),
      amount: state.quote.totalDebitUsdc,
      hookData: orderHookData(state.order.id),
      reason: attestation.forwardState === "failed" ? "forward_failed" : "forward_overdue",
      why: attestation.forwardState === "failed" ? "Circle's forward failed" : "Circle's forward is overdue",
    });
  }
  return mintForwarded(ctx, state, chains, mint, attestation.forwardTxHash);
}

/** The order's mint found on chain: FORWARDED_MINT with who minted it, or STUCK when short of the route's input. */
async function mintForwarded(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
  mint: ForwardedMint,
  forwardTxHash: Hex | undefined,
): Promise<Step> {
  if (mint.amount < state.quote.routeInputUsdc) {
    await markStuck(
      ctx,
      state,
      `the forwarded mint (${mint.amount}) is less than the route needs (${state.quote.routeInputUsdc})`,
    );
    return "wait";
  }
  const minter = await mintedBy(ctx, state, "relay", mint, forwardTxHash);
  // The relay's own look may not have seen it mined (more confirmations, a crash): said here then.
  if (minter.mintedBy === "service") await noteRelayed(ctx, state, "relay", mint.txHash);
  return move(ctx, state, {
    kind: "FORWARDED_MINT",
    chainId: chains.intermediate.chainId,
    txHash: mint.txHash,
    detail: {
      amount: mint.amount.toString(),
      feeCollected: mint.feeCollected.toString(),
      // What the burn allowed Circle and it did not take: it stays with the order (docs/settlement.md).
      feeUnusedUsdc: (state.quote.transferUpfrontFeeUsdc - mint.feeCollected).toString(),
      ...minter,
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
  /** Why the service relays: the timeline's FORWARD_FAILED says it once. */
  reason: "forward_failed" | "forward_overdue";
  /** The same, for the operator when it cannot relay. */
  why: string;
}

/**
 * The service mints a burn itself: it relays Circle's attested message with `receiveMessage`, a
 * recorded payment like every other (payments/), once checkRelay allows it; a nonce already
 * received needs no relay: the mint is found by it on the next look.
 */
export async function relayAttestedMessage(
  ctx: ProgressContext,
  state: OrderState,
  relay: RelayedBurn,
): Promise<Step> {
  await noteUnless(
    ctx,
    state,
    "FORWARD_FAILED",
    { reason: relay.reason, purpose: relay.purpose },
    (earlier) => earlier.some((detail) => detail?.purpose === relay.purpose),
  );
  const check = await checkRelay(relay);
  switch (check.kind) {
    case "unusable":
      await markStuck(ctx, state, `${relay.why}, and ${check.why}`);
      return "wait";
    // Someone relayed it meanwhile: the mint is found by its nonce on the next look (the observer
    // searches from the burn's time once the chain says the nonce is used), whoever sent it.
    case "received":
      return "wait";
    case "expired":
      await noteOnce(ctx, state, "ATTESTATION_DELAYED", "attestation_expired");
      await askReattestation(ctx, relay.eventNonce);
      return "wait";
  }
  const sent = await sendAll(ctx, state, relay.chain, [
    { purpose: relay.purpose, prepare: async () => check.request },
  ]);
  if (sent === "wait") return "wait";
  const relayTxHash = sent.hashes[relay.purpose];
  if (relayTxHash) await noteRelayed(ctx, state, relay.purpose, relayTxHash);
  return "moved";
}

/** What relaying an attested message takes now. */
type RelayCheck =
  | { kind: "send"; request: PaymentRequest }
  /** The nonce was received already: whoever relayed it, the mint is there. */
  | { kind: "received" }
  /** A Fast attestation past its expiration block: Circle must sign it again. */
  | { kind: "expired" }
  | { kind: "unusable"; why: string };

/**
 * Whether an attested message may be relayed, and the `receiveMessage` that does it: only a message
 * that is the expected burn (its nonce, this chain's domain, no destination caller, the recipient,
 * the burned amount, the commitment), not received yet, and not expired.
 */
export async function checkRelay(
  relay: Omit<RelayedBurn, "purpose" | "reason" | "why">,
): Promise<RelayCheck> {
  const transmitter = relay.chain.contracts.messageTransmitter;
  if (!relay.message || !relay.attestation || !transmitter) {
    return { kind: "unusable", why: "there is no attested message or transmitter to relay it" };
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
  if (!expected) return { kind: "unusable", why: "the attested message is not the expected burn" };
  const used = await relay.chain.client.readContract({
    address: transmitter,
    abi: messageTransmitterV2Abi,
    functionName: "usedNonces",
    args: [relay.eventNonce],
  });
  if (used !== 0n) return { kind: "received" };
  // A Fast attestation is good until its expiration block; past it the messenger refuses the message
  // ("Message expired and must be re-signed") and Circle signs it again on request.
  if (
    decoded.expirationBlock !== 0n &&
    decoded.expirationBlock <= (await relay.chain.client.getBlockNumber())
  ) {
    return { kind: "expired" };
  }
  return {
    kind: "send",
    request: {
      to: transmitter,
      data: encodeFunctionData({
        abi: messageTransmitterV2Abi,
        functionName: "receiveMessage",
        args: [relay.message, relay.attestation],
      }),
      value: 0n,
    },
  };
}

/** The service's relay of a message was mined: MINT_RELAYED on the timeline, once per purpose. */
export async function noteRelayed(
  ctx: ProgressContext,
  state: OrderState,
  purpose: string,
  relayTxHash: Hex,
) {
  await noteUnless(ctx, state, "MINT_RELAYED", { purpose, relayTxHash }, (earlier) =>
    earlier.some((detail) => detail?.purpose === purpose),
  );
}
