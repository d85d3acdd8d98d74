import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { feesOf, type ReceiptLeg, residueOf } from "../../lib/ledger/receipt";
import type { SettlementQuote } from "../../lib/settlement/create-quote";
import { FEE_BUFFER_BPS } from "../../lib/settlement/limits";
import { copAmountMin, copPerUsdc, principalFee, upfrontFees } from "../../lib/settlement/pricing/arithmetic";
import { TIMELINE, type TimelineKind } from "../../lib/settlement/timeline";
import type { TimelineDetail } from "../../lib/settlement/timeline-entries";
import type { SettlementEvent } from "../../lib/settlement/views/order";
import { settlementReceipt } from "../../lib/settlement/views/receipt";

// Random quotes (priced by the service's own arithmetic) and random outcomes of every leg (Circle's
// fee, routes refunded or partial, Mento's output, a return from either chain), turned into the
// timeline entries the legs record; the receipt built from them must give back the quote's figures
// and hold, per token, exactly what the outcomes leave with the order.

const SOURCE = 31331;
const INTERMEDIATE = 31332;
const DESTINATION = 31333;
const E12 = 10n ** 12n;

interface Scenario {
  quote: SettlementQuote;
  events: SettlementEvent[];
  /** What the order holds at the end, computed from the outcomes alone. */
  held: { usdcIntermediate: bigint; usdmDestination: bigint };
  end: "delivered" | "returned" | "in_flight";
  refundedCosts: bigint;
}

const usdcAmount = fc.bigInt({ min: 10_000_000n, max: 1_000_000_000n });

