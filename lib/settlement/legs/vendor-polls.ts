import type { Hex } from "viem";
import { decodeCctpBurnMessage } from "../../kernel/chain/cctp-message";
import { addressToBytes32 } from "../../kernel/chain/forwarding";
import { callVendor, type VendorBudget } from "../../kernel/vendor-calls";
import type { SettlementServices } from "../context";
import type { Attestation, BridgeStatus, BridgeStatusRequest } from "./ports";

/**
 * What the legs ask of Circle and the aggregator while an order waits, each call within the
 * service's shared budget for that vendor (callVendor): however many orders wait, the service asks
 * Iris at most IRIS_CALLS_PER_SECOND times a second and LI.FI LIFI_CALLS_PER_MINUTE times a minute,
 * and a 429 keeps every order away until the vendor's time is up.
 */

export function irisBudget(ctx: SettlementServices): VendorBudget {
  return { vendor: "circle-iris", calls: ctx.config.IRIS_CALLS_PER_SECOND, windowMs: 1000 };
}

export function lifiBudget(ctx: SettlementServices): VendorBudget {
  return { vendor: "lifi", calls: ctx.config.LIFI_CALLS_PER_MINUTE, windowMs: 60_000 };
}

/**
 * The price book's route quotes: a budget (and a row) of their own, so orders' polls spending theirs
 * never leave quotes unpriced. Each row backs off its own 429s; together they stay within the key's limit.
 */
export function lifiQuoteBudget(ctx: SettlementServices): VendorBudget {
  return { vendor: "lifi-quotes", calls: ctx.config.LIFI_QUOTE_CALLS_PER_MINUTE, windowMs: 60_000 };
}

/** A burn as the service verified it: what its CCTP message must carry to be this burn's. */
export interface VerifiedBurnMessage {
  sourceDomain: number;
  burnTxHash: Hex;
  destinationDomain: number;
  mintRecipient: Hex;
  amount: bigint;
  hookData: Hex;
}

/**
 * Circle's attestation of one verified burn. A transaction may hold several burns (a smart wallet's
 * batch), and Iris lists one message per burn: the burn's is the one whose own bytes carry exactly
 * its destination, recipient, amount and hook data (its order's commitment), never the first or
 * the one of a matching amount. Before Circle attests, a message is told apart by what Iris says it
 * carries, for its delay reason; no message of the burn is pending.
 */
export async function attestationOfBurn(
  ctx: SettlementServices,
  burn: VerifiedBurnMessage,
): Promise<Attestation> {
  const messages = await callVendor(ctx, irisBudget(ctx), () =>
    ctx.providers.legs.attestation.messages({ sourceDomain: burn.sourceDomain, burnTxHash: burn.burnTxHash }),
  );
  return messageOfBurn(messages, burn);
}

function messageOfBurn(messages: readonly Attestation[], burn: VerifiedBurnMessage): Attestation {
  const recipient = addressToBytes32(burn.mintRecipient);
  const hookData = burn.hookData.toLowerCase();
  const attested = messages.find((candidate) => {
    if (candidate.status !== "complete" || !candidate.message) return false;
    const decoded = decodeCctpBurnMessage(candidate.message);
    return (
      decoded !== undefined &&
      decoded.sourceDomain === burn.sourceDomain &&
      decoded.destinationDomain === burn.destinationDomain &&
      decoded.mintRecipient.toLowerCase() === recipient &&
      decoded.amount === burn.amount &&
      decoded.hookData.toLowerCase() === hookData &&
      (candidate.eventNonce === undefined ||
        candidate.eventNonce.toLowerCase() === decoded.nonce.toLowerCase())
    );
  });
  if (attested) return attested;
  const described = messages.find(
    ({ described }) =>
      described?.amount === burn.amount &&
      described.hookData?.toLowerCase() === hookData &&
      (described.mintRecipient === undefined || described.mintRecipient.toLowerCase() === recipient),
  );
  return described?.delayReason
    ? { status: "pending", delayReason: described.delayReason }
    : { status: "pending" };
}

/** Circle's re-attestation of a message whose attestation expired, within the Iris budget. */
export function askReattestation(ctx: SettlementServices, nonce: Hex): Promise<void> {
  return callVendor(ctx, irisBudget(ctx), () => ctx.providers.legs.attestation.reattest(nonce));
}

/** The aggregator's word on a route, within the LI.FI budget. */
export function bridgeStatusOf(ctx: SettlementServices, request: BridgeStatusRequest): Promise<BridgeStatus> {
  return callVendor(ctx, lifiBudget(ctx), () => ctx.providers.legs.bridge.status(request));
}
