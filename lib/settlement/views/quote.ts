import { formatAmount } from "../../kernel/money";
import type { SettlementQuote } from "../create-quote";
import { COPM_DECIMALS, USDC_DECIMALS } from "../limits";
import { copPerUsdc, transferSpeedOf } from "../pricing/arithmetic";

// Made once, not per quote: a page of orders builds a hundred quote views.
const usdc = (units: bigint) => formatAmount(units, USDC_DECIMALS);
const copm = (units: bigint) => formatAmount(units, COPM_DECIMALS);

/** A quote as partners see it: decimal strings, ISO times. The same view inside an order. */
export function quoteView(quote: SettlementQuote) {
  return {
    quoteId: quote.id,
    sendAmountUsdc: usdc(quote.sendAmountUsdc),
    receiveAmountCop: quote.receiveAmountCop === null ? null : copm(quote.receiveAmountCop),
    transferUpfrontFeeUsdc: usdc(quote.transferUpfrontFeeUsdc),
    transferSpeed: transferSpeedOf(quote.finalityThreshold),
    totalDebitUsdc: usdc(quote.totalDebitUsdc),
    copAmountMin: copm(quote.copAmountMin),
    expectedCopAmount: copm(quote.expectedCopm),
    rate: copPerUsdc(quote.expectedCopm, quote.sendAmountUsdc),
    minimumRate: copPerUsdc(quote.copAmountMin, quote.sendAmountUsdc),
    fees: {
      fastTransferFeeUsdc: usdc(quote.fastTransferFeeUsdc),
      forwardingFeeUsdc: usdc(quote.forwardingFeeUsdc),
      feeBufferUsdc: usdc(quote.feeBufferUsdc),
      serviceFeeUsdc: usdc(quote.serviceFeeUsdc),
      serviceFeeBps: quote.serviceFeeBps,
      partnerFeeUsdc: usdc(quote.partnerFeeUsdc),
      partnerFeeBps: quote.partnerFeeBps,
    },
    routeInputUsdc: usdc(quote.routeInputUsdc),
    expectedUsdm: copm(quote.expectedUsdm),
    legs: quote.legs,
    // Quotes made before sources could be chosen burn on the chain of their first leg.
    sourceChainId: quote.sourceChainId ?? quote.legs[0]?.chainId ?? 0,
    sourceAddress: quote.sourceAddress,
    destinationAddress: quote.destinationAddress,
    createdAt: quote.createdAt.toISOString(),
    expiresAt: quote.expiresAt.toISOString(),
  };
}
