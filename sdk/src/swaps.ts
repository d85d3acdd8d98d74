import { decodeFunctionData, type Hex, isAddressEqual, parseAbi, size, sliceHex } from "viem";
import { commitmentOf, SWAP_COMMITMENT_TAG } from "./commitments";
import type { PreparedSwap } from "./generated/types.gen";

/** The calls a prepared swap may make: Mento's Broker (one hop) or a MentoRouter (through USDm). */
const swapAbi = parseAbi([
  "function swapIn(address exchangeProvider, bytes32 exchangeId, address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOutMin) returns (uint256)",
  "struct Step { address exchangeProvider; bytes32 exchangeId; address assetIn; address assetOut; }",
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, Step[] path) returns (uint256[] amounts)",
]);
const approveAbi = parseAbi(["function approve(address spender, uint256 amount) returns (bool)"]);

export interface SwapExpectation {
  /** What the wallet asked to swap: the token's address, and the amount in its atomic units. */
  tokenIn: Hex;
  tokenOut: Hex;
  amountIn: bigint | string;
  /** The most the wallet accepts to lose against the quote's expected amount (default 300, the service's cap). */
  maxSlippageBps?: number;
  chainId: number;
  /**
   * Where the transaction may go: Mento's Broker and the MentoRouter on that chain, as you know them
   * (never from the answer being checked). The approval is checked against them too: without them a
   * tampered answer could name any spender.
   */
  targets: readonly Hex[];
  /** The least tokenOut you accept, from your own price, in its atomic units: the answer's own quote is not evidence. */
  minAmountOut?: bigint | string;
}

/**
 * Checks a prepared swap before the wallet signs it: the calldata swaps exactly `amountIn` of
 * `tokenIn` into `tokenOut` along a connected path, with the quoted minimum (no looser than
 * `maxSlippageBps` below the expected amount), ends with this intent's commitment, sends no native
 * value; the approval, if any, approves exactly the swap's target for `amountIn` on `tokenIn`.
 * Answers the problems found: none means the transaction is what was asked for.
 */
export function checkSwapTransaction(prepared: PreparedSwap, expected: SwapExpectation): string[] {
  try {
    return swapProblems(prepared, expected);
  } catch (error) {
    return [`the prepared swap cannot be read: ${error instanceof Error ? error.message : String(error)}`];
  }
}

function swapProblems(prepared: PreparedSwap, expected: SwapExpectation): string[] {
  const problems: string[] = [];
  const { transaction, quote } = prepared;
  const amountIn = BigInt(expected.amountIn);
  const calldata = transaction.calldata as Hex;
  if (expected.chainId !== undefined && transaction.chainId !== expected.chainId)
    problems.push(`the transaction is for chain ${transaction.chainId}, not ${expected.chainId}`);
  if (
    expected.targets &&
    !expected.targets.some((target) => isAddressEqual(target, transaction.target as Hex))
  )
    problems.push(`the transaction goes to ${transaction.target}, not a known Broker or router`);
  if (transaction.value !== "0") problems.push("the transaction sends native value");
  if (size(calldata) < 36) return [...problems, "the calldata is too short to hold a swap and a commitment"];

  const commitment = commitmentOf(SWAP_COMMITMENT_TAG, prepared.intentId);
  if (sliceHex(calldata, size(calldata) - 32).toLowerCase() !== commitment.toLowerCase())
    problems.push("the calldata does not end with this intent's commitment");
  let call: ReturnType<typeof decodeFunctionData<typeof swapAbi>>;
  try {
    call = decodeFunctionData({ abi: swapAbi, data: sliceHex(calldata, 0, size(calldata) - 32) });
  } catch {
    return [
      ...problems,
      "the calldata is neither the Broker's swapIn nor the router's swapExactTokensForTokens",
    ];
  }
  const path =
    call.functionName === "swapIn"
      ? [{ assetIn: call.args[2], assetOut: call.args[3] }]
      : call.args[2].map((step) => ({ assetIn: step.assetIn, assetOut: step.assetOut }));
  const [callAmountIn, minAmountOut] =
    call.functionName === "swapIn" ? [call.args[4], call.args[5]] : [call.args[0], call.args[1]];

  if (callAmountIn !== amountIn) problems.push(`the calldata swaps ${callAmountIn}, not ${amountIn}`);
  if (BigInt(transaction.amount) !== amountIn || BigInt(quote.amountIn) !== amountIn)
    problems.push("the transaction's or the quote's amount is not the amount asked for");
  if (!isAddressEqual(transaction.token as Hex, expected.tokenIn))
    problems.push(`the transaction spends ${transaction.token}, not ${expected.tokenIn}`);
  const first = path[0];
  const last = path[path.length - 1];
  if (
    !first ||
    !last ||
    !isAddressEqual(first.assetIn, expected.tokenIn) ||
    !isAddressEqual(last.assetOut, expected.tokenOut)
  )
    problems.push("the path does not lead from tokenIn to tokenOut");
  if (path.some((step, i) => i > 0 && !isAddressEqual(path[i - 1]?.assetOut as Hex, step.assetIn)))
    problems.push("the path is not connected");
  if (minAmountOut !== BigInt(quote.minAmountOut))
    problems.push(`the calldata's minimum ${minAmountOut} is not the quote's ${quote.minAmountOut}`);
  const floor =
    (BigInt(quote.expectedAmountOut) * BigInt(10_000 - (expected.maxSlippageBps ?? 300))) / 10_000n;
  if (minAmountOut < floor) problems.push(`the minimum ${minAmountOut} is below the accepted ${floor}`);
  if (expected.minAmountOut !== undefined && minAmountOut < BigInt(expected.minAmountOut))
    problems.push(`the minimum ${minAmountOut} is below your own ${expected.minAmountOut}`);

  if (prepared.approval) {
    const approval = prepared.approval;
    if (approval.chainId !== expected.chainId) problems.push(`the approval is for chain ${approval.chainId}`);
    if (!isAddressEqual(approval.target as Hex, expected.tokenIn))
      problems.push("the approval is not on tokenIn");
    if (approval.value !== "0") problems.push("the approval sends native value");
    try {
      const { args } = decodeFunctionData({ abi: approveAbi, data: approval.calldata as Hex });
      const knownSpender = expected.targets.some((target) => isAddressEqual(target, args[0]));
      if (!isAddressEqual(args[0], transaction.target as Hex) || !knownSpender)
        problems.push("the approval names another spender");
      if (args[1] !== amountIn) problems.push(`the approval allows ${args[1]}, not ${amountIn}`);
    } catch {
      problems.push("the approval is not an ERC-20 approve");
    }
  }
  return problems;
}
