import { type Hex, isAddressEqual, parseEventLogs, size, sliceHex } from "viem";
import { erc20Abi } from "../../kernel/chain/abis";
import { orderCommitment } from "../../kernel/chain/forwarding";
import { ApiError } from "../../kernel/errors/api-error";
import type { SettlementQuote } from "../create-quote";
import type { SettlementChains } from "../pricing/prices";
import { depositCalldata } from "./plan";
import { confirmedReceipt, invalid, type VerifiedBurn } from "./verify";

/**
 * Proves an intermediate-chain transaction is this order's deposit (USDC already on the
 * intermediate chain): it succeeded with the promised confirmations, the quote's source address
 * sent it to USDC with exactly the plan's input (a transfer of the total to the settlement account,
 * then the order's commitment), and USDC's Transfer of that amount to the settlement account is in
 * its logs. The commitment binds it to this order as a burn's hook data does; the Transfer's log
 * index is what the order claims. Any mismatch names the check that failed.
 */
export async function verifyDeposit(input: {
  orderId: string;
  chains: SettlementChains;
  quote: SettlementQuote;
  settlementAccount: Hex;
  requiredConfirmations: number;
  txHash: Hex;
}): Promise<VerifiedBurn> {
  const { intermediate } = input.chains;
  const { receipt, block } = await confirmedReceipt(input);
  // The order routes from the service's own USDC at once: the deposit must be where the chain will
  // not reorg it away (its `safe` head; on an OP Stack chain, posted to L1), as Circle waits for
  // finality before it attests a Standard burn.
  const safe = await intermediate.client.getBlock({ blockTag: "safe" });
  if (receipt.blockNumber > safe.number) {
    throw new ApiError("BURN_PENDING_CONFIRMATIONS", {
      stage: "CREATED",
      fundsStatus: "IN_USER_WALLET",
      fundsMoved: false,
      detail: `(block ${receipt.blockNumber} is past the chain's safe head ${safe.number})`,
      retryAfterSeconds: 30,
    });
  }
  const transaction = await intermediate.client.getTransaction({ hash: input.txHash });
  const usdc = intermediate.contracts.usdc;
  const amount = input.quote.totalDebitUsdc;
  const expected = depositCalldata(
    orderCommitment(input.orderId),
    input.settlementAccount,
    amount,
  ).toLowerCase();
  const checks: Array<[string, boolean]> = [
    [
      "sender (the quote's sourceAddress)",
      isAddressEqual(transaction.from, input.quote.sourceAddress as Hex),
    ],
    ["to (USDC on the intermediate chain)", transaction.to !== null && isAddressEqual(transaction.to, usdc)],
    [
      `input (${inputMismatch(transaction.input, expected, input.orderId)})`,
      transaction.input.toLowerCase() === expected,
    ],
  ];
  const failed = checks.find(([, ok]) => !ok);
  if (failed) {
    throw invalid(
      `the transfer does not match the order's deposit plan: ${failed[0]}`,
      `la transferencia no coincide con el plan de depósito de la orden: ${failed[0]}`,
    );
  }
  const transfer = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).find(
    (log) =>
      isAddressEqual(log.address, usdc) &&
      isAddressEqual(log.args.from, input.quote.sourceAddress as Hex) &&
      isAddressEqual(log.args.to, input.settlementAccount) &&
      log.args.value === amount,
  );
  if (!transfer) {
    throw invalid(
      "it moved no USDC of the order's amount to the settlement account",
      "no movió USDC por el monto de la orden a la cuenta de liquidación",
    );
  }
  return {
    txHash: input.txHash,
    blockNumber: receipt.blockNumber,
    burnedAt: new Date(Number(block.timestamp) * 1000),
    logIndex: transfer.logIndex,
    amount,
    maxFee: 0n,
  };
}

/** Why a transaction's input is not the order's deposit: said only when the check fails. */
function inputMismatch(input: Hex, expected: string, orderId: string): string {
  const commitment = orderCommitment(orderId).toLowerCase();
  if (size(input) <= 68) return "it carries no commitment after the transfer";
  if (sliceHex(input, 68).toLowerCase() === commitment)
    return "the transfer's recipient or amount is not the order's";
  if (size(input) === 100) return "it commits to another order";
  return input.toLowerCase().startsWith(expected.slice(0, 138))
    ? "it carries data other than this order's commitment"
    : "it is not the order's transfer";
}
