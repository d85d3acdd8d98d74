import { and, eq } from "drizzle-orm";
import { concatHex, encodeFunctionData, type Hex, parseEventLogs, zeroAddress } from "viem";
import { settlementEvents } from "../../../schema";
import { erc20Abi, FINALITY_STANDARD, tokenMessengerV2Abi } from "../../kernel/chain/abis";
import { addressToBytes32, returnCommitment, returnHookData } from "../../kernel/chain/forwarding";
import type { Database } from "../../kernel/db/database";
import type { SettlementServices } from "../context";
import { FEE_BUFFER_BPS } from "../limits";
import type { PaymentRequest } from "../payments";
import { returnMaxFee } from "../pricing/arithmetic";
import { type SettlementChains, startsOnIntermediate } from "../pricing/prices";
import { detailOf, entriesOf, markStuck, type OrderState, recordedHash } from "../progress/state";
import {
  hexOrUndefined,
  move,
  type ProgressContext,
  type Step,
  sendAll,
  transferIn,
} from "../progress/steps";
import { mintedBy, noteRelayed, relayAttestedMessage } from "./circle";
import { legOverdue } from "./deadlines";
import { attestationOfBurn } from "./vendor-polls";

/**
 * Returns: an order that cannot deliver its floor sends its USDC back to the user's `sourceAddress`
 * on the source chain, over CCTP from the intermediate chain (docs/settlement.md, "Returns"). The
 * decision is a RETURN_REQUESTED entry (the operator's, through the admin API, or the service's);
 * the order then goes on to MINTED if it is not there yet, and from there burns back instead of
 * routing: RETURNING (RETURNING_TO_SOURCE) once the return burn is mined, RETURNED
 * (RETURNED_TO_SOURCE) once its mint on the source chain is read. The return burn carries the
 * order's return commitment in its hook data, as the order's own burn carries its commitment.
 */

export function returnRequested(state: OrderState): boolean {
  return state.events.some((event) => event.kind === "RETURN_REQUESTED");
}

/** A route of the order is withdrawn, under the same lock, once its return was decided. */
export async function isReturning(tx: Database, orderId: string): Promise<boolean> {
  const [found] = await tx
    .select({ id: settlementEvents.id })
    .from(settlementEvents)
    .where(and(eq(settlementEvents.orderId, orderId), eq(settlementEvents.kind, "RETURN_REQUESTED")));
  return found !== undefined;
}

/**
 * What of the order's USDC is on the intermediate chain now: the forwarded mint (or the deposit), less each route
 * that left, plus what each refunded route brought back and what the way back from the destination
 * chain brought.
 */
export function heldOnIntermediate(state: OrderState): bigint {
  // What arrived on the intermediate chain: Circle's mint, or the user's own transfer there.
  const minted = BigInt(
    detailOf(state, "FORWARDED_MINT")?.amount ?? detailOf(state, "DEPOSIT_VERIFIED")?.amount ?? "0",
  );
  const routes = entriesOf(state, "ROUTE_SENT").length;
  const total = (amounts: Array<string | undefined>) =>
    amounts.reduce((sum, amount) => sum + BigInt(amount ?? "0"), 0n);
  return (
    minted -
    BigInt(routes) * state.quote.routeInputUsdc +
    total(entriesOf(state, "ROUTE_REFUNDED").map(({ detail }) => detail?.amount)) +
    total(entriesOf(state, "RETURN_ROUTE_COMPLETED").map(({ detail }) => detail?.receivedUsdc))
  );
}

/** At MINTED a route recorded meanwhile wins: the order returns from the destination chain instead. */
async function routedMeanwhile(tx: Database, state: OrderState): Promise<boolean> {
  return state.order.status === "MINTED" && (await recordedHash(tx, state.order.id, "route")) !== undefined;
}

/**
 * MINTED with a return decided, or back on the intermediate chain from the destination: burn what the
 * order holds back to the user's source address.
 */
