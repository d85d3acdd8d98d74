/**
 * Mento's trading limits (mento-core contracts/libraries/TradingLimits.sol, applied by
 * Broker.guardTradingLimit), replayed off-chain to tell whether a trade would pass them now:
 * - flows count in whole token units (int48), truncated toward zero, a non-zero flow below one unit
 *   counting as one; flow into the exchange is positive, out of it negative;
 * - L0 is the netflow of a window of timestep0 seconds that restarts on the first trade after
 *   `lastUpdated0 + timestep0`; L1 likewise and only while L0 is on; LG never restarts;
 * - the trade fails when an enabled netflow leaves [-limit, +limit], or an int48 overflows;
 * - a limit id with no flag on is not guarded at all.
 */

export const L0 = 1;
export const L1 = 2;
export const LG = 4;

const MAX_INT48 = 2n ** 47n - 1n;
const MIN_INT48 = -(2n ** 47n);

/** ITradingLimits.Config as the broker's tradingLimitsConfig view returns it, widened to bigint. */
export interface TradingLimitConfig {
  timestep0: bigint;
  timestep1: bigint;
  limit0: bigint;
  limit1: bigint;
  limitGlobal: bigint;
  flags: number;
}

/** ITradingLimits.State as the broker's tradingLimitsState view returns it, widened to bigint. */
export interface TradingLimitState {
  lastUpdated0: bigint;
  lastUpdated1: bigint;
  netflow0: bigint;
  netflow1: bigint;
  netflowGlobal: bigint;
}

/** Which check a trade fails and by how much: netflow after the trade against the bound it leaves. */
export interface TradingLimitBreach {
  limit: "L0" | "L1" | "LG" | "int48";
  netflow: bigint;
  bound: bigint;
}

/**
 * The check a trade moving `flow` atomic units of a token with `decimals` would fail if mined at
 * `now` (unix seconds), or undefined when it passes.
 */
export function tradingLimitBreach(
  config: TradingLimitConfig,
  state: TradingLimitState,
  flow: bigint,
  decimals: number,
  now: bigint,
): TradingLimitBreach | undefined {
  if (config.flags === 0 || flow === 0n) return undefined;
  const after = stateAfterFlow(config, state, flow, decimals, now);
  if ("limit" in after) return after;

  const checks = [
    { flag: L0, limit: "L0", netflow: after.netflow0, bound: config.limit0 },
    { flag: L1, limit: "L1", netflow: after.netflow1, bound: config.limit1 },
    { flag: LG, limit: "LG", netflow: after.netflowGlobal, bound: config.limitGlobal },
  ] as const;
  for (const { flag, limit, netflow, bound } of checks) {
    if (isOn(config, flag) && (netflow > bound || netflow < -bound)) return { limit, netflow, bound };
  }
  return undefined;
}

/** TradingLimits.update: the state after one trade, or the int48 breach that makes it revert. */
function stateAfterFlow(
  config: TradingLimitConfig,
  state: TradingLimitState,
  flow: bigint,
  decimals: number,
  now: bigint,
): TradingLimitState | TradingLimitBreach {
  // BigInt division truncates toward zero, as Solidity's int256 division does.
  let units = flow / 10n ** BigInt(decimals);
  if (units > MAX_INT48) return { limit: "int48", netflow: units, bound: MAX_INT48 };
  if (units < MIN_INT48) return { limit: "int48", netflow: units, bound: MIN_INT48 };
  if (units === 0n) units = flow > 0n ? 1n : -1n;

  const next = { ...state };
  if (isOn(config, L0)) {
    if (now > next.lastUpdated0 + config.timestep0) {
      next.netflow0 = 0n;
      next.lastUpdated0 = now;
    }
    next.netflow0 += units;
    if (isOn(config, L1)) {
      if (now > next.lastUpdated1 + config.timestep1) {
        next.netflow1 = 0n;
        next.lastUpdated1 = now;
      }
      next.netflow1 += units;
    }
  }
  if (isOn(config, LG)) next.netflowGlobal += units;

  for (const netflow of [next.netflow0, next.netflow1, next.netflowGlobal]) {
    if (netflow > MAX_INT48 || netflow < MIN_INT48) return { limit: "int48", netflow, bound: MAX_INT48 };
  }
  return next;
}

function isOn(config: TradingLimitConfig, flag: number): boolean {
  return (config.flags & flag) !== 0;
}

/**
 * The largest flow of the token (atomic units; `direction` in, positive, or out, negative) that
 * passes every enabled limit if mined at `now`: for each, the whole units left between its netflow
 * (zero once its window has restarted) and its bound, plus the part below one unit the truncation
 * leaves uncounted. Undefined when no limit is on; 0 when none is left.
 */
export function tradingLimitHeadroom(
  config: TradingLimitConfig,
  state: TradingLimitState,
  direction: "in" | "out",
  decimals: number,
  now: bigint,
): bigint | undefined {
  if (config.flags === 0) return undefined;
  const netflows: { netflow: bigint; bound: bigint }[] = [];
  if (isOn(config, L0)) {
    netflows.push({
      netflow: now > state.lastUpdated0 + config.timestep0 ? 0n : state.netflow0,
      bound: config.limit0,
    });
    if (isOn(config, L1)) {
      netflows.push({
        netflow: now > state.lastUpdated1 + config.timestep1 ? 0n : state.netflow1,
        bound: config.limit1,
      });
    }
  }
  if (isOn(config, LG)) netflows.push({ netflow: state.netflowGlobal, bound: config.limitGlobal });
  if (netflows.length === 0) return undefined;
  const unit = 10n ** BigInt(decimals);
  let least: bigint | undefined;
  for (const { netflow, bound } of netflows) {
    // Whole units that may still move this way; a flow of u units (truncated, at least one) passes while u ≤ left.
    const left = direction === "in" ? bound - netflow : bound + netflow;
    const flow = left < 1n ? 0n : (left + 1n) * unit - 1n;
    if (least === undefined || flow < least) least = flow;
  }
  return least;
}
