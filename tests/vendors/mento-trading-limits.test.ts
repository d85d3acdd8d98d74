import { describe, expect, it } from "vitest";
import {
  L0,
  L1,
  LG,
  type TradingLimitConfig,
  type TradingLimitState,
  tradingLimitBreach,
  tradingLimitHeadroom,
} from "../../lib/vendors/mento/mento-trading-limits";

/** Whole units of an 18-decimal token. */
const E18 = (units: bigint) => units * 10n ** 18n;

const NO_LIMIT: TradingLimitConfig = {
  timestep0: 0n,
  timestep1: 0n,
  limit0: 0n,
  limit1: 0n,
  limitGlobal: 0n,
  flags: 0,
};
const FRESH: TradingLimitState = {
  lastUpdated0: 0n,
  lastUpdated1: 0n,
  netflow0: 0n,
  netflow1: 0n,
  netflowGlobal: 0n,
};
const NOW = 1_700_000_000n;

/** L0: 1,000 units per 300 s. */
const L0_ONLY: TradingLimitConfig = { ...NO_LIMIT, timestep0: 300n, limit0: 1_000n, flags: L0 };

describe("Mento trading limits replayed off-chain", () => {
  it("guards nothing when no flag is on", () => {
    expect(tradingLimitBreach(NO_LIMIT, FRESH, E18(10n ** 12n), 18, NOW)).toBeUndefined();
  });

  it("counts whole units truncated toward zero: the limit itself passes, one unit more does not", () => {
    expect(tradingLimitBreach(L0_ONLY, FRESH, E18(1_000n), 18, NOW)).toBeUndefined();
    expect(tradingLimitBreach(L0_ONLY, FRESH, E18(1_000n) + E18(1n) - 1n, 18, NOW)).toBeUndefined();
    expect(tradingLimitBreach(L0_ONLY, FRESH, E18(1_001n), 18, NOW)).toEqual({
      limit: "L0",
      netflow: 1_001n,
      bound: 1_000n,
    });
    // 6 decimals count the same way.
    expect(tradingLimitBreach(L0_ONLY, FRESH, 1_001_000_000n, 6, NOW)?.limit).toBe("L0");
  });

  it("counts a non-zero flow below one unit as one unit, in its direction", () => {
    const atLimit = { ...FRESH, lastUpdated0: NOW, netflow0: 1_000n };
    expect(tradingLimitBreach(L0_ONLY, atLimit, 1n, 18, NOW)).toEqual({
      limit: "L0",
      netflow: 1_001n,
      bound: 1_000n,
    });
    // Out of the exchange it moves the netflow back inside.
    expect(tradingLimitBreach(L0_ONLY, atLimit, -1n, 18, NOW)).toBeUndefined();
  });

  it("subtracts outflows and bounds them at -limit", () => {
    expect(tradingLimitBreach(L0_ONLY, FRESH, -E18(1_000n), 18, NOW)).toBeUndefined();
    expect(tradingLimitBreach(L0_ONLY, FRESH, -E18(1_001n), 18, NOW)).toEqual({
      limit: "L0",
      netflow: -1_001n,
      bound: 1_000n,
    });
    // An inflow already recorded leaves room for a larger outflow.
    const inflow = { ...FRESH, lastUpdated0: NOW, netflow0: 600n };
    expect(tradingLimitBreach(L0_ONLY, inflow, -E18(1_600n), 18, NOW)).toBeUndefined();
  });

  it("restarts a window only once it has passed (strictly after lastUpdated + timestep)", () => {
    const started = { ...FRESH, lastUpdated0: NOW, netflow0: 900n };
    expect(tradingLimitBreach(L0_ONLY, started, E18(200n), 18, NOW + 300n)?.limit).toBe("L0");
    expect(tradingLimitBreach(L0_ONLY, started, E18(200n), 18, NOW + 301n)).toBeUndefined();
  });

  it("tracks L1 only while L0 is on, each in its own window", () => {
    const both: TradingLimitConfig = { ...L0_ONLY, timestep1: 86_400n, limit1: 5_000n, flags: L0 | L1 };
    // L0's window has passed, L1's has not: L0 restarts at 800, L1 reaches 5,100.
    const state = {
      ...FRESH,
      lastUpdated0: NOW - 400n,
      lastUpdated1: NOW - 400n,
      netflow0: 900n,
      netflow1: 4_300n,
    };
    expect(tradingLimitBreach(both, state, E18(800n), 18, NOW)).toEqual({
      limit: "L1",
      netflow: 5_100n,
      bound: 5_000n,
    });
    expect(tradingLimitBreach(both, state, E18(800n), 18, NOW + 86_400n)).toBeUndefined();
    // L1 without L0 is not tracked at all (Mento refuses to configure it).
    const l1Alone: TradingLimitConfig = { ...both, flags: L1 };
    expect(tradingLimitBreach(l1Alone, state, E18(800n), 18, NOW)).toBeUndefined();
  });

  it("never restarts LG, and checks it even when L0 has room", () => {
    const global: TradingLimitConfig = { ...L0_ONLY, limitGlobal: 1_500n, flags: L0 | LG };
    const state = { ...FRESH, lastUpdated0: NOW - 1_000n, netflow0: 600n, netflowGlobal: 1_100n };
    expect(tradingLimitBreach(global, state, E18(500n), 18, NOW)).toEqual({
      limit: "LG",
      netflow: 1_600n,
      bound: 1_500n,
    });
    expect(tradingLimitBreach(global, state, E18(400n), 18, NOW)).toBeUndefined();
    const lgOnly: TradingLimitConfig = { ...NO_LIMIT, limitGlobal: 1_500n, flags: LG };
    expect(tradingLimitBreach(lgOnly, state, E18(400n), 18, NOW + 10n ** 9n)).toBeUndefined();
    expect(tradingLimitBreach(lgOnly, state, E18(401n), 18, NOW + 10n ** 9n)?.limit).toBe("LG");
  });

  it("fails a flow that does not fit Mento's int48 counters", () => {
    const huge: TradingLimitConfig = { ...NO_LIMIT, limitGlobal: 2n ** 47n - 1n, flags: LG };
    expect(tradingLimitBreach(huge, FRESH, E18(2n ** 47n), 18, NOW)?.limit).toBe("int48");
    const nearlyFull = { ...FRESH, netflowGlobal: 2n ** 47n - 1n };
    expect(tradingLimitBreach(huge, nearlyFull, E18(1n), 18, NOW)?.limit).toBe("int48");
  });

  it("gives as headroom the largest flow each way that passes, and one unit more fails (the price book's trading-limit state)", () => {
    const configs: TradingLimitConfig[] = [
      L0_ONLY,
      { ...L0_ONLY, timestep1: 86_400n, limit1: 1_800n, flags: L0 | L1 },
      { ...L0_ONLY, timestep1: 86_400n, limit1: 1_800n, limitGlobal: 2_500n, flags: L0 | L1 | LG },
      { ...NO_LIMIT, limitGlobal: 700n, flags: LG },
    ];
    const states: TradingLimitState[] = [
      FRESH,
      {
        ...FRESH,
        lastUpdated0: NOW - 10n,
        lastUpdated1: NOW - 10n,
        netflow0: 600n,
        netflow1: 1_500n,
        netflowGlobal: -300n,
      },
      {
        ...FRESH,
        lastUpdated0: NOW - 10n,
        lastUpdated1: NOW - 10n,
        netflow0: -999n,
        netflow1: -1_000n,
        netflowGlobal: 2_400n,
      },
      // L0's window over: its netflow restarts at the next trade.
      { ...FRESH, lastUpdated0: NOW - 301n, lastUpdated1: NOW - 10n, netflow0: 1_000n, netflow1: 0n },
      { ...FRESH, lastUpdated0: NOW - 10n, netflow0: 1_000n, netflowGlobal: 700n },
    ];
    let checked = 0;
    for (const config of configs) {
      for (const state of states) {
        for (const [direction, sign] of [
          ["in", 1n],
          ["out", -1n],
        ] as const) {
          for (const decimals of [6, 18]) {
            const headroom = tradingLimitHeadroom(config, state, direction, decimals, NOW);
            if (headroom === undefined) throw new Error("a limit is on");
            if (headroom > 0n)
              expect(tradingLimitBreach(config, state, sign * headroom, decimals, NOW)).toBeUndefined();
            expect(tradingLimitBreach(config, state, sign * (headroom + 1n), decimals, NOW)).toBeDefined();
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBe(80);
    expect(tradingLimitHeadroom(NO_LIMIT, FRESH, "in", 18, NOW)).toBeUndefined();
    expect(tradingLimitHeadroom(L0_ONLY, FRESH, "in", 18, NOW)).toBe(E18(1_001n) - 1n);
  });
});
