/**
 * The pricing ports of a settlement quote: CCTP v2 fees (USDC burned on the source chain, minted on
 * the intermediate chain), the route aggregator (USDC on the intermediate chain to USDm on the
 * destination chain) and Mento (USDm to COPm). Amounts are bigint atomic units; basis points may be
 * numbers. Every adapter fails with a ProviderFailure, never with whatever its transport threw.
 */

/**
 * CCTP v2 fees for a route at one finality (FINALITY_STANDARD 2000 or FINALITY_FAST 1000): Circle's
 * minimum fee for it as a fraction of the burned amount (Standard's is 0 today), and the Forwarding
 * Service fee in USDC units.
 */
export interface TransferFees {
  minimumFee: { numerator: bigint; denominator: bigint };
  forwardFeeUsdc: bigint;
}

export interface TransferFeesProvider {
  transferFees(input: {
    sourceDomain: number;
    destinationDomain: number;
    finalityThreshold: number;
  }): Promise<TransferFees>;
}

export interface BridgeQuoteRequest {
  fromChainId: number;
  toChainId: number;
  fromToken: `0x${string}`;
  toToken: `0x${string}`;
  fromAmount: bigint;
  fromAddress: `0x${string}`;
  toAddress: `0x${string}`;
  slippageBps: number;
  /**
   * LI.FI's `referrer`, an address it writes into the route transaction's calldata: the first 20
   * bytes of the order's commitment, so the route names its order on chain without the service
   * appending anything to the aggregator's calldata.
   */
  referrer?: `0x${string}`;
}

export interface BridgeQuote {
  provider: string;
  tool: string;
  fromAmount: bigint;
  /** Expected amount delivered. */
  toAmount: bigint;
  /** Least amount delivered once slippage is allowed for. */
  toAmountMin: bigint;
  executionDurationSeconds: number;
  /** The transaction the sender signs; absent when someone else executes the route (the sandbox relayer). */
  transactionRequest?: { to: `0x${string}`; data: `0x${string}`; value: bigint };
  /** The contract to approve for the input token, when the aggregator names one. */
  approvalAddress?: `0x${string}`;
}

export interface BridgeProvider {
  quoteBridge(request: BridgeQuoteRequest): Promise<BridgeQuote>;
}

export interface ExchangeQuoteRequest {
  tokenIn: `0x${string}`;
  tokenOut: `0x${string}`;
  amountIn: bigint;
}

export interface ExchangeQuote {
  exchangeProvider: `0x${string}`;
  exchangeId: `0x${string}`;
  amountOut: bigint;
  /**
   * The most tokenIn the exchange's trading limits take now (Mento's, both tokens considered); absent
   * when none is on. The price book refuses a larger amount from this, as the trade would be.
   */
  maxAmountIn?: bigint;
}

export interface ExchangeProvider {
  quoteExchange(request: ExchangeQuoteRequest): Promise<ExchangeQuote>;
}

export interface PricingProviders {
  fees: TransferFeesProvider;
  bridge: BridgeProvider;
  exchange: ExchangeProvider;
}
