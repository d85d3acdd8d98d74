import { formatAmount, type TokenSymbol } from "../kernel/money";

/**
 * The books of one order, payout or swap: its legs as they happened on the chains, each with the
 * money it moved. Every figure is an atomic amount the chain shows (a transfer in a receipt, a
 * burn's or mint's event) or one the quote fixed (the service's fee), so a partner can recompute
 * each from the transaction it names. docs/ledger.md describes every leg.
 */

/** Who a movement's money came from or went to, outside the order's own funds. */
export type Counterparty = "user" | "circle" | "aggregator" | "mento" | "service" | "provider" | "partner";

/** Who took a fee. */
type FeeType = "circle" | "aggregator" | "service" | "provider" | "partner";

/**
 * One change to the money an order (payout, swap) holds, in one token on one chain: positive when
 * money came in (the user's burn, a route's output), negative when it left (a fee, a route's input,
 * the delivery). The sum of a record's movements per token and chain is what it still holds.
 */
interface Movement {
  /** When it happened, if later than its leg began (a route's output arriving). */
  at?: Date;
  token: TokenSymbol;
  chainId: number;
  amount: bigint;
  counterparty: Counterparty;
}

export interface LegFee {
  type: FeeType;
  token: TokenSymbol;
  amount: bigint;
}

/** A leg's tokens: the chains' tokens, and Colombian pesos paid off chain by a payout's provider. */
type LegToken = TokenSymbol | "COP";

export interface ReceiptLeg {
  leg: string;
  at: Date;
  chainId: number;
  txHash: string | null;
  tokenIn: LegToken;
  amountIn: bigint;
  tokenOut: LegToken;
  amountOut: bigint;
  fees: LegFee[];
  movements: Movement[];
  /** A leg's other transaction: where a route's output arrived, a partial route's conversion. */
  relatedTxHashes?: { chainId: number; txHash: string; role: string }[];
}

export interface Residue {
  token: TokenSymbol;
  chainId: number;
  amount: bigint;
}

/** A rate as a decimal string, quoted and achieved, of `tokenOut` per `tokenIn`. */
interface RateCheck {
  of: string;
  quoted: string;
  achieved: string | null;
}

export interface Receipt {
  legs: ReceiptLeg[];
  rates: RateCheck[];
}

/** What a record still holds, per token and chain: the sum of its movements (zeros left out). */
export function residueOf(legs: readonly ReceiptLeg[]): Residue[] {
  const held = new Map<string, Residue>();
  for (const movement of legs.flatMap((leg) => leg.movements)) {
    const key = `${movement.token}:${movement.chainId}`;
    const entry = held.get(key) ?? { token: movement.token, chainId: movement.chainId, amount: 0n };
    entry.amount += movement.amount;
    held.set(key, entry);
  }
  return [...held.values()].filter((entry) => entry.amount !== 0n);
}

/** Every fee of the record, summed by who took it and in which token. */
export function feesOf(legs: readonly ReceiptLeg[]): LegFee[] {
  const total = new Map<string, LegFee>();
  for (const fee of legs.flatMap((leg) => leg.fees)) {
    const key = `${fee.type}:${fee.token}`;
    const entry = total.get(key) ?? { type: fee.type, token: fee.token, amount: 0n };
    entry.amount += fee.amount;
    total.set(key, entry);
  }
  return [...total.values()];
}

const RATE_DECIMALS = 6;

/** How many of one token per one of another, from atomic amounts with their decimals, to 6 places (rounded down). */
export function rateOf(out: bigint, outDecimals: number, into: bigint, intoDecimals: number): string {
  if (into === 0n) return "0";
  const scaled = (out * 10n ** BigInt(intoDecimals + RATE_DECIMALS)) / (into * 10n ** BigInt(outDecimals));
  return formatAmount(scaled, RATE_DECIMALS);
}

const atomic = (units: bigint) => units.toString();

/** A receipt as partners see it: atomic amounts as decimal strings, ISO times. */
export function receiptView(receipt: Receipt) {
  return {
    legs: receipt.legs.map((leg) => ({
      leg: leg.leg,
      at: leg.at.toISOString(),
      chainId: leg.chainId,
      txHash: leg.txHash,
      tokenIn: leg.tokenIn,
      amountIn: atomic(leg.amountIn),
      tokenOut: leg.tokenOut,
      amountOut: atomic(leg.amountOut),
      fees: leg.fees.map((fee) => ({ ...fee, amount: atomic(fee.amount) })),
      movements: leg.movements.map((movement) => ({
        ...movement,
        at: (movement.at ?? leg.at).toISOString(),
        amount: atomic(movement.amount),
      })),
      relatedTxHashes: leg.relatedTxHashes ?? [],
    })),
    fees: feesOf(receipt.legs).map((fee) => ({ ...fee, amount: atomic(fee.amount) })),
    residue: residueOf(receipt.legs).map((entry) => ({ ...entry, amount: atomic(entry.amount) })),
    rates: receipt.rates,
  };
}

export type ReceiptView = ReturnType<typeof receiptView>;
