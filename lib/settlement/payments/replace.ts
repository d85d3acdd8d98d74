import { and, eq, inArray } from "drizzle-orm";
import type { Account, Hex } from "viem";
import { settlementTransactions } from "../../../schema";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import { isUniqueViolation } from "../../kernel/db/errors";
import { withAccountLock } from "./account-lock";
import { setStatus } from "./records";
import { CANCEL_GAS, sign } from "./sign";
import type { PaymentContext, TransactionRow } from "./types";

/** Nodes take a replacement at the same nonce only with both fees at least 10% higher. */
const REPLACEMENT_BUMP_PERMILLE = 1125n;

/**
 * Signs the same payment at the same nonce with both fees raised, and broadcasts it; the old version
 * stays watched. With `cancel`, the new version is a transfer of nothing to the account itself: the
 * stale calldata is never signed again, and whichever of the two is mined settles the nonce.
 */
export async function replace(
  ctx: PaymentContext,
  chain: ConfiguredChain,
  account: Account,
  current: TransactionRow,
  options: { cancel?: boolean } = {},
): Promise<void> {
  const request = current.request;
  if (!request) return;
  const replacement = await withAccountLock(ctx, chain, account, async (tx) => {
    const [still] = await tx
      .update(settlementTransactions)
      .set({ status: "replaced", updatedAt: ctx.clock.now() })
      .where(
        and(
          eq(settlementTransactions.id, current.id),
          inArray(settlementTransactions.status, ["signed", "sent"]),
        ),
      )
      .returning({ id: settlementTransactions.id });
    if (!still) return undefined;
    const fees = await chain.client.estimateFeesPerGas();
    const bump = (old: string, now: bigint) => {
      const raised = (BigInt(old) * REPLACEMENT_BUMP_PERMILLE + 999n) / 1000n;
      return raised > now ? raised : now;
    };
    const fields = {
      orderId: current.orderId,
      purpose: current.purpose,
      nonce: current.nonce,
      maxFeePerGas: bump(request.maxFeePerGas, fees.maxFeePerGas),
      maxPriorityFeePerGas: bump(request.maxPriorityFeePerGas, fees.maxPriorityFeePerGas),
    };
    if (options.cancel) {
      return sign(ctx, tx, chain, account, {
        ...fields,
        to: account.address,
        data: "0x",
        value: 0n,
        gas: CANCEL_GAS,
        cancels: true,
      });
    }
    return sign(ctx, tx, chain, account, {
      ...fields,
      to: request.to,
      data: request.data,
      value: BigInt(request.value),
      gas: BigInt(request.gas),
      ...(request.allowance
        ? { allowance: { ...request.allowance, amount: BigInt(request.allowance.amount) } }
        : {}),
      ...(request.serialWith ? { serialWith: request.serialWith } : {}),
      ...(request.validUntil ? { validUntil: request.validUntil } : {}),
      ...(request.cancels ? { cancels: true as const } : {}),
    });
  }).catch((error: unknown) => {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  });
  if (!replacement) return;
  ctx.log.info(
    options.cancel
      ? "stale settlement transaction cancelled"
      : "settlement transaction replaced with higher fees",
    {
      orderId: current.orderId,
      purpose: current.purpose,
      nonce: current.nonce,
      replaced: current.hash,
      by: replacement.hash,
    },
  );
  await chain.client
    .sendRawTransaction({ serializedTransaction: replacement.raw as Hex })
    .catch(() => undefined);
  await setStatus(ctx, replacement, "sent", ["signed"]);
}
