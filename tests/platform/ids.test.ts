import { describe, expect, it } from "vitest";
import { ManualClock } from "../../lib/kernel/clock";
import { hasPrefix, newId } from "../../lib/kernel/ids";

describe("ids", () => {
  it("are prefixed, 26 Crockford characters, and sort in creation order within one millisecond", () => {
    const clock = new ManualClock(new Date("2026-11-22T12:00:00Z"));
    const ids = Array.from({ length: 1_000 }, () => newId("evt", clock));
    for (const id of ids) expect(hasPrefix(id, "evt")).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("sort by time across milliseconds, whatever the random part", () => {
    const clock = new ManualClock(new Date("2026-11-22T12:00:00Z"));
    const earlier = newId("ord", clock);
    clock.advance(1);
    const later = newId("ord", clock);
    expect(earlier < later).toBe(true);
    expect(earlier.slice(4, 14) < later.slice(4, 14)).toBe(true);
  });
});
