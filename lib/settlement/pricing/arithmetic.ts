import { FINALITY_FAST } from "../../kernel/chain/abis";
import { formatAmount, mulDivDown, mulDivUp } from "../../kernel/money";
import {
  BPS,
  COPM_DECIMALS,
  MAX_ROUTE_VARIANCE_BPS,
  RATE_DECIMALS,
  ROUTE_SLIPPAGE_BPS,
  USDC_DECIMALS,
} from "../limits";

/**
 * The arithmetic of a settlement quote, in atomic units. Fees round up (a fee never falls short),
 * guaranteed amounts round down (a promise is never more than can be kept). Every figure can be
 * recomputed from the others; tests/settlement/pricing.test.ts does so for many random quotes.
 */
export interface TransferFeeTerms {
  /** Circle's minimum fee for the burn's finality as a fraction of the burned amount (Standard: 0). */
  minimumFee: { numerator: bigint; denominator: bigint };
  forwardFeeUsdc: bigint;
}

export interface UpfrontFees {
  /** Circle's protocol fee on the burned total (the Fast fee; usually 0 for Standard). */
  fastTransferFeeUsdc: bigint;
  forwardingFeeUsdc: bigint;
  /** FEE_BUFFER_BPS of the two above, rounded up. */
  feeBufferUsdc: bigint;
  /** The three together: the burn's maxFee. */
  transferUpfrontFeeUsdc: bigint;
  totalDebitUsdc: bigint;
}

/**
 * The fee charged on top of the principal so that what Circle mints to the settlement account (the
 * burned total less Circle's fee on that total, less the forwarding fee) is at least the principal,
 * even if Circle's fee rose by up to `bufferBps` of it before attestation. Circle's fee is on the
 * total, which includes the fee: the smallest protocol fee that covers itself is found by
 * iterating, which settles in a step or two.
 */
export function upfrontFees(sendAmountUsdc: bigint, terms: TransferFeeTerms, bufferBps: bigint): UpfrontFees {
  const { numerator, denominator } = terms.minimumFee;
  if (numerator < 0n || denominator <= 0n || numerator >= denominator)
    throw new RangeError("minimum fee fraction");
  if (bufferBps < 0n) throw new RangeError("fee buffer");
  let protocol = 0n;
  for (;;) {
    const quoted = protocol + terms.forwardFeeUsdc;
    const buffer = mulDivUp(quoted, bufferBps, BPS);
    const total = sendAmountUsdc + quoted + buffer;
    const required = mulDivUp(total, numerator, denominator);
    if (required <= protocol) {
      return {
        fastTransferFeeUsdc: protocol,
        forwardingFeeUsdc: terms.forwardFeeUsdc,
        feeBufferUsdc: buffer,
        transferUpfrontFeeUsdc: quoted + buffer,
        totalDebitUsdc: total,
      };
    }
    protocol = required;
  }
}

/**
 * The maxFee of a return's burn of `amount`: Circle's fee at the transfer's terms (its minimum fee on
 * the amount, rounded up, and the forwarding fee) and the buffer on top. The user receives the
 * amount less what Circle takes, at most this.
 */
export function returnMaxFee(amount: bigint, terms: TransferFeeTerms, bufferBps: bigint): bigint {
  const quoted =
    mulDivUp(amount, terms.minimumFee.numerator, terms.minimumFee.denominator) + terms.forwardFeeUsdc;
  return quoted + mulDivUp(quoted, bufferBps, BPS);
}

/** A quote's CCTP finality by its name: Fast (1000) or Standard (2000, and anything else). */
export function transferSpeedOf(finalityThreshold: number): "fast" | "standard" {
  return finalityThreshold === FINALITY_FAST ? "fast" : "standard";
}

/** A fee taken from the principal (the service's, the organization's own): basis points of it, rounded up. */
export function principalFee(sendAmountUsdc: bigint, feeBps: number): bigint {
  return mulDivUp(sendAmountUsdc, BigInt(feeBps), BPS);
}

/** The binding delivery floor: the expected COPm less the 3% route slippage, rounded down. */
export function copAmountMin(expectedCopm: bigint): bigint {
  return mulDivDown(expectedCopm, BPS - ROUTE_SLIPPAGE_BPS, BPS);
}

/** COP per USDC of principal, as a decimal string rounded down to RATE_DECIMALS places. */
export function copPerUsdc(copm: bigint, sendAmountUsdc: bigint): string {
  const scaled = mulDivDown(
    copm,
    10n ** BigInt(USDC_DECIMALS + RATE_DECIMALS),
    sendAmountUsdc * 10n ** BigInt(COPM_DECIMALS),
  );
  return formatAmount(scaled, RATE_DECIMALS);
}

/** True when a re-priced route delivers no more than 4% less than the quote expected. */
export function withinVariance(quotedCopm: bigint, repricedCopm: bigint): boolean {
  return repricedCopm * BPS >= quotedCopm * (BPS - MAX_ROUTE_VARIANCE_BPS);
}
