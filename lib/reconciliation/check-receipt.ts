import { type Hex, isHex, parseEventLogs, type TransactionReceipt } from "viem";
import type { DISCREPANCY_PROBLEMS } from "../../schema";
import { erc20Abi } from "../kernel/chain/abis";
import { receiptOrUndefined } from "../kernel/chain/receipt";
import type { ChainRegistry, ConfiguredChain } from "../kernel/chain/registry";
import type { Receipt, ReceiptLeg } from "../ledger/receipt";

/** A recorded figure the chain does not show. */
export interface Discrepancy {
  leg: string;
  chainId: number;
  txHash: string | null;
  problem: (typeof DISCREPANCY_PROBLEMS)[number];
  token: string | null;
  recorded: string | null;
}

/**
 * Which of a leg's figures its own transaction moves (`in`), and which its own or its arrival
 * transaction shows (`out`), as ERC-20 Transfers of the leg's tokens. A burn's transaction moves the
 * burned amount; Circle's mint shows what it minted; a route moves its input and its arrival shows
 * its output; a Mento trade shows both; a delivery, a payout's deposit (the provider's amount),
 * refund and fee return, and a return's mint show what they paid; the organization's fee on a
 * settlement, what it paid. Legs with no transaction (a fee kept, the provider's pesos) have nothing
 * to check.
 */
const CHECKED: Record<string, ReadonlyArray<"in" | "out">> = {
  burn: ["in"],
  cctp_mint: ["out"],
  route: ["in", "out"],
  route_refunded: ["in", "out"],
  conversion: ["in", "out"],
  exchange: ["in", "out"],
  delivery: ["out"],
  return_route: ["in", "out"],
  return_route_refunded: ["in", "out"],
  return_burn: ["in"],
  return_mint: ["out"],
  return_on_destination: ["out"],
  return_remainder: ["out"],
  deposit: ["out"],
  refund: ["out"],
  fee_return: ["out"],
  swap: ["in", "out"],
  partner_fee: ["in"],
};

const TOKEN_CONTRACT = { USDC: "usdc", USDT: "usdt", USDm: "usdm", COPm: "copm" } as const;

/**
 * Re-reads every transaction a receipt names on its chain and checks each recorded figure against
 * it: the transaction is mined and succeeded, and a Transfer of the leg's token carries exactly the
 * recorded amount. Returns what does not hold; an empty list is a receipt the chains agree with.
 */
export async function checkReceipt(chains: ChainRegistry, receipt: Receipt): Promise<Discrepancy[]> {
  const found: Discrepancy[] = [];
  const receipts = new Map<string, Promise<TransactionReceipt | undefined>>();
  const read = (chain: ConfiguredChain, hash: string) => {
    const key = `${chain.chainId}:${hash.toLowerCase()}`;
    let pending = receipts.get(key);
    if (!pending) {
      pending = isHex(hash) ? receiptOrUndefined(chain.client, hash as Hex) : Promise.resolve(undefined);
      receipts.set(key, pending);
    }
    return pending;
  };
  // A transaction missing, failed or on an unknown chain is one discrepancy, not one per figure.
  const unreadable = new Set<string>();
  for (const leg of receipt.legs) {
    const sides = CHECKED[leg.leg] ?? [];
    if (sides.length === 0 || !leg.txHash) continue;
    const arrival = leg.relatedTxHashes?.find((related) => related.role === "arrival");
    for (const side of sides) {
      const [token, amount] = side === "in" ? [leg.tokenIn, leg.amountIn] : [leg.tokenOut, leg.amountOut];
      // A route still in flight has no output yet.
      if (side === "out" && amount === 0n && (leg.leg === "route" || leg.leg === "return_route")) continue;
      const where = side === "out" && arrival ? arrival : { chainId: leg.chainId, txHash: leg.txHash };
      const key = `${where.chainId}:${where.txHash.toLowerCase()}`;
      if (unreadable.has(key)) continue;
      const problem = await checkFigure(chains, read, leg, where, token, amount);
      if (problem && problem.problem !== "amount_not_found") unreadable.add(key);
      if (problem) found.push(problem);
    }
  }
  return found;
}

async function checkFigure(
  chains: ChainRegistry,
  read: (chain: ConfiguredChain, hash: string) => Promise<TransactionReceipt | undefined>,
  leg: ReceiptLeg,
  where: { chainId: number; txHash: string },
  token: string,
  amount: bigint,
): Promise<Discrepancy | undefined> {
  const base = {
    leg: leg.leg,
    chainId: where.chainId,
    txHash: where.txHash,
    token,
    recorded: amount.toString(),
  };
  const chain = chains.chains.find((candidate) => candidate.chainId === where.chainId);
  if (!chain) return { ...base, problem: "chain_unknown" };
  const mined = await read(chain, where.txHash);
  if (!mined) return { ...base, problem: "transaction_missing" };
  if (mined.status !== "success") return { ...base, problem: "transaction_failed" };
  const contract = TOKEN_CONTRACT[token as keyof typeof TOKEN_CONTRACT];
  const address = contract ? chain.contracts[contract]?.toLowerCase() : undefined;
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: mined.logs });
  const shown = transfers.some(
    (log) => log.args.value === amount && (address === undefined || log.address.toLowerCase() === address),
  );
  return shown ? undefined : { ...base, problem: "amount_not_found" };
}
