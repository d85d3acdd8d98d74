import { sql } from "drizzle-orm";
import { settlementQuotes } from "../../schema";
import type { QuoteLeg } from "../../schema/settlement-quotes";
import {
  assertWithinVolumeLimits,
  deniedFirst,
  insertUnlessDenied,
  noneDenied,
  screenOnOracles,
} from "../compliance";
import { FINALITY_FAST, FINALITY_STANDARD } from "../kernel/chain/abis";
import type { SourceChainRef } from "../kernel/chain/source-chains";
import type { Database } from "../kernel/db/database";
import { preparedOn } from "../kernel/db/prepared";
import { rowParameters } from "../kernel/db/row-parameters";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { formatAmount, mulDivUp } from "../kernel/money";
import { required } from "../tenancy/organizations";
import type { SettlementContext } from "./context";
import { assertIntakeOpen, settlementParties } from "./intake";
import {
  COPM_DECIMALS,
  FEE_BUFFER_BPS,
  MAX_SEND_USDC,
  MIN_SEND_USDC,
  QUOTE_LIFETIME_MS,
  USDC_DECIMALS,
} from "./limits";
import {
  copAmountMin,
  principalFee,
  type TransferFeeTerms,
  transferSpeedOf,
  upfrontFees,
} from "./pricing/arithmetic";
import { bookPricing } from "./pricing/book";
import {
  type BridgePrice,
  priceBridge,
  type SettlementChains,
  settlementChains,
  startsOnIntermediate,
} from "./pricing/prices";
import { withProviderErrors } from "./pricing/provider-errors";
import { quoteSourceChain } from "./source-chain";

export type SettlementQuote = typeof settlementQuotes.$inferSelect;

export interface QuoteRequest {
  /** What the user sends (the principal), or the COPm the destination must receive at least. */
  amount: { sendUsdc: bigint } | { receiveCop: bigint };
  sourceAddress: `0x${string}`;
  destinationAddress: `0x${string}`;
  /** The chain the USDC leaves; the organization's default (or the profile's) when absent. */
  sourceChain?: SourceChainRef;
}

const STAGE = "QUOTE";

/** A transfer on the intermediate chain: no Circle fee, no forwarding fee, so no buffer either. */
const NO_TRANSFER_FEES: TransferFeeTerms = {
  minimumFee: { numerator: 0n, denominator: 1n },
  forwardFeeUsdc: 0n,
};

/** What a principal buys: the fees taken from it, what the route carries, and the route's price. */
interface Priced {
  sendAmountUsdc: bigint;
  serviceFeeUsdc: bigint;
  partnerFeeUsdc: bigint;
  routeInputUsdc: bigint;
  route: BridgePrice;
}

