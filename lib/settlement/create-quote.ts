import { settlementQuotes } from "../../schema";
import type { QuoteLeg } from "../../schema/settlement-quotes";
import { FINALITY_FAST, FINALITY_STANDARD } from "../kernel/chain/abis";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { formatAmount } from "../kernel/money";
import { required } from "../tenancy/organizations";
import type { SettlementContext } from "./context";
import { assertIntakeOpen } from "./intake";
import {
  COPM_DECIMALS,
  FEE_BUFFER_BPS,
  MAX_SEND_USDC,
  MIN_SEND_USDC,
  QUOTE_LIFETIME_MS,
  USDC_DECIMALS,
} from "./limits";
import { copAmountMin, principalFee, transferSpeedOf, upfrontFees } from "./pricing/arithmetic";
import { priceBridge, settlementChains } from "./pricing/prices";
import { withProviderErrors } from "./pricing/provider-errors";

export type SettlementQuote = typeof settlementQuotes.$inferSelect;

export interface QuoteRequest {
  sendAmountUsdc: bigint;
  sourceAddress: `0x${string}`;
  destinationAddress: `0x${string}`;
}

const STAGE = "QUOTE";

/** Prices a settlement and reserves the quote for the caller's organization for 60 seconds. */
export async function createQuote(ctx: SettlementContext, request: QuoteRequest): Promise<SettlementQuote> {
  if (request.sendAmountUsdc < MIN_SEND_USDC)
    throw new ApiError("BELOW_MINIMUM", { stage: STAGE, detail: "(10 USDC)" });
  if (request.sendAmountUsdc > MAX_SEND_USDC)
    throw new ApiError("ABOVE_MAXIMUM", { stage: STAGE, detail: "(1,000 USDC)" });
  const settlementAccount = assertIntakeOpen(ctx, STAGE);
  const chains = settlementChains(ctx.chains, STAGE);

  const serviceFeeBps = ctx.caller.organization.serviceFeeBps;
  const finalityThreshold = ctx.caller.organization.fastTransfer ? FINALITY_FAST : FINALITY_STANDARD;
  const serviceFeeUsdc = principalFee(request.sendAmountUsdc, serviceFeeBps);
  // The organization's own fee, rounded up like the service's, from the same principal.
  const { partnerFeeBps, partnerFeeAddress } = ctx.caller.organization;
  const partnerFeeUsdc = principalFee(request.sendAmountUsdc, partnerFeeBps);
  const routeInputUsdc = request.sendAmountUsdc - serviceFeeUsdc - partnerFeeUsdc;
  const [fees, route] = await Promise.all([
    withProviderErrors(
      () =>
        ctx.providers.pricing.fees.transferFees({
          sourceDomain: chains.source.cctpDomain,
          destinationDomain: chains.intermediate.cctpDomain,
          finalityThreshold,
        }),
      STAGE,
    ),
    priceBridge(ctx.providers.pricing, chains, settlementAccount, routeInputUsdc, STAGE),
  ]);
  const upfront = upfrontFees(request.sendAmountUsdc, fees, FEE_BUFFER_BPS);

  const now = ctx.clock.now();
  const usdc = (units: bigint) => formatAmount(units, USDC_DECIMALS);
  const eighteen = (units: bigint) => formatAmount(units, COPM_DECIMALS);
  const legs: QuoteLeg[] = [
    {
      kind: "cctp_burn",
      chainId: chains.source.chainId,
      provider: `circle-cctp-v2-${transferSpeedOf(finalityThreshold)}-forwarding`,
      tokenIn: chains.source.contracts.usdc,
      tokenOut: chains.intermediate.contracts.usdc,
      amountIn: usdc(upfront.totalDebitUsdc),
      amountOut: usdc(request.sendAmountUsdc),
    },
    {
      kind: "aggregator_route",
      chainId: chains.intermediate.chainId,
      provider: `${route.provider}:${route.tool}`,
      tokenIn: chains.intermediate.contracts.usdc,
      tokenOut: chains.destination.contracts.usdm,
      amountIn: usdc(routeInputUsdc),
      amountOut: eighteen(route.expectedUsdm),
    },
    {
      kind: "mento_exchange",
      chainId: chains.destination.chainId,
      provider: "mento",
      tokenIn: chains.destination.contracts.usdm,
      tokenOut: chains.destination.contracts.copm,
      amountIn: eighteen(route.expectedUsdm),
      amountOut: eighteen(route.expectedCopm),
    },
  ];

  const [quote] = await ctx.db
    .insert(settlementQuotes)
    .values({
      id: newId("qt", ctx.clock),
      organizationId: ctx.caller.organizationId,
      integrationId: ctx.caller.integrationId,
      sourceAddress: request.sourceAddress,
      destinationAddress: request.destinationAddress,
      sendAmountUsdc: request.sendAmountUsdc,
      finalityThreshold,
      fastTransferFeeUsdc: upfront.fastTransferFeeUsdc,
      forwardingFeeUsdc: upfront.forwardingFeeUsdc,
      feeBufferUsdc: upfront.feeBufferUsdc,
      transferUpfrontFeeUsdc: upfront.transferUpfrontFeeUsdc,
      totalDebitUsdc: upfront.totalDebitUsdc,
      serviceFeeBps,
      serviceFeeUsdc,
      partnerFeeBps,
      partnerFeeUsdc,
      partnerFeeAddress,
      routeInputUsdc,
      expectedUsdm: route.expectedUsdm,
      expectedCopm: route.expectedCopm,
      copAmountMin: copAmountMin(route.expectedCopm),
      legs,
      createdAt: now,
      expiresAt: new Date(now.getTime() + QUOTE_LIFETIME_MS),
    })
    .returning();
  return required(quote);
}
