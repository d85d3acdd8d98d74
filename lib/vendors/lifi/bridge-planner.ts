import { getAddress, sliceHex } from "viem";
import { ProviderFailure } from "../../kernel/provider-failure";
import type { BridgePlanner, BridgeProvider } from "../../settlement";

/**
 * How long a LI.FI quote's transaction may be signed after it was quoted: LI.FI's own reference says
 * quotes expire after about 60 seconds (lifinance/lifi-agent-skills REFERENCE.md) and a stale one
 * reverts or fails EXPIRED.
 */
export const LIFI_QUOTE_VALIDITY_MS = 60_000;

/**
 * LI.FI: a fresh quote from the settlement account carries the transaction to send and the address
 * to approve for the USDC (`estimate.approvalAddress`; the transaction's target when it names none).
 * The quote asks LI.FI to write the order's commitment (its first 20 bytes, as LI.FI's `referrer`)
 * into the transaction it builds, and the transaction is good for LIFI_QUOTE_VALIDITY_MS: a route
 * not mined by then is quoted again before anything is signed again.
 */
export function lifiBridgePlanner(route: BridgeProvider, now: () => Date = () => new Date()): BridgePlanner {
  return {
    async routeTransaction(request) {
      const quotedAt = now();
      const quote = await route.quoteBridge({
        fromChainId: request.from.chainId,
        toChainId: request.to.chainId,
        fromToken: request.tokenIn,
        toToken: request.tokenOut,
        fromAmount: request.amountIn,
        fromAddress: request.account,
        toAddress: request.account,
        slippageBps: request.slippageBps,
        referrer: getAddress(sliceHex(request.memo, 0, 20)),
      });
      const transaction = quote.transactionRequest;
      if (!transaction)
        throw new ProviderFailure("no_route", quote.provider, "the route quote carries no transaction");
      if (quote.toAmountMin < request.minAmountOut) {
        throw new ProviderFailure(
          "no_route",
          quote.provider,
          "the route now delivers less than the order needs",
        );
      }
      return {
        to: transaction.to,
        data: transaction.data,
        value: transaction.value,
        allowance: {
          token: request.tokenIn,
          spender: quote.approvalAddress ?? transaction.to,
          amount: request.amountIn,
        },
        validUntil: new Date(quotedAt.getTime() + LIFI_QUOTE_VALIDITY_MS),
      };
    },
  };
}
