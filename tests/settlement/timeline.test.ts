import { describe, expect, it } from "vitest";
import { exampleOrderReceipt } from "../../functions/webhooks/example-receipts";
import type { SettlementQuote } from "../../lib/settlement/create-quote";
import { FUNDS_STATUSES, ORDER_STATUSES } from "../../lib/settlement/lifecycle";
import { TIMELINE, TIMELINE_KINDS, type TimelineKind } from "../../lib/settlement/timeline";
import { timelineDetail, typedEntry } from "../../lib/settlement/timeline-entries";
import type { SettlementEvent } from "../../lib/settlement/views/order";
import { settlementReceipt } from "../../lib/settlement/views/receipt";
import { EVENT_CATALOG } from "../../lib/webhooks/event-types";

describe("the settlement timeline's table", () => {
  it("labels every kind in both languages, each label its own", () => {
    for (const language of ["es", "en"] as const) {
      const labels = TIMELINE_KINDS.map((kind) => TIMELINE[kind].label[language]);
      expect(labels.every((label) => label.trim().length > 0)).toBe(true);
      expect(new Set(labels).size).toBe(labels.length);
    }
  });

  it("moves to statuses of the lifecycle, and a move's webhook is the one its status sends", () => {
    for (const kind of TIMELINE_KINDS) {
      const { moves, webhook } = TIMELINE[kind];
      if (!moves) continue;
      expect(ORDER_STATUSES).toContain(moves.status);
      expect(FUNDS_STATUSES).toContain(moves.fundsStatus);
      // The catalog says which status each settlement event announces: "(status MINTED)".
      if (webhook) expect(EVENT_CATALOG[webhook], kind).toContain(`(status ${moves.status})`);
    }
  });

  it("gives a public reason only for a provider's published code", () => {
    const reasoned = TIMELINE_KINDS.filter((kind) => TIMELINE[kind].publicReason);
    expect(reasoned).toEqual(["ATTESTATION_DELAYED", "EXCHANGE_DELAYED", "EXCHANGE_HALTED"]);
  });

  it("refuses a stored detail that lacks a figure its kind records, or holds one that is not atomic units", () => {
    expect(timelineDetail("EXCHANGED", { usdmIn: "1000", copmOut: "3800" })).toEqual({
      usdmIn: "1000",
      copmOut: "3800",
    });
    expect(timelineDetail("EXCHANGED", { usdmIn: "1000" })).toBeUndefined();
    expect(timelineDetail("EXCHANGED", { usdmIn: "10.5", copmOut: "3800" })).toBeUndefined();
    expect(typedEntry({ kind: "NOT_A_KIND", detail: {} })).toBeUndefined();
    expect(typedEntry({ kind: "STUCK", detail: { reason: "why" } })).toEqual({
      kind: "STUCK",
      detail: { reason: "why" },
    });
  });

  it("names every leg a delivered and a returned order's receipt shows, from the kinds that made it", () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 15, minute)).toISOString();
    const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
    const paths = {
      delivered: [
        "BURN_VERIFIED",
        "ATTESTED",
        "FORWARDED_MINT",
        "ROUTE_SENT",
        "ROUTE_COMPLETED",
        "DELIVERED",
      ],
      returned: ["BURN_VERIFIED", "ATTESTED", "FORWARDED_MINT", "RETURN_BURNED", "RETURNED"],
    } as const;
    for (const [end, kinds] of Object.entries(paths)) {
      const timeline = kinds.map((kind, index) => ({
        at: at(index),
        kind,
        chainId: 8453,
        txHash: hash(index + 1),
      }));
      const receipt = exampleOrderReceipt(timeline);
      // The example adds the exchange before the delivery, as the service records it.
      const made = new Set<string>(
        [...kinds, ...(end === "delivered" ? (["EXCHANGED"] as const) : [])].flatMap(
          (kind) => TIMELINE[kind].receipt,
        ),
      );
      const shown = receipt.legs.map((leg) => leg.leg);
      for (const leg of shown) expect(made, `${end}: ${leg}`).toContain(leg);
      // And none is lost: every leg the path moves money through is on the receipt.
      expect(shown, end).toEqual(
        end === "delivered"
          ? ["burn", "cctp_mint", "route", "exchange", "service_fee", "delivery"]
          : ["burn", "cctp_mint", "return_burn", "return_mint"],
      );
    }
  });

  it("reads the entries earlier versions wrote, without the fields added since, and keeps their legs", () => {
    // As submit-burn, the relay and the aggregator legs wrote them before logIndex, burnedAt,
    // feeUnusedUsdc, mintedBy and the recipient were recorded.
    const older: Array<[TimelineKind, Record<string, unknown>]> = [
      ["BURN_VERIFIED", { amount: "100240000", maxFee: "240000", blockNumber: "17" }],
      ["ATTESTED", {}],
      ["FORWARDED_MINT", { amount: "100040000", feeCollected: "200000" }],
      ["ROUTE_REFUNDED", { amount: "98000000" }],
      ["DELIVERED", { copm: "384749615250000000000000" }],
      ["RETURN_BURNED", { amount: "100040000", maxFee: "240000" }],
      ["RETURNED", { amount: "99840000", feeCollected: "200000" }],
    ];
    for (const [kind, detail] of older) expect(typedEntry({ kind, detail }), kind).toBeDefined();

    const quote = {
      sendAmountUsdc: 100_000_000n,
      totalDebitUsdc: 100_240_000n,
      transferUpfrontFeeUsdc: 240_000n,
      serviceFeeUsdc: 1_000_000n,
      routeInputUsdc: 99_000_000n,
      expectedUsdm: 98_950_500n * 10n ** 12n,
      expectedCopm: 384_749_615_250_000_000_000_000n,
    } as SettlementQuote;
    const entry = (kind: TimelineKind, detail: Record<string, unknown>, minute: number): SettlementEvent => ({
      id: `evt_${minute}`,
      orderId: "ord_old",
      kind,
      ...(TIMELINE[kind].moves ?? TIMELINE.ORDER_CREATED.moves),
      chainId: "8453",
      txHash: `0x${minute.toString(16).padStart(64, "0")}`,
      detail,
      at: new Date(Date.UTC(2026, 0, 1, 0, minute)),
    });
    const receipt = settlementReceipt(quote, [
      entry("BURN_VERIFIED", { amount: "100240000", maxFee: "240000", blockNumber: "17" }, 1),
      entry("FORWARDED_MINT", { amount: "100040000", feeCollected: "200000" }, 2),
      entry("RETURN_BURNED", { amount: "100040000", maxFee: "240000" }, 3),
      entry("RETURNED", { amount: "99840000", feeCollected: "200000" }, 4),
    ]);
    expect(receipt.legs.map((leg) => leg.leg)).toEqual(["burn", "cctp_mint", "return_burn", "return_mint"]);
  });
});
