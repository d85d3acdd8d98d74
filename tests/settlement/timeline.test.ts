import { describe, expect, it } from "vitest";
import { exampleOrderReceipt } from "../../functions/webhooks/example-receipts";
import { FUNDS_STATUSES, ORDER_STATUSES } from "../../lib/settlement/lifecycle";
import { TIMELINE, TIMELINE_KINDS, timelineDetail, typedEntry } from "../../lib/settlement/timeline";
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
    expect(reasoned).toEqual(["ATTESTATION_DELAYED", "EXCHANGE_DELAYED"]);
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
      expect(shown.length, end).toBeGreaterThan(0);
      for (const leg of shown) expect(made, `${end}: ${leg}`).toContain(leg);
    }
  });
});