/** Prices a settlement and reserves the quote for the caller's organization for 60 seconds. */
export async function createQuote(ctx: SettlementContext, request: QuoteRequest): Promise<SettlementQuote> {
  if ("sendUsdc" in request.amount) assertWithinLimits(request.amount.sendUsdc);
  const settlementAccount = assertIntakeOpen(ctx, STAGE);
  const source = quoteSourceChain(ctx, request.sourceChain, STAGE);
  const chains = settlementChains(ctx.chains, STAGE, source.chainId);

  const serviceFeeBps = ctx.caller.organization.serviceFeeBps;
  // Fast where the organization burns Fast and Circle offers it from this chain (where Standard is
  // already fast, Circle has no Fast Transfer: docs/domain-facts.md); a chain described without its
  // attestation times is taken to offer it.
  const fastOffered = source.attestation ? source.attestation.fastSeconds !== undefined : true;
  const deposit = startsOnIntermediate(chains);
  if (deposit) await assertSendsOwnTransfer(chains, request.sourceAddress);
  const fast = ctx.caller.organization.fastTransfer && fastOffered && !deposit;
  const finalityThreshold = fast ? FINALITY_FAST : FINALITY_STANDARD;
  // The organization's own fee, rounded up like the service's, from the same principal.
  const { partnerFeeBps, partnerFeeAddress } = ctx.caller.organization;
  // From the price book: fresh enough by each source's maximum age, refreshed only when not.
  const pricing = bookPricing(ctx);
  const priceAt = async (sendAmountUsdc: bigint): Promise<Priced> => {
    const serviceFeeUsdc = principalFee(sendAmountUsdc, serviceFeeBps);
    const partnerFeeUsdc = principalFee(sendAmountUsdc, partnerFeeBps);
    const routeInputUsdc = sendAmountUsdc - serviceFeeUsdc - partnerFeeUsdc;
    const route = await priceBridge(pricing, chains, settlementAccount, routeInputUsdc, STAGE);
    return { sendAmountUsdc, serviceFeeUsdc, partnerFeeUsdc, routeInputUsdc, route };
  };
  const parties = settlementParties(request);
  // A party on the deny list is told so before any other refusal (docs/compliance.md).
  return deniedFirst(ctx, parties, STAGE, async () => {
    const [fees, priced] = await Promise.all([
      // USDC already on the intermediate chain pays Circle nothing: a plain transfer.
      deposit
        ? NO_TRANSFER_FEES
        : withProviderErrors(
            () =>
              pricing.fees.transferFees({
                sourceDomain: chains.source.cctpDomain,
                destinationDomain: chains.intermediate.cctpDomain,
                finalityThreshold,
              }),
            STAGE,
          ),
      "sendUsdc" in request.amount
        ? priceAt(request.amount.sendUsdc)
        : solveForReceived(priceAt, request.amount.receiveCop),
      // Beside the pricing, so it adds no wait; the deny list is read by the insert itself (noneDenied),
      // so nothing is stored unless both pass.
      screenOnOracles(ctx, parties, [chains.source, chains.destination], STAGE),
    ]);
    const { serviceFeeUsdc, partnerFeeUsdc, routeInputUsdc, route } = priced;
    const sendAmountUsdc = priced.sendAmountUsdc;
    // Told at the quote, before the user signs anything; the order checks again under the locks.
    await assertWithinVolumeLimits(ctx, ctx.db, {
      organizationId: ctx.caller.organizationId,
      userAddress: request.sourceAddress,
      amountUsd: sendAmountUsdc,
      limits: ctx.caller.organization,
      lock: false,
      stage: STAGE,
    });
    const upfront = upfrontFees(sendAmountUsdc, fees, FEE_BUFFER_BPS);

    const now = ctx.clock.now();
    const usdc = (units: bigint) => formatAmount(units, USDC_DECIMALS);
    const eighteen = (units: bigint) => formatAmount(units, COPM_DECIMALS);
    const legs: QuoteLeg[] = [
      deposit
        ? {
            kind: "usdc_transfer",
            chainId: chains.intermediate.chainId,
            provider: "erc20-transfer",
            tokenIn: chains.intermediate.contracts.usdc,
            tokenOut: chains.intermediate.contracts.usdc,
            amountIn: usdc(upfront.totalDebitUsdc),
            amountOut: usdc(sendAmountUsdc),
          }
        : {
            kind: "cctp_burn",
            chainId: chains.source.chainId,
            provider: `circle-cctp-v2-${transferSpeedOf(finalityThreshold)}-forwarding`,
            tokenIn: chains.source.contracts.usdc,
            tokenOut: chains.intermediate.contracts.usdc,
            amountIn: usdc(upfront.totalDebitUsdc),
            amountOut: usdc(sendAmountUsdc),
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

    const row: SettlementQuote = {
      id: newId("qt", ctx.clock),
      organizationId: ctx.caller.organizationId,
      integrationId: ctx.caller.integrationId,
      sourceAddress: request.sourceAddress,
      destinationAddress: request.destinationAddress,
      sendAmountUsdc,
      receiveAmountCop: "receiveCop" in request.amount ? request.amount.receiveCop : null,
      sourceChainId: chains.source.chainId,
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
    };
    const parameters = {
      ...quoteRow.values(row),
      sourceParty: request.sourceAddress,
      destinationParty: request.destinationAddress,
    };
    // A new id conflicts with nothing: the insert writes unless a party is listed (403 then). The
    // quote is the row written, not read back: its values are the columns' own (whole units, ms).
    required(await insertUnlessDenied(ctx, parties, STAGE, () => insertQuote(ctx.db).execute(parameters)));
    return row;
  });
}

const INSERT_QUOTE = "settlement_quotes_create";
const quoteRow = rowParameters(settlementQuotes);

/**
 * `insert into settlement_quotes (…) select $1::text, … where <neither party is denied> returning id`,
 * built once per database client: the deny list's read and the write are one statement.
 */
function insertQuote(db: Database) {
  return preparedOn(db, INSERT_QUOTE, (on) =>
    on
      .insert(settlementQuotes)
      .select(
        sql`select ${quoteRow.select} where ${noneDenied([sql.placeholder("sourceParty"), sql.placeholder("destinationParty")])}`,
      )
      .returning({ id: settlementQuotes.id })
      .prepare(INSERT_QUOTE),
  );
}

function assertWithinLimits(sendAmountUsdc: bigint) {
  if (sendAmountUsdc < MIN_SEND_USDC)
    throw new ApiError("BELOW_MINIMUM", { stage: STAGE, detail: "(10 USDC)" });
  if (sendAmountUsdc > MAX_SEND_USDC)
    throw new ApiError("ABOVE_MAXIMUM", { stage: STAGE, detail: "(1,000 USDC)" });
}

/** Pricings a received amount may take after its first probe. */
const SOLVER_STEPS = 4;

/**
 * A principal whose floor delivers at least `receiveCop`, within a unit or two (of 0.000001 USDC)
 * of the least: priced first at the least principal (10 USDC), then at the principal the last price's
 * rate says is needed (every fee is a share of the principal, so the floor is nearly proportional to
 * it): up by what a price missed, down while a price that holds says less would do. Outside
 * 10–1,000 USDC it is BELOW_MINIMUM or ABOVE_MAXIMUM, as a send amount would be.
 */
async function solveForReceived(
  priceAt: (sendAmountUsdc: bigint) => Promise<Priced>,
  receiveCop: bigint,
): Promise<Priced> {
  // Probed at the least principal: a market (Mento's trading limit, a route's capacity) that takes
  // the amount asked takes that too, where a larger probe could be refused.
  let priced = await priceAt(MIN_SEND_USDC);
  let best: Priced | undefined;
  for (let step = 0; step <= SOLVER_STEPS; step++) {
    const floor = copAmountMin(priced.route.expectedCopm);
    if (floor <= 0n) break;
    const holds = step > 0 && floor >= receiveCop;
    if (holds && (!best || priced.sendAmountUsdc < best.sendAmountUsdc)) best = priced;
    // The principal at this price's rate, rounded up.
    let next = mulDivUp(priced.sendAmountUsdc, receiveCop, floor);
    if (best) {
      // Below the best that holds, never below the minimum; nothing lower to try ends the search.
      if (next < MIN_SEND_USDC) next = MIN_SEND_USDC;
      if (next >= best.sendAmountUsdc || step === SOLVER_STEPS) break;
    } else {
      // Short (or the probe): up, by a unit at least once a step fell short.
      if (step > 0 && next <= priced.sendAmountUsdc) next = priced.sendAmountUsdc + 1n;
      assertWithinLimits(next);
      if (step === SOLVER_STEPS) break;
    }
    priced = await priceAt(next);
  }
  if (best) return best;
  throw new ApiError("ROUTE_UNAVAILABLE", {
    stage: STAGE,
    detail: "(no principal within the limits was found to deliver the amount asked; quote by sendAmountUsdc)",
  });
}

/**
 * A deposit is proved by the user's own transaction (its sender, its input): a contract wallet (a
 * Safe, an ERC-4337 account) sends through its contract and could never prove it, so its USDC would
 * reach the settlement account unclaimed. Such an address burns from a CCTP chain instead, whose
 * proof is in the burn's event. An EOA delegated by EIP-7702 (code 0xef0100…) sends its own.
 */
async function assertSendsOwnTransfer(chains: SettlementChains, sourceAddress: `0x${string}`): Promise<void> {
  const code = await chains.intermediate.client.getCode({ address: sourceAddress }).catch(() => {
    throw new ApiError("PROVIDER_UNAVAILABLE", { stage: STAGE, detail: `(${chains.intermediate.name})` });
  });
  if (code && code !== "0x" && !code.toLowerCase().startsWith("0xef0100")) {
    throw new ApiError("INVALID_SOURCE_ADDRESS", {
      stage: STAGE,
      problems: [
        {
          field: "body.sourceAddress",
          code: "INVALID_SOURCE_ADDRESS",
          problem: `is a contract on ${chains.intermediate.name}: a deposit there must be the address's own transfer; burn from a CCTP source chain instead`,
        },
      ],
    });
  }
}
