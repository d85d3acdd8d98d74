import { type Hex, parseEventLogs, type TransactionReceipt, zeroAddress } from "viem";
import { tokenMessengerV2Abi } from "../../kernel/chain/abis";
import { addressToBytes32, FORWARDING_HOOK_DATA, orderHookData } from "../../kernel/chain/forwarding";
import { ApiError } from "../../kernel/errors/api-error";
import type { SettlementQuote } from "../create-quote";
import type { SettlementChains } from "../pricing/prices";

const STAGE = "CREATED";
const FUNDS = { stage: STAGE, fundsStatus: "IN_USER_WALLET", fundsMoved: false } as const;

export interface VerifiedBurn {
  txHash: Hex;
  blockNumber: bigint;
  /** The burn's block time: its mint cannot be earlier (where the mint's search starts). */
  burnedAt: Date;
  /** The DepositForBurn's index in the transaction's logs: the burn, among several in one transaction. */
  logIndex: number;
  amount: bigint;
  maxFee: bigint;
}

/**
 * Proves a source-chain transaction is this order's burn: it succeeded, has the confirmations the
 * order promised, and holds a v2 DepositForBurn from the configured TokenMessengerV2 whose every
 * field is what the quote and the burn plan said, down to the hook data that commits to this order:
 * without that commitment, another partner could quote the same amount from the same user and claim
 * the burn for an order of its own. Any mismatch names the check that failed.
 */
export async function verifyBurn(input: {
  orderId: string;
  chains: SettlementChains;
  quote: SettlementQuote;
  settlementAccount: Hex;
  requiredConfirmations: number;
  txHash: Hex;
}): Promise<VerifiedBurn> {
  const { source, intermediate } = input.chains;
  const { receipt, block } = await confirmedReceipt(input);

  const messenger = source.contracts.tokenMessenger.toLowerCase();
  const burns = parseEventLogs({
    abi: tokenMessengerV2Abi,
    eventName: "DepositForBurn",
    logs: receipt.logs,
  }).filter((log) => log.address.toLowerCase() === messenger);
  if (burns.length === 0) {
    throw invalid(
      "it holds no DepositForBurn event from the configured TokenMessengerV2",
      "no contiene un evento DepositForBurn del TokenMessengerV2 configurado",
    );
  }

  const expected = {
    burnToken: source.contracts.usdc.toLowerCase(),
    depositor: input.quote.sourceAddress.toLowerCase(),
    amount: input.quote.totalDebitUsdc,
    destinationDomain: intermediate.cctpDomain,
    mintRecipient: addressToBytes32(input.settlementAccount),
    destinationCaller: addressToBytes32(zeroAddress),
    maxFee: input.quote.transferUpfrontFeeUsdc,
    minFinalityThreshold: input.quote.finalityThreshold,
    hookData: orderHookData(input.orderId).toLowerCase(),
  };
  let firstMismatch: string | undefined;
  for (const { args, logIndex } of burns) {
    const hookData = args.hookData.toLowerCase();
    const checks: Array<[string, boolean]> = [
      ["burnToken", args.burnToken.toLowerCase() === expected.burnToken],
      ["depositor", args.depositor.toLowerCase() === expected.depositor],
      ["amount", args.amount === expected.amount],
      ["destinationDomain", args.destinationDomain === expected.destinationDomain],
      ["mintRecipient", args.mintRecipient.toLowerCase() === expected.mintRecipient],
      ["destinationCaller", args.destinationCaller.toLowerCase() === expected.destinationCaller],
      // Exactly the quoted fee: a lower maxFee leaves Circle's fee unpaid and the forward waiting.
      ["maxFee", args.maxFee === expected.maxFee],
      ["minFinalityThreshold", args.minFinalityThreshold === expected.minFinalityThreshold],
      [`hookData (${hookDataMismatch(hookData)})`, hookData === expected.hookData],
    ];
    const failed = checks.find(([, ok]) => !ok);
    if (!failed)
      return {
        txHash: input.txHash,
        blockNumber: receipt.blockNumber,
        burnedAt: new Date(Number(block.timestamp) * 1000),
        logIndex,
        amount: args.amount,
        maxFee: args.maxFee,
      };
    firstMismatch ??= failed[0];
  }
  throw invalid(
    `its DepositForBurn does not match the order: ${firstMismatch}`,
    `su DepositForBurn no coincide con la orden: ${firstMismatch}`,
  );
}

/**
 * The transaction's receipt and block on the order's source chain, once it succeeded and has the
 * confirmations the order promised.
 */
export async function confirmedReceipt(input: {
  chains: SettlementChains;
  requiredConfirmations: number;
  txHash: Hex;
}): Promise<{ receipt: TransactionReceipt; block: { timestamp: bigint } }> {
  const { source } = input.chains;
  const receipt = await receiptOf(input.chains, input.txHash);
  if (receipt.status !== "success") throw invalid("the transaction reverted", "la transacción fue revertida");
  const [latest, block] = await Promise.all([
    source.client.getBlockNumber(),
    source.client.getBlock({ blockNumber: receipt.blockNumber }),
  ]);
  const confirmations = Number(latest - receipt.blockNumber + 1n);
  if (confirmations < input.requiredConfirmations) {
    throw new ApiError("BURN_PENDING_CONFIRMATIONS", {
      ...FUNDS,
      detail: `(${confirmations}/${input.requiredConfirmations})`,
      retryAfterSeconds: 5,
    });
  }
  return { receipt, block };
}

/** Why hook data is not the order's: said only when the check fails. */
function hookDataMismatch(hookData: string): string {
  const header = FORWARDING_HOOK_DATA.toLowerCase();
  if (!hookData.startsWith(header)) return "it does not ask Circle's Forwarding Service to mint";
  if (hookData === header) return "it commits to no order";
  if (hookData.length === header.length + 64) return "it commits to another order";
  return "it carries data other than this order's commitment";
}

async function receiptOf(chains: SettlementChains, txHash: Hex): Promise<TransactionReceipt> {
  const client = chains.source.client;
  try {
    return await client.getTransactionReceipt({ hash: txHash });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const pending = await client.getTransaction({ hash: txHash }).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  if (pending)
    throw new ApiError("BURN_PENDING_CONFIRMATIONS", { ...FUNDS, detail: "(0)", retryAfterSeconds: 5 });
  throw invalid(
    `no transaction with this hash exists on ${chains.source.name}`,
    `no existe una transacción con este hash en ${chains.source.name}`,
  );
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && /NotFound/.test(error.name);
}

export function invalid(en: string, es: string): ApiError {
  return new ApiError("INVALID_BURN", {
    ...FUNDS,
    detail: { en: `Check failed: ${en}.`, es: `Verificación fallida: ${es}.` },
  });
}
