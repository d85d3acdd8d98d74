import { type Receipt, type ReceiptLeg, rateOf } from "../../ledger/receipt";
import type { SettlementQuote } from "../create-quote";
import { copPerUsdc } from "../pricing/arithmetic";
import { typedEntry } from "../timeline-entries";
import {
  aggregatorCost,
  burnChain,
  chainOf,
  circleMint,
  MissingLeg,
  openLeg,
  routeEnded,
  type SettlementEvent,
  USDC_TO_USDM,
  unchanged,
} from "./receipt-legs";

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
  let exchanged: { usdmIn: bigint; copmOut: bigint } | undefined;
  let deliveredCopm: bigint | null = null;
  for (const event of events) {
    const base = { at: event.at, chainId: chainOf(event), txHash: event.txHash };
    // Entries of a kind this code does not know, or written by hand without their figures, have no leg.
    const typed = typedEntry(event);
    if (!typed) continue;
    try {
      switch (typed.kind) {
        case "BURN_VERIFIED": {
          const amount = BigInt(typed.detail.amount);
          legs.push({
            ...base,
            leg: "burn",
            ...unchanged("USDC", amount),
            movements: [{ token: "USDC", chainId: base.chainId, amount, counterparty: "user" }],
          });
          break;
        }
        case "DEPOSIT_VERIFIED": {
          // USDC already on the intermediate chain: the user's transfer lands in the settlement account.
          const amount = BigInt(typed.detail.amount);
          legs.push({
            ...base,
            leg: "deposit",
            ...unchanged("USDC", amount),
            movements: [{ token: "USDC", chainId: base.chainId, amount, counterparty: "user" }],
          });
          break;
        }
        case "FORWARDED_MINT": {
          const minted = BigInt(typed.detail.amount);
          const fee = BigInt(typed.detail.feeCollected);
          legs.push({
            ...base,
            leg: "cctp_mint",
            ...circleMint(minted, fee),
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
          const usdm = BigInt(typed.detail.receivedUsdm);
          const { partial } = typed.detail;
          if (partial) {
            // The aggregator brought USDC or USDT to the destination chain; Mento converted it to USDm.
            const arrived = BigInt(partial.amount);
            const token = partial.symbol ?? "USDC";
            routeEnded(route, event, token, arrived, aggregatorCost(quote.routeInputUsdc, arrived));
            legs.push({
              ...base,
              leg: "conversion",
              txHash: partial.conversionTxHash,
              tokenIn: token,
              amountIn: arrived,
              tokenOut: "USDm",
              amountOut: usdm,
              fees: [],
              movements: [
                { token, chainId: base.chainId, amount: -arrived, counterparty: "mento" },
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
          const back = BigInt(typed.detail.amount);
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
          const usdmIn = BigInt(typed.detail.usdmIn);
          const copmOut = BigInt(typed.detail.copmOut);
          exchanged = { usdmIn, copmOut };
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
          const intermediate =
            legs.find((leg) => leg.leg === "cctp_mint" || leg.leg === "deposit")?.chainId ?? base.chainId;
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
          const copm = BigInt(typed.detail.copm);
          deliveredCopm = copm;
          legs.push({
            ...base,
            leg: "delivery",
            ...unchanged("COPm", copm),
            movements: [{ token: "COPm", chainId: base.chainId, amount: -copm, counterparty: "user" }],
          });
          const kept = typed.detail.serviceFeeKept;
          const service = legs.find((leg) => leg.leg === "service_fee");
          if (kept !== undefined && service) {
            // The order held less than the quoted fee when it delivered: the service kept what it held.
            const amount = BigInt(kept);
            service.amountIn = amount;
            service.fees = amount > 0n ? [{ type: "service", token: "USDC", amount }] : [];
            service.movements = service.movements.map((movement) => ({ ...movement, amount: -amount }));
          }
          const partner = typed.detail.partnerFee;
          if (partner) {
            // The organization's own fee, paid from the USDC the route left on the intermediate chain.
            const fee = BigInt(partner.amount);
            if (fee > 0n) {
              legs.push({
                at: event.at,
                chainId: partner.chainId,
                txHash: partner.txHash ?? null,
                leg: "partner_fee",
                tokenIn: "USDC",
                amountIn: fee,
                tokenOut: "USDC",
                amountOut: 0n,
                fees: [{ type: "partner", token: "USDC", amount: fee }],
                movements: [
                  { token: "USDC", chainId: partner.chainId, amount: -fee, counterparty: "partner" },
                ],
              });
            }
            // What the order could not pay because it held less: owed to the partner, moved by no one.
            const short = partner.owed === undefined ? 0n : BigInt(partner.owed) - fee;
            if (short > 0n) {
              legs.push({
                at: event.at,
                chainId: partner.chainId,
                txHash: null,
                leg: "partner_fee_shortfall",
                tokenIn: "USDC",
                amountIn: short,
                tokenOut: "USDC",
                amountOut: 0n,
                fees: [],
                movements: [],
              });
            }
          }
          break;
        }
        case "RETURN_ROUTE_SENT": {
          returnRouteSent = event;
          const usdm = BigInt(typed.detail.usdm);
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
          const usdc = BigInt(typed.detail.receivedUsdc);
          routeEnded(route, event, "USDC", usdc, aggregatorCost(route.amountIn / USDC_TO_USDM, usdc));
          returnRouteSent = undefined;
          break;
        }
        case "RETURN_ROUTE_REFUNDED": {
          const route = openLeg(legs, "return_route", returnRouteSent);
          const back = BigInt(typed.detail.amount);
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
          const amount = BigInt(typed.detail.amount);
          legs.push({
            ...base,
            leg: "return_burn",
            ...unchanged("USDC", amount),
            // Out of the settlement account, to Circle, for the user on the source chain.
            movements: [
              { token: "USDC", chainId: base.chainId, amount: -amount, counterparty: "circle" },
              { token: "USDC", chainId: burnChain(legs), amount, counterparty: "circle" },
            ],
          });
          break;
        }
        case "RETURNED": {
          const minted = BigInt(typed.detail.amount);
          const fee = BigInt(typed.detail.feeCollected);
          legs.push({
            ...base,
            leg: "return_mint",
            ...circleMint(minted, fee),
            movements: [
              { token: "USDC", chainId: base.chainId, amount: -fee, counterparty: "circle" },
              { token: "USDC", chainId: base.chainId, amount: -minted, counterparty: "user" },
            ],
          });
          break;
        }
        case "RETURNED_ON_DESTINATION": {
          // Every way back was refunded: the settlement account sent the USDm to the user there.
          const amount = BigInt(typed.detail.amount);
          legs.push({
            ...base,
            leg: "return_on_destination",
            ...unchanged("USDm", amount),
            movements: [{ token: "USDm", chainId: base.chainId, amount: -amount, counterparty: "user" }],
          });
          const { usdc } = typed.detail;
          if (usdc) {
            // What the order still held on the intermediate chain, to the same address there.
            const rest = BigInt(usdc.amount);
            legs.push({
              at: event.at,
              chainId: usdc.chainId,
              txHash: usdc.txHash,
              leg: "return_remainder",
              ...unchanged("USDC", rest),
              movements: [{ token: "USDC", chainId: usdc.chainId, amount: -rest, counterparty: "user" }],
            });
          }
          break;
        }
        case "ORDER_CREATED":
        case "ATTESTATION_REQUESTED":
        case "ATTESTATION_DELAYED":
        case "ATTESTED":
        case "ROUTE_FAILED":
        case "FORWARD_FAILED":
        case "MINT_RELAYED":
        case "ROUTE_PARTIAL":
        case "CONVERTED":
        case "EXCHANGE_DELAYED":
        case "EXCHANGE_HALTED":
        case "STUCK":
        case "HELD":
        case "HOLD_RELEASED":
        case "PAYMENT_RESIGNED":
        case "RETURN_REQUESTED":
        case "RETURN_REDIRECTED":
        case "CHAIN_RESET":
          // These move no money (TIMELINE says so: no receipt leg).
          break;
        default:
          typed satisfies never;
      }
    } catch (error) {
      // A leg that ends without its start (an entry written by hand) is left out; a receipt never
      // fails the read of its order.
      if (!(error instanceof MissingLeg)) throw error;
    }
  }
  return {
    legs,
    rates: [
      {
        of: "COP per USDC of principal",
        quoted: copPerUsdc(quote.expectedCopm, quote.sendAmountUsdc),
        achieved: deliveredCopm === null ? null : copPerUsdc(deliveredCopm, quote.sendAmountUsdc),
      },
      {
        of: "COPm per USDm (Mento)",
        quoted: rateOf(quote.expectedCopm, 18, quote.expectedUsdm, 18),
        achieved: exchanged ? rateOf(exchanged.copmOut, 18, exchanged.usdmIn, 18) : null,
      },
    ],
  };
}