const scenario = fc
  .record({
    sendAmountUsdc: usdcAmount,
    serviceFeeBps: fc.integer({ min: 0, max: 500 }),
    partnerFeeBps: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100 })),
    fast: fc.boolean(),
    forwardFeeUsdc: fc.bigInt({ min: 0n, max: 500_000n }),
    circleShare: fc.bigInt({ min: 0n, max: 10_000n }),
    refunds: fc.array(fc.bigInt({ min: 0n, max: 10_000n }), { maxLength: 2 }),
    partial: fc.boolean(),
    routeKeepsBps: fc.bigInt({ min: 9_800n, max: 10_000n }),
    mentoRate: fc.bigInt({ min: 3_000n, max: 5_000n }),
    mentoMovesBps: fc.bigInt({ min: 9_700n, max: 10_300n }),
    end: fc.constantFrom("delivered", "returned_from_intermediate", "returned_from_destination", "in_flight"),
    returnCircleShare: fc.bigInt({ min: 0n, max: 10_000n }),
  })
  .map((draw): Scenario => {
    const fees = upfrontFees(
      draw.sendAmountUsdc,
      {
        minimumFee: draw.fast ? { numerator: 1n, denominator: 10_000n } : { numerator: 0n, denominator: 1n },
        forwardFeeUsdc: draw.forwardFeeUsdc,
      },
      FEE_BUFFER_BPS,
    );
    const service = principalFee(draw.sendAmountUsdc, draw.serviceFeeBps);
    const partner = principalFee(draw.sendAmountUsdc, draw.partnerFeeBps);
    const routeInputUsdc = draw.sendAmountUsdc - service - partner;
    const expectedUsdm = routeInputUsdc * E12;
    const expectedCopm = expectedUsdm * draw.mentoRate;
    const quote = {
      id: "qt_1",
      sendAmountUsdc: draw.sendAmountUsdc,
      serviceFeeBps: draw.serviceFeeBps,
      partnerFeeBps: draw.partnerFeeBps,
      partnerFeeUsdc: partner,
      serviceFeeUsdc: service,
      routeInputUsdc,
      expectedUsdm,
      expectedCopm,
      copAmountMin: copAmountMin(expectedCopm),
      ...fees,
    } as unknown as SettlementQuote;

    let clock = Date.UTC(2026, 10, 25);
    let id = 0;
    const events: SettlementEvent[] = [];
    const entry = <K extends TimelineKind>(
      kind: K,
      chainId: number,
      detail: TimelineDetail<K>,
      txHash = true,
    ) => {
      clock += 1_000;
      id += 1;
      events.push({
        id: `evt_${String(id).padStart(3, "0")}`,
        orderId: "ord_1",
        kind,
        ...(TIMELINE[kind].moves ?? TIMELINE.ORDER_CREATED.moves),
        chainId: String(chainId),
        txHash: txHash ? `0x${id.toString(16).padStart(64, "0")}` : null,
        detail,
        at: new Date(clock),
      });
    };
    const circleFee = (fees.transferUpfrontFeeUsdc * draw.circleShare) / 10_000n;
    const minted = fees.totalDebitUsdc - circleFee;
    entry("BURN_VERIFIED", SOURCE, {
      amount: fees.totalDebitUsdc.toString(),
      maxFee: fees.transferUpfrontFeeUsdc.toString(),
      blockNumber: "1",
      logIndex: 0,
    });
    entry("ATTESTED", SOURCE, { eventNonce: "0x01" });
    entry("FORWARDED_MINT", INTERMEDIATE, {
      amount: minted.toString(),
      feeCollected: circleFee.toString(),
      feeUnusedUsdc: (fees.transferUpfrontFeeUsdc - circleFee).toString(),
    });
    let usdcHeld = minted;
    let usdmHeld = 0n;
    let refundedCosts = 0n;
    for (const keptBps of draw.refunds) {
      entry("ROUTE_SENT", INTERMEDIATE, {});
      const back = (routeInputUsdc * (10_000n - keptBps / 100n)) / 10_000n;
      entry("ROUTE_REFUNDED", INTERMEDIATE, { amount: back.toString(), substatus: "REFUNDED" });
      usdcHeld += back - routeInputUsdc;
      refundedCosts += routeInputUsdc - back;
    }
    const returnHome = (amount: bigint) => {
      entry("RETURN_BURNED", INTERMEDIATE, { amount: amount.toString(), maxFee: "0" });
      const fee = (amount * draw.returnCircleShare) / 1_000_000n;
      entry("RETURNED", SOURCE, {
        amount: (amount - fee).toString(),
        feeCollected: fee.toString(),
        to: "0x00000000000000000000000000000000000000ab",
      });
      usdcHeld -= amount;
    };
    if (draw.end === "returned_from_intermediate") {
      returnHome(usdcHeld);
      return {
        quote,
        events,
        held: { usdcIntermediate: usdcHeld, usdmDestination: 0n },
        end: "returned",
        refundedCosts,
      };
    }
    entry("ROUTE_SENT", INTERMEDIATE, {});
    usdcHeld -= routeInputUsdc;
    const arrivedUsdc = (routeInputUsdc * draw.routeKeepsBps) / 10_000n;
    const usdm = arrivedUsdc * E12;
    entry(
      "ROUTE_COMPLETED",
      DESTINATION,
      draw.partial
        ? {
            receivedUsdm: usdm.toString(),
            partial: {
              token: `0x${"aa".repeat(20)}`,
              amount: arrivedUsdc.toString(),
              conversionTxHash: `0x${"cc".repeat(32)}`,
            },
          }
        : { receivedUsdm: usdm.toString() },
    );
    usdmHeld += usdm;
    if (draw.end === "in_flight") {
      return {
        quote,
        events,
        held: { usdcIntermediate: usdcHeld, usdmDestination: usdmHeld },
        end: "in_flight",
        refundedCosts,
      };
    }
    if (draw.end === "returned_from_destination") {
      entry("RETURN_ROUTE_SENT", DESTINATION, { usdm: usdmHeld.toString() });
      const back = ((usdmHeld / E12) * draw.routeKeepsBps) / 10_000n;
      entry("RETURN_ROUTE_COMPLETED", INTERMEDIATE, { receivedUsdc: back.toString() });
      usdmHeld = 0n;
      usdcHeld += back;
      returnHome(usdcHeld);
      return {
        quote,
        events,
        held: { usdcIntermediate: usdcHeld, usdmDestination: 0n },
        end: "returned",
        refundedCosts,
      };
    }
    const copmOut = (usdm * draw.mentoRate * draw.mentoMovesBps) / 10_000n;
    entry("EXCHANGED", DESTINATION, { usdmIn: usdm.toString(), copmOut: copmOut.toString() });
    entry("DELIVERED", DESTINATION, {
      copm: copmOut.toString(),
      to: `0x${"ab".repeat(20)}`,
      ...(partner > 0n
        ? {
            partnerFee: {
              amount: partner.toString(),
              to: `0x${"bc".repeat(20)}`,
              chainId: INTERMEDIATE,
              txHash: `0x${"fe".repeat(32)}`,
            },
          }
        : {}),
    });
    usdmHeld -= usdm;
    usdcHeld -= service + partner;
    return {
      quote,
      events,
      held: { usdcIntermediate: usdcHeld, usdmDestination: usdmHeld },
      end: "delivered",
      refundedCosts,
    };
  });

