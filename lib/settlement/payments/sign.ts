import { type Account, BaseError, ExecutionRevertedError, type Hex, keccak256 } from "viem";
import { type RecordedRequest, settlementTransactions } from "../../../schema";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import type { Database } from "../../kernel/db/database";
import { newId } from "../../kernel/ids";
import type { InFlight } from "./in-flight";
import type { PaymentContext, TransactionRow } from "./types";

/** A transaction the chain would revert now: not signed, so nothing is spent on it. */
export class WouldRevert extends Error {
  constructor(
    readonly purpose: string,
    reason: string,
  ) {
    super(reason);
  }
}

/** About what a storage write from zero costs over one from non-zero (cold: 22,100 gas against 5,000). */
const UNSEEN_STATE_GAS = 20_000n;

/** Estimates, takes the account's next nonce and signs; records the signed bytes before anything is sent. */
export async function signAndRecord(
  ctx: PaymentContext,
  tx: Database,
  chain: ConfiguredChain,
  account: Account,
  queue: InFlight,
  input: Omit<SignInput, "nonce" | "gas" | "maxFeePerGas" | "maxPriorityFeePerGas">,
): Promise<TransactionRow> {
  const from = account.address;
  const [chainCount, gas, fees] = await Promise.all([
    chain.client.getTransactionCount({ address: from, blockTag: "pending" }),
    chain.client
      .estimateGas({ account: from, to: input.to, data: input.data, value: input.value })
      .catch((error: unknown) => {
        if (error instanceof BaseError && error.walk((cause) => cause instanceof ExecutionRevertedError)) {
          throw new WouldRevert(input.purpose, `the chain would revert it (${error.shortMessage})`);
        }
        throw error;
      }),
    chain.client.estimateFeesPerGas(),
  ]);
  return sign(ctx, tx, chain, account, {
    ...input,
    nonce: queue.nextNonce(chainCount),
    // The estimate did not see the transactions in flight, which can turn a storage write from
    // non-zero into one from zero (an allowance spent to nothing, then approved again).
    gas: (gas * 12n) / 10n + (queue.nonces > 0 ? UNSEEN_STATE_GAS : 0n),
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
}

export interface SignInput {
  orderId: string | null;
  purpose: string;
  nonce: number;
  to: Hex;
  data: Hex;
  value: bigint;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  allowance?: { token: Hex; spender: Hex; amount: bigint };
  serialWith?: string;
  validUntil?: string;
  cancels?: true;
}

/** A plain transfer of nothing: what cancelling a stale version at its nonce costs. */
export const CANCEL_GAS = 21_000n;

export async function sign(
  ctx: PaymentContext,
  tx: Database,
  chain: ConfiguredChain,
  account: Account,
  input: SignInput,
): Promise<TransactionRow> {
  if (!account.signTransaction) throw new Error("the settlement signer cannot sign transactions");
  const raw = await account.signTransaction({
    chainId: chain.chainId,
    type: "eip1559",
    to: input.to,
    data: input.data,
    value: input.value,
    nonce: input.nonce,
    gas: input.gas,
    maxFeePerGas: input.maxFeePerGas,
    maxPriorityFeePerGas: input.maxPriorityFeePerGas,
  });
  const now = ctx.clock.now();
  const request: RecordedRequest = {
    to: input.to,
    data: input.data,
    value: input.value.toString(),
    gas: input.gas.toString(),
    maxFeePerGas: input.maxFeePerGas.toString(),
    maxPriorityFeePerGas: input.maxPriorityFeePerGas.toString(),
    ...(input.allowance
      ? { allowance: { ...input.allowance, amount: input.allowance.amount.toString() } }
      : {}),
    ...(input.serialWith ? { serialWith: input.serialWith } : {}),
    ...(input.validUntil ? { validUntil: input.validUntil } : {}),
    ...(input.cancels ? { cancels: true as const } : {}),
  };
  const [row] = await tx
    .insert(settlementTransactions)
    .values({
      id: newId("stx", ctx.clock),
      orderId: input.orderId,
      purpose: input.purpose,
      chainId: chain.chainId,
      fromAddress: account.address.toLowerCase(),
      nonce: input.nonce,
      hash: keccak256(raw),
      raw,
      request,
      status: "signed",
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error("the signed transaction was not recorded");
  return row;
}
