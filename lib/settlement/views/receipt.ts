import type { settlementEvents } from "../../../schema";
import type { TokenSymbol } from "../../kernel/money";
import { type Receipt, type ReceiptLeg, rateOf } from "../../ledger/receipt";
import type { SettlementQuote } from "../create-quote";
import { copPerUsdc } from "../pricing/arithmetic";

type SettlementEvent = typeof settlementEvents.$inferSelect;

/** A figure a timeline entry recorded, as atomic units (entries written by this code: always digits). */
/** An entry the receipt cannot show: a figure it lacks, or an end with no start. */
class MissingFigure extends Error {}

function figure(event: SettlementEvent, name: string): bigint {
  const value = event.detail?.[name];
  if (typeof value !== "string" || !/^\d+$/.test(value)) {
    throw new MissingFigure(`${event.kind} entry ${event.id} has no ${name}`);
  }
  return BigInt(value);
}

const chainOf = (event: SettlementEvent) => Number(event.chainId);

/** USDC (6 decimals) as USDm (18): the route carries dollars to dollars. */
const USDC_TO_USDM = 10n ** 12n;

/**
 * A settlement order's legs, read from its timeline: the burn, Circle's mint (and its fee), each
 * route tried (a refunded one with what came back), a partial route's conversion, Mento's exchange,
 * the service's fee (kept once the exchange is done: a returned order pays none), the delivery, and
 * a return's way back, burn and mint. Rates: the quoted COP per USDC of principal against the one
 * delivered, and Mento's COPm per USDm quoted against the one the exchange gave.
 */
