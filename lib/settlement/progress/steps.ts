import { type Hex, isAddressEqual, isHex, parseEventLogs } from "viem";
import { erc20Abi } from "../../kernel/chain/abis";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import { ProviderFailure } from "../../kernel/provider-failure";
import type { SettlementServices } from "../context";
import { type FaultInjector, type Payment, revertedVersions, sendOnce, setAsideReverted } from "../payments";
import { type Move, markStuck, moveOrder, type OrderState } from "./state";

/** What one look at an order did: moved it (look again now) or found it waiting (look again later). */
export type Step = "moved" | "wait";
export type ProgressContext = SettlementServices & { faults?: FaultInjector };

/** Moves the order; if another job moved it first the next look sees that, so either way: look again. */
export async function move(
  ctx: ProgressContext,
  state: OrderState,
  next: Move,
  within?: Parameters<typeof moveOrder>[3],
): Promise<Step> {
  await moveOrder(ctx, state, next, within);
  return "moved";
}

export function burnHash(state: OrderState): Hex {
  if (!state.order.burnTxHash) throw new Error(`order ${state.order.id} has no burn`);
  return state.order.burnTxHash as Hex;
}

export function settlementAccount(ctx: SettlementServices): Hex {
  const account = ctx.settlement.accountAddress;
  if (!account) throw new ProviderFailure("unavailable", "settlement", "no settlement account is configured");
  return account;
}

/**
 * A payment's receipt and its `token` Transfer to `to`, if it made one: what the payment moved, as the
 * chain says it, never as the service expected it.
 */
export async function transferIn(chain: ConfiguredChain, hash: Hex, token: Hex, to: Hex) {
  const receipt = await chain.client.getTransactionReceipt({ hash });
  const transfer = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).find(
    (log) => isAddressEqual(log.address, token) && isAddressEqual(log.args.to, to),
  );
  return { receipt, transfer };
}

export function hexOrUndefined(value: unknown): Hex | undefined {
  return typeof value === "string" && isHex(value, { strict: true }) ? value : undefined;
}

/** One payment of the settlement account for an order's leg (see payments/). */
export type LegPayment = Omit<Payment, "orderId" | "chain" | "account"> & {
  /**
   * How many times a reverted version is set aside and the payment priced and signed again on the
   * next look, before the order is left STUCK for the operator: for a payment the market can revert
   * between its price and its block (a Mento swap under a trading limit), whose revert moved nothing.
   */
  retriesAfterRevert?: number;
};

/**
 * Makes an order's payments on a chain in order; waits on the first not yet made with the chain's
 * confirmations. A reverted payment (or the allowance it needed) marks the order STUCK.
 */
export async function sendAll(
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
      const retried = await revertedVersions(ctx, state.order.id, payment.purpose);
      if (retried < (payment.retriesAfterRevert ?? 0)) {
        await setAsideReverted(ctx, state.order.id, payment.purpose);
        return "wait";
      }
      await markStuck(ctx, state, `the ${outcome.purpose} transaction ${outcome.hash} reverted`);
      return "wait";
    }
    hashes[payment.purpose] = outcome.hash;
    ctx.faults?.at("after-confirm", payment.purpose);
  }
  return { hashes };
}