export async function sendReturn(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const held = heldOnIntermediate(state);
  if (startsOnIntermediate(chains)) return sendReturnTransfer(ctx, state, chains, held);
  const messenger = chains.intermediate.contracts.tokenMessenger;
  if (!messenger || held <= 0n) {
    await markStuck(
      ctx,
      state,
      `the return cannot be burned: ${messenger ? "the order holds no USDC" : "no messenger"}`,
    );
    return "wait";
  }
  const usdc = chains.intermediate.contracts.usdc;
  const sent = await sendAll(ctx, state, chains.intermediate, [
    {
      purpose: "return",
      withdrawn: (tx) => routedMeanwhile(tx, state),
      prepare: () =>
        returnBurnRequest(ctx, {
          amount: held,
          from: { domain: chains.intermediate.cctpDomain, usdc, messenger },
          toDomain: chains.source.cctpDomain,
          recipient: state.quote.sourceAddress as Hex,
          hookData: returnHookData(state.order.id),
        }),
    },
  ]);
  if (sent === "wait") return "wait";
  const hash = sent.hashes.return as Hex;
  const receipt = await chains.intermediate.client.getTransactionReceipt({ hash });
  const [burn] = parseEventLogs({
    abi: tokenMessengerV2Abi,
    eventName: "DepositForBurn",
    logs: receipt.logs,
  });
  if (!burn) throw new Error(`the return ${hash} shows no DepositForBurn`);
  const block = await chains.intermediate.client.getBlock({ blockNumber: receipt.blockNumber });
  return move(ctx, state, {
    kind: "RETURN_BURNED",
    chainId: chains.intermediate.chainId,
    txHash: hash,
    detail: {
      amount: burn.args.amount.toString(),
      maxFee: burn.args.maxFee.toString(),
      // The return's mint cannot be earlier: where its search starts.
      burnedAt: new Date(Number(block.timestamp) * 1000).toISOString(),
    },
  });
}

/**
 * An order whose USDC started on the intermediate chain gets it back there: a transfer of what it
 * holds to its source address, the order's return commitment after the call's arguments (as its
 * deposit carried its commitment). Once mined the order is RETURNED; nobody else has a hand in it.
 */
async function sendReturnTransfer(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
  held: bigint,
): Promise<Step> {
  if (held <= 0n) {
    await markStuck(ctx, state, "the return cannot be sent: the order holds no USDC");
    return "wait";
  }
  const usdc = chains.intermediate.contracts.usdc;
  const recipient = state.quote.sourceAddress as Hex;
  const sent = await sendAll(ctx, state, chains.intermediate, [
    {
      purpose: "return",
      withdrawn: (tx) => routedMeanwhile(tx, state),
      prepare: async () => ({
        to: usdc,
        data: concatHex([
          encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [recipient, held] }),
          returnCommitment(state.order.id),
        ]),
        value: 0n,
      }),
    },
  ]);
  if (sent === "wait") return "wait";
  const hash = sent.hashes.return as Hex;
  const { transfer } = await transferIn(chains.intermediate, hash, usdc, recipient);
  if (!transfer) throw new Error(`the return ${hash} shows no USDC Transfer to ${recipient}`);
  return move(ctx, state, {
    kind: "RETURNED",
    chainId: chains.intermediate.chainId,
    txHash: hash,
    detail: { amount: transfer.args.value.toString(), feeCollected: "0", to: recipient },
  });
}

/**
 * A burn of USDC back to a source chain, as the settlement account's payment: `depositForBurnWithHook`
 * of the whole amount to the recipient, Standard finality, `maxFee` Circle's fee for that direction
 * plus the 20% buffer, the commitment in the hook data after the forwarding header. Refused when
 * Circle's fee would take it all. An order's return and an unclaimed mint's return both burn so.
 */