export function settlementReceipt(quote: SettlementQuote, timeline: readonly SettlementEvent[]): Receipt {
  const events = [...timeline].sort((a, b) => a.at.getTime() - b.at.getTime() || a.id.localeCompare(b.id));
  const legs: ReceiptLeg[] = [];
  let routeSent: SettlementEvent | undefined;
  let returnRouteSent: SettlementEvent | undefined;
  let exchanged: SettlementEvent | undefined;
  let delivered: SettlementEvent | undefined;
  for (const event of events) {
    const base = { at: event.at, chainId: chainOf(event), txHash: event.txHash };
    try {
      switch (event.kind) {
        case "BURN_VERIFIED": {
          const amount = figure(event, "amount");
          legs.push({
            ...base,
            leg: "burn",
            tokenIn: "USDC",
            amountIn: amount,
            tokenOut: "USDC",
            amountOut: amount,
            fees: [],
            movements: [{ token: "USDC", chainId: base.chainId, amount, counterparty: "user" }],
          });
          break;
        }
        case "FORWARDED_MINT": {
          const minted = figure(event, "amount");
          const fee = figure(event, "feeCollected");
          legs.push({
            ...base,
            leg: "cctp_mint",
            tokenIn: "USDC",
            amountIn: minted + fee,
            tokenOut: "USDC",
            amountOut: minted,
            fees: fee > 0n ? [{ type: "circle", token: "USDC", amount: fee }] : [],
            // The burn counted on the source chain; the mint moves it here, less Circle's fee.
            movements: [
              { token: "USDC", chainId: burnChain(legs), amount: -(minted + fee), counterparty: "circle" },
              { token: "USDC", chainId: base.chainId, amount: minted, counterparty: "circle" },
            ],
          });
          break;
        }
        case "ROUTE_SENT":
          routeSent = event;
          legs.push({
            ...base,
            leg: "route",
            tokenIn: "USDC",
            amountIn: quote.routeInputUsdc,
            tokenOut: "USDm",
            amountOut: 0n,
            fees: [],
            movements: [
              {
                token: "USDC",
                chainId: base.chainId,
                amount: -quote.routeInputUsdc,
                counterparty: "aggregator",
              },
            ],
          });
          break;
        case "ROUTE_COMPLETED": {
          const route = openLeg(legs, "route", routeSent);
          const usdm = figure(event, "receivedUsdm");
          const partial = event.detail?.partial as { amount?: string; conversionTxHash?: string } | undefined;
          if (partial?.amount && partial.conversionTxHash) {
            // The aggregator brought USDC to the destination chain; Mento converted it to USDm.
            const arrived = BigInt(partial.amount);
            routeEnded(route, event, "USDC", arrived, aggregatorCost(quote.routeInputUsdc, arrived));
            legs.push({
              ...base,
              leg: "conversion",
              txHash: partial.conversionTxHash,
              tokenIn: "USDC",
              amountIn: arrived,
              tokenOut: "USDm",
              amountOut: usdm,
              fees: [],
              movements: [
                { token: "USDC", chainId: base.chainId, amount: -arrived, counterparty: "mento" },
                { token: "USDm", chainId: base.chainId, amount: usdm, counterparty: "mento" },
              ],
            });
          } else {
            routeEnded(route, event, "USDm", usdm, aggregatorCost(quote.routeInputUsdc, usdm / USDC_TO_USDM));
          }
          routeSent = undefined;
          break;
        }
        case "ROUTE_REFUNDED": {
          const route = openLeg(legs, "route", routeSent);
          const back = figure(event, "amount");
          routeEnded(
            route,
            event,
            "USDC",
            back,
            aggregatorCost(quote.routeInputUsdc, back),
            "route_refunded",
          );
          routeSent = undefined;
          break;
        }
        case "EXCHANGED": {
          exchanged = event;
          const usdmIn = figure(event, "usdmIn");
          const copmOut = figure(event, "copmOut");
          legs.push({
            ...base,
            leg: "exchange",
            tokenIn: "USDm",
            amountIn: usdmIn,
            tokenOut: "COPm",
            amountOut: copmOut,
            fees: [],
            movements: [
              { token: "USDm", chainId: base.chainId, amount: -usdmIn, counterparty: "mento" },
              { token: "COPm", chainId: base.chainId, amount: copmOut, counterparty: "mento" },
            ],
          });
          // Past the exchange the order delivers: the service's fee, left on the intermediate chain
          // when the route took the principal less it, is the service's now.
          const intermediate = legs.find((leg) => leg.leg === "cctp_mint")?.chainId ?? base.chainId;
          legs.push({
            at: event.at,
            chainId: intermediate,
            txHash: null,
            leg: "service_fee",
            tokenIn: "USDC",
            amountIn: quote.serviceFeeUsdc,
            tokenOut: "USDC",
            amountOut: 0n,
            fees:
              quote.serviceFeeUsdc > 0n
                ? [{ type: "service", token: "USDC", amount: quote.serviceFeeUsdc }]
                : [],
            movements: [
              {
                token: "USDC",
                chainId: intermediate,
                amount: -quote.serviceFeeUsdc,
                counterparty: "service",
              },
            ],
          });
          break;
        }
        case "DELIVERED": {
          delivered = event;
          const copm = figure(event, "copm");
          legs.push({
            ...base,
            leg: "delivery",
            tokenIn: "COPm",
            amountIn: copm,
            tokenOut: "COPm",
            amountOut: copm,
            fees: [],
            movements: [{ token: "COPm", chainId: base.chainId, amount: -copm, counterparty: "user" }],
          });
          const partner = event.detail?.partnerFee as
            | { amount?: string; chainId?: number; txHash?: string }
            | undefined;
          if (partner?.amount && partner.chainId && partner.txHash && /^\d+$/.test(partner.amount)) {
            // The organization's own fee, paid from the USDC the route left on the intermediate chain.
            const fee = BigInt(partner.amount);
            legs.push({
              at: event.at,
              chainId: partner.chainId,
              txHash: partner.txHash,
              leg: "partner_fee",
              tokenIn: "USDC",
              amountIn: fee,
              tokenOut: "USDC",
              amountOut: 0n,
              fees: [{ type: "partner", token: "USDC", amount: fee }],
              movements: [{ token: "USDC", chainId: partner.chainId, amount: -fee, counterparty: "partner" }],
            });
          }
          break;
        }
        case "RETURN_ROUTE_SENT": {
          returnRouteSent = event;
          const usdm = figure(event, "usdm");
          legs.push({
            ...base,
            leg: "return_route",
            tokenIn: "USDm",
            amountIn: usdm,
            tokenOut: "USDC",
            amountOut: 0n,
            fees: [],
            movements: [{ token: "USDm", chainId: base.chainId, amount: -usdm, counterparty: "aggregator" }],
          });
          break;
        }
        case "RETURN_ROUTE_COMPLETED": {
          const route = openLeg(legs, "return_route", returnRouteSent);
          const usdc = figure(event, "receivedUsdc");
          routeEnded(route, event, "USDC", usdc, aggregatorCost(route.amountIn / USDC_TO_USDM, usdc));
          returnRouteSent = undefined;
          break;
        }
        case "RETURN_ROUTE_REFUNDED": {
          const route = openLeg(legs, "return_route", returnRouteSent);
          const back = figure(event, "amount");
          routeEnded(
            route,
            event,
            "USDm",
            back,
            aggregatorCost(route.amountIn / USDC_TO_USDM, back / USDC_TO_USDM),
            "return_route_refunded",
          );
          returnRouteSent = undefined;
          break;
        }
        case "RETURN_BURNED": {
          const amount = figure(event, "amount");
          legs.push({
            ...base,
            leg: "return_burn",
            tokenIn: "USDC",
            amountIn: amount,
            tokenOut: "USDC",
            amountOut: amount,
            fees: [],
            // Out of the settlement account, to Circle, for the user on the source chain.
            movements: [
              { token: "USDC", chainId: base.chainId, amount: -amount, counterparty: "circle" },
              { token: "USDC", chainId: burnChain(legs), amount, counterparty: "circle" },
            ],
          });
          break;
        }
        case "RETURNED": {
          const minted = figure(event, "amount");
          const fee = figure(event, "feeCollected");
          legs.push({
            ...base,
            leg: "return_mint",
            tokenIn: "USDC",
            amountIn: minted + fee,
            tokenOut: "USDC",
            amountOut: minted,
            fees: fee > 0n ? [{ type: "circle", token: "USDC", amount: fee }] : [],
            movements: [
              { token: "USDC", chainId: base.chainId, amount: -fee, counterparty: "circle" },
              { token: "USDC", chainId: base.chainId, amount: -minted, counterparty: "user" },
            ],
          });
          break;
        }
      }
    } catch (error) {
      // Entries written before a figure was recorded (or by hand) leave their leg out; a receipt
      // never fails the read of its order.
      if (!(error instanceof MissingFigure)) throw error;
    }
  }
  const copmDelivered = delivered ? optionalFigure(delivered, "copm") : null;
  return {
    legs,
    rates: [
      {
        of: "COP per USDC of principal",
        quoted: copPerUsdc(quote.expectedCopm, quote.sendAmountUsdc),
        achieved: copmDelivered === null ? null : copPerUsdc(copmDelivered, quote.sendAmountUsdc),
      },
      {
        of: "COPm per USDm (Mento)",
        quoted: rateOf(quote.expectedCopm, 18, quote.expectedUsdm, 18),
        achieved: exchanged
          ? rateOf(
              optionalFigure(exchanged, "copmOut") ?? 0n,
              18,
              optionalFigure(exchanged, "usdmIn") ?? 0n,
              18,
            )
          : null,
      },
    ],
  };
}

