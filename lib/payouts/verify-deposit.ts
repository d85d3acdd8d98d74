import { erc20Abi, type Hex, parseEventLogs, type TransactionReceipt } from "viem";
import { payoutDepositorAbi } from "../kernel/chain/abis";
import type { ConfiguredChain } from "../kernel/chain/registry";
import { ApiError } from "../kernel/errors/api-error";
import type { PayoutRow } from "./payout-view";

export interface VerifiedDeposit {
  txHash: Hex;
  /** The index of the Transfer that paid the provider's deposit address: with the hash, the deposit's identity. */
  logIndex: number;
  blockTime: Date;
}

/**
 * Proves a payout-chain transaction is this payout's deposit: it succeeded, has the chain's
 * confirmations, holds a PayoutDeposited from the configured depositor with this payout's ref, from
 * the user, with the token, amount, fee, deposit address and fee wallet of the payout, and the two
 * ERC-20 Transfers that back it (user → deposit address, user → fee wallet), made by the same
 * deposit call: after the depositor's previous event in the transaction, so that a smart wallet's
 * batch of several payouts' deposits proves each payout by its own; and, when the organization
 * charges its own fee, the PartnerFeePaid and Transfer that pay it. Any mismatch names the check
 * that failed.
 */
export async function verifyDeposit(
  chain: ConfiguredChain,
  payout: PayoutRow,
  txHash: Hex,
): Promise<VerifiedDeposit> {
  const receipt = await receiptOf(chain, txHash);
  if (receipt.status !== "success") throw invalid("the transaction reverted", "la transacción fue revertida");
  const latest = await chain.client.getBlockNumber();
  const confirmations = Number(latest - receipt.blockNumber + 1n);
  if (confirmations < chain.confirmations) {
    throw new ApiError("DEPOSIT_PENDING_CONFIRMATIONS", {
      detail: `(${confirmations}/${chain.confirmations})`,
      retryAfterSeconds: 5,
    });
  }

  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const deposits = parseEventLogs({
    abi: payoutDepositorAbi,
    eventName: "PayoutDeposited",
    logs: receipt.logs,
  }).filter((log) => same(log.address, payout.depositor));
  if (deposits.length === 0) {
    throw invalid(
      "it holds no PayoutDeposited event from the configured depositor",
      "no contiene un evento PayoutDeposited del depositante configurado",
    );
  }
  const ours = deposits.filter((log) => same(log.args.payoutRef, payout.payoutRef));
  if (ours.length === 0) {
    throw invalid(
      "its deposit carries another payout's reference",
      "su depósito lleva la referencia de otro pago",
    );
  }
  // Any one matching deposit event will do (a smart wallet may batch several); the first mismatch names the check.
  let firstMismatch: string | undefined;
  const matching = ours.find(({ args }) => {
    const checks: Array<[string, boolean]> = [
      ["payer (the user's address)", same(args.payer, payout.userAddress)],
      ["token", same(args.token, payout.tokenAddress)],
      ["amount", args.amount === payout.providerAmount],
      ["fee", args.fee === payout.serviceFee],
      ["depositAddress", same(args.depositAddress, payout.depositAddress)],
      ["feeWallet", same(args.feeWallet, payout.feeWallet)],
    ];
    const failed = checks.find(([, ok]) => !ok);
    firstMismatch ??= failed?.[0];
    return failed === undefined;
  });
  if (!matching) {
    throw invalid(
      `its deposit does not match the payout: ${firstMismatch}`,
      `su depósito no coincide con el pago: ${firstMismatch}`,
    );
  }

  const depositIndex = matching.logIndex;
  const previousDeposit = Math.max(
    -1,
    ...deposits.map((log) => log.logIndex).filter((i) => i < depositIndex),
  );
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).filter(
    (log) =>
      same(log.address, payout.tokenAddress) && log.logIndex > previousDeposit && log.logIndex < depositIndex,
  );
  const transferOf = (to: string, value: bigint) =>
    transfers.find(
      (log) => same(log.args.from, payout.userAddress) && same(log.args.to, to) && log.args.value === value,
    );
  const paidProvider = transferOf(payout.depositAddress, payout.providerAmount);
  if (!paidProvider) {
    throw invalid(
      "no Transfer pays the deposit address the amount",
      "ninguna Transfer paga el monto a la dirección de depósito",
    );
  }
  if (payout.serviceFee > 0n && !transferOf(payout.feeWallet, payout.serviceFee)) {
    throw invalid(
      "no Transfer pays the fee wallet the fee",
      "ninguna Transfer paga la comisión a la billetera de comisiones",
    );
  }
  if (payout.partnerFee > 0n) verifyPartnerFee(receipt, payout, depositIndex);
  const block = await chain.client.getBlock({ blockNumber: receipt.blockNumber });
  return { txHash, logIndex: paidProvider.logIndex, blockTime: new Date(Number(block.timestamp) * 1000) };
}

/**
 * The organization's own fee, paid in the same call as the deposit: the depositor's very next event
 * after this payout's PayoutDeposited is its PartnerFeePaid (for this payout, token, address and
 * amount), and the user's Transfer of the fee lies between the two. Any later PartnerFeePaid (another
 * call's, in a worthless token, in the same batch) proves nothing about this deposit.
 */
function verifyPartnerFee(receipt: TransactionReceipt, payout: PayoutRow, depositIndex: number): void {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const wallet = payout.partnerFeeAddress ?? "";
  const next = receipt.logs
    .filter((log) => same(log.address, payout.depositor) && log.logIndex > depositIndex)
    .sort((a, b) => a.logIndex - b.logIndex)[0];
  const [paid] = next
    ? parseEventLogs({ abi: payoutDepositorAbi, eventName: "PartnerFeePaid", logs: [next] }).filter(
        (log) =>
          same(log.args.payoutRef, payout.payoutRef) &&
          same(log.args.partnerFeeWallet, wallet) &&
          same(log.args.token, payout.tokenAddress) &&
          log.args.partnerFee === payout.partnerFee,
      )
    : [];
  const transferred =
    paid &&
    parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).some(
      (log) =>
        same(log.address, payout.tokenAddress) &&
        log.logIndex > depositIndex &&
        log.logIndex < paid.logIndex &&
        same(log.args.from, payout.userAddress) &&
        same(log.args.to, wallet) &&
        log.args.value === payout.partnerFee,
    );
  if (!transferred) {
    throw invalid(
      "no Transfer pays the organization's fee address its fee",
      "ninguna Transfer paga su comisión a la dirección de comisiones de la organización",
    );
  }
}

async function receiptOf(chain: ConfiguredChain, txHash: Hex): Promise<TransactionReceipt> {
  try {
    return await chain.client.getTransactionReceipt({ hash: txHash });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const pending = await chain.client.getTransaction({ hash: txHash }).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  if (pending) throw new ApiError("DEPOSIT_PENDING_CONFIRMATIONS", { detail: "(0)", retryAfterSeconds: 5 });
  throw invalid(
    `no transaction with this hash exists on ${chain.name}`,
    `no existe una transacción con este hash en ${chain.name}`,
  );
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && /NotFound/.test(error.name);
}

function invalid(en: string, es: string): ApiError {
  return new ApiError("INVALID_DEPOSIT", {
    detail: { en: `Check failed: ${en}.`, es: `Verificación fallida: ${es}.` },
  });
}