export async function returnBurnRequest(
  ctx: SettlementServices,
  burn: {
    amount: bigint;
    from: { domain: number; usdc: Hex; messenger: Hex };
    toDomain: number;
    recipient: Hex;
    hookData: Hex;
  },
): Promise<PaymentRequest | { refused: string }> {
  const fees = await ctx.providers.pricing.fees.transferFees({
    sourceDomain: burn.from.domain,
    destinationDomain: burn.toDomain,
    finalityThreshold: FINALITY_STANDARD,
  });
  const maxFee = returnMaxFee(burn.amount, fees, FEE_BUFFER_BPS);
  if (maxFee >= burn.amount) {
    return { refused: `Circle's fee (${maxFee}) is not less than the ${burn.amount} USDC to return` };
  }
  return {
    allowance: { token: burn.from.usdc, spender: burn.from.messenger, amount: burn.amount },
    to: burn.from.messenger,
    data: encodeFunctionData({
      abi: tokenMessengerV2Abi,
      functionName: "depositForBurnWithHook",
      args: [
        burn.amount,
        burn.toDomain,
        addressToBytes32(burn.recipient),
        burn.from.usdc,
        addressToBytes32(zeroAddress),
        maxFee,
        FINALITY_STANDARD,
        burn.hookData,
      ],
    }),
    value: 0n,
  };
}

/** RETURNING: Circle attests the return burn and mints it to the user on the source chain; the service relays it if Circle's forward fails or is overdue. */
export async function observeReturn(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const burned = entriesOf(state, "RETURN_BURNED").at(-1);
  const burnTxHash = hexOrUndefined(burned?.entry.txHash);
  if (!burned?.detail || !burnTxHash)
    throw new Error(`order ${state.order.id} is RETURNING without a return burn`);
  const amount = BigInt(burned.detail.amount);
  const recipient = state.quote.sourceAddress as Hex;
  const attestation = await attestationOfBurn(ctx, {
    sourceDomain: chains.intermediate.cctpDomain,
    burnTxHash,
    destinationDomain: chains.source.cctpDomain,
    mintRecipient: recipient,
    amount,
    hookData: returnHookData(state.order.id),
  });
  if (attestation.status !== "complete" || !attestation.eventNonce) return "wait";
  const eventNonce = attestation.eventNonce as Hex;
  const { burnedAt } = burned.detail;
  const mint = await ctx.providers.legs.returnedMint(chains.source.chainId).forwardedMint({
    eventNonce,
    mintRecipient: recipient,
    // Returns burned before their time was recorded are searched from the chain's start.
    ...(burnedAt ? { after: new Date(burnedAt) } : {}),
    ...(attestation.forwardTxHash ? { forwardTxHash: attestation.forwardTxHash } : {}),
  });
  if (!mint) {
    const overdue = legOverdue(ctx, "RETURNING", burned.entry.at);
    if (attestation.forwardState !== "failed" && !overdue) return "wait";
    return relayAttestedMessage(ctx, state, {
      chain: chains.source,
      purpose: "return-relay",
      eventNonce,
      message: attestation.message,
      attestation: attestation.attestation,
      mintRecipient: recipient,
      amount,
      hookData: returnHookData(state.order.id),
      reason: attestation.forwardState === "failed" ? "forward_failed" : "forward_overdue",
      why:
        attestation.forwardState === "failed"
          ? "Circle's forward of the return failed"
          : "Circle's forward of the return is overdue",
    });
  }
  const minter = await mintedBy(ctx, state, "return-relay", mint, attestation.forwardTxHash);
  if (minter.mintedBy === "service") await noteRelayed(ctx, state, "return-relay", mint.txHash);
  return move(ctx, state, {
    kind: "RETURNED",
    chainId: chains.source.chainId,
    txHash: mint.txHash,
    detail: {
      amount: mint.amount.toString(),
      feeCollected: mint.feeCollected.toString(),
      to: recipient,
      ...minter,
    },
  });
}
