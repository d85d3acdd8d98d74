import type { Hex } from "viem";
import type { ConfiguredChain } from "../../kernel/chain/registry";

/**
 * The transaction the settlement account sends for the aggregator leg, and the allowance it spends:
 * the account keeps one standing allowance per token and spender (payments/), so a
 * route names what it needs instead of approving for itself.
 */
interface BridgeTransaction {
  to: Hex;
  data: Hex;
  value: bigint;
  allowance: { token: Hex; spender: Hex; amount: bigint };
  /** When the aggregator's calldata stops being good: a route not signed or mined by then is quoted again. */
  validUntil?: Date;
}

interface BridgeTransactionsRequest {
  from: ConfiguredChain;
  to: ConfiguredChain;
  tokenIn: Hex;
  tokenOut: Hex;
  amountIn: bigint;
  account: Hex;
  minAmountOut: bigint;
  slippageBps: number;
  /**
   * The order's commitment (orderCommitment; returnCommitment for a way back): the route carries its
   * first 20 bytes as LI.FI's referrer, which LI.FI writes into the transaction it builds.
   */
  memo: Hex;
}

/** Builds the aggregator leg's transaction and the allowance it pulls the USDC through. */
export interface BridgePlanner {
  routeTransaction(request: BridgeTransactionsRequest): Promise<BridgeTransaction>;
}
