import { encodeFunctionData } from "viem";
import { erc20Abi } from "../../kernel/chain/abis";
import type { Database } from "../../kernel/db/database";
import type { InFlight } from "./in-flight";
import { signAndRecord } from "./sign";
import {
  ALLOWANCE_PURPOSE,
  type Payment,
  type PaymentContext,
  type PaymentRequest,
  type TransactionRow,
} from "./types";

/**
 * Whether the settlement account's allowance covers a payment's spend on top of what its unmined
 * transactions will spend: `covered`; `wait` when it cannot tell yet or a top-up is already in
 * flight; otherwise the top-up it signed and recorded (under the account's lock, in `tx`), which
 * approves SETTLEMENT_ALLOWANCE_PAYMENTS such spends at once.
 */
export async function coverAllowance(
  ctx: PaymentContext,
  tx: Database,
  payment: Payment,
  allowance: NonNullable<PaymentRequest["allowance"]>,
  queue: InFlight,
  mayTopUp: boolean,
): Promise<"covered" | "wait" | TransactionRow> {
  const { token, spender, amount } = allowance;
  // The allowance and what is in flight, both as of one block: a spend mined between two
  // reads of the latest state would be counted twice (in the allowance and as unmined) and
  // top the allowance up for nothing.
  const block = await payment.chain.client.getBlockNumber();
  const [current, spending] = await Promise.all([
    payment.chain.client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [payment.account.address, spender],
      blockNumber: block,
    }),
    queue.spending(token, spender, block),
  ]);
  if (spending === undefined) return "wait";
  if (current >= spending + amount) return "covered";
  // The spends in flight have lower nonces, so they run before the top-up replaces the
  // allowance outright: it may be signed behind them. One top-up in flight per allowance, and
  // once per payment, so a short approval never loops.
  const topUp = `allowance:${token.toLowerCase()}:${spender.toLowerCase()}`;
  // As of the same block: a top-up mined after it is still in flight for this allowance read.
  if (!mayTopUp || (await queue.holds(topUp, block))) return "wait";
  const standing = amount * BigInt(ctx.config.SETTLEMENT_ALLOWANCE_PAYMENTS);
  return signAndRecord(ctx, tx, payment.chain, payment.account, queue, {
    orderId: null,
    purpose: ALLOWANCE_PURPOSE,
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender, standing] }),
    value: 0n,
    serialWith: topUp,
  });
}