const only = (legs: readonly ReceiptLeg[], kind: string) => legs.filter((leg) => leg.leg === kind);
const feeOf = (legs: readonly ReceiptLeg[], type: string) =>
  feesOf(legs)
    .filter((fee) => fee.type === type)
    .reduce((sum, fee) => sum + fee.amount, 0n);

describe("a settlement receipt over random quotes and outcomes", () => {
  it("gives back the quote's figures and holds per token what the outcomes leave (5,000 runs)", () => {
    fc.assert(
      fc.property(scenario, ({ quote, events, held, end, refundedCosts }) => {
        const { legs, rates } = settlementReceipt(quote, events);
        const [burn] = only(legs, "burn");
        const [mint] = only(legs, "cctp_mint");
        if (!burn || !mint) throw new Error("no burn or mint");

        // The quote's figures, recomputed from the receipt.
        expect(burn.amountIn).toBe(quote.totalDebitUsdc);
        const circleForward = mint.amountIn - mint.amountOut;
        const upfront = circleForward + (mint.amountOut - (burn.amountIn - quote.transferUpfrontFeeUsdc));
        expect(upfront).toBe(quote.transferUpfrontFeeUsdc);
        const routes = [...only(legs, "route"), ...only(legs, "route_refunded")];
        for (const route of routes) expect(route.amountIn).toBe(quote.routeInputUsdc);
        expect(feeOf(legs, "aggregator") >= refundedCosts).toBe(true);

        // What it holds, token by token, is what the outcomes left.
        const residue = residueOf(legs);
        const holding = (token: string, chainId: number) =>
          residue.find((entry) => entry.token === token && entry.chainId === chainId)?.amount ?? 0n;
        expect(holding("USDC", INTERMEDIATE)).toBe(held.usdcIntermediate);
        expect(holding("USDm", DESTINATION)).toBe(held.usdmDestination);
        expect(holding("USDC", SOURCE)).toBe(0n);
        expect(holding("COPm", DESTINATION)).toBe(0n);

        if (end === "delivered") {
          const [exchange] = only(legs, "exchange");
          const [delivery] = only(legs, "delivery");
          expect(feeOf(legs, "service")).toBe(quote.serviceFeeUsdc);
          expect(feeOf(legs, "partner")).toBe(quote.partnerFeeUsdc);
          expect(quote.routeInputUsdc + feeOf(legs, "service") + feeOf(legs, "partner")).toBe(
            quote.sendAmountUsdc,
          );
          expect(principalFee(quote.sendAmountUsdc, quote.partnerFeeBps)).toBe(feeOf(legs, "partner"));
          expect(principalFee(quote.sendAmountUsdc, quote.serviceFeeBps)).toBe(feeOf(legs, "service"));
          // A delivered order keeps exactly what Circle did not take of the upfront fee.
          expect(held.usdcIntermediate).toBe(quote.transferUpfrontFeeUsdc - circleForward - refundedCosts);
          expect(rates[0]?.achieved).toBe(copPerUsdc(delivery?.amountOut ?? 0n, quote.sendAmountUsdc));
          expect(delivery?.amountOut).toBe(exchange?.amountOut);
        } else {
          // No service fee on an order that did not deliver.
          expect(feeOf(legs, "service")).toBe(0n);
          expect(feeOf(legs, "partner")).toBe(0n);
          expect(rates[0]?.achieved).toBeNull();
        }
        if (end === "returned") {
          const [home] = only(legs, "return_mint");
          const [returnBurn] = only(legs, "return_burn");
          expect((home?.amountOut ?? 0n) + (home?.fees[0]?.amount ?? 0n)).toBe(returnBurn?.amountIn);
        }
      }),
      { numRuns: 5_000, seed: 20261125 },
    );
  });
});