function optionalFigure(event: SettlementEvent, name: string): bigint | null {
  try {
    return figure(event, name);
  } catch {
    return null;
  }
}

/** The route leg a completion or refund closes: the last one sent. */
function openLeg(legs: ReceiptLeg[], kind: string, sent: SettlementEvent | undefined): ReceiptLeg {
  const leg = legs.findLast((candidate) => candidate.leg === kind);
  if (!sent || !leg) throw new MissingFigure(`a ${kind} ended that was never sent`);
  return leg;
}

function burnChain(legs: readonly ReceiptLeg[]): number {
  const burn = legs.find((leg) => leg.leg === "burn");
  if (!burn) throw new MissingFigure("Circle minted for an order with no burn");
  return burn.chainId;
}

/**
 * A route's (or way back's) end: what arrived or came back, from the aggregator, when and where (the
 * arrival's transaction), and what the route cost; `renamed` when it ended refunded.
 */
function routeEnded(
  route: ReceiptLeg,
  event: SettlementEvent,
  token: TokenSymbol,
  amount: bigint,
  cost: ReceiptLeg["fees"],
  renamed?: string,
): void {
  if (renamed) route.leg = renamed;
  route.tokenOut = token;
  route.amountOut = amount;
  route.fees = cost;
  route.movements.push({ at: event.at, token, chainId: chainOf(event), amount, counterparty: "aggregator" });
  route.relatedTxHashes = arrivedAt(event);
}

function arrivedAt(event: SettlementEvent): ReceiptLeg["relatedTxHashes"] {
  return event.txHash ? [{ chainId: chainOf(event), txHash: event.txHash, role: "arrival" }] : [];
}

/** What a route cost in dollars: its input less its output, both in USDC units (never below zero). */
function aggregatorCost(inUsdc: bigint, outUsdc: bigint): ReceiptLeg["fees"] {
  const cost = inUsdc - outUsdc;
  return cost > 0n ? [{ type: "aggregator", token: "USDC", amount: cost }] : [];
}
