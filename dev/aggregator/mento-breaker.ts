import { type Account, type Hex, parseAbi } from "viem";
import type { LegChain } from "../../lib/kernel/chain/leg-chain";
import { type OperatorWallet, operatorWallet, sendUnlessDone } from "../../lib/sandbox/operator";
import { type Pool, rateOf, usdmCopmPool } from "./mento-rate";

const PROVIDER = "sandbox-mento";

/**
 * The test amount `.81`: Mento's own MedianDeltaBreaker (from `@mento-protocol/mento-core-ts`,
 * registered in the BreakerBox on the USDm/COPm feed) trips, and trading on the pool halts for a
 * window, as when the peso's rate jumps. The lever is governance's and the oracle's, never the
 * service's: the breaker's cooldown is set to the window, the oracle stand-in reports a median
 * TRIP_MOVE_BPS away (past the breaker's 20% threshold: the BreakerBox halts the feed, trading mode
 * 3) and at once the rate that stood before (the breaker, cooling, keeps the halt). Once the window
 * has passed, the local aggregator's tick reports the rate again until the BreakerBox resets the
 * breaker (Mento resets only on a report after the cooldown whose median is back within the
 * threshold of the breaker's average; the first such report brings the average back, the second
 * resets). Mento's halt is the pool's: every order's exchange waits meanwhile.
 */

const WAD = 10n ** 18n;
const BPS = 10_000n;
const TRIP_MOVE_BPS = 3_000n;
const TRADING_MODE_BIDIRECTIONAL = 0;

const breakerAbi = parseAbi([
  "function breakerBox() view returns (address)",
  "function getRateFeedTradingMode(address rateFeedID) view returns (uint8)",
  "function getBreakers() view returns (address[])",
  "function isBreakerEnabled(address breaker, address rateFeedID) view returns (bool)",
  "function rateFeedBreakerStatus(address rateFeedID, address breaker) view returns (uint8 tradingMode, uint64 lastUpdatedTime, bool enabled)",
  "function getCooldown(address rateFeedID) view returns (uint256)",
  "function setCooldownTime(address[] rateFeedIDs, uint256[] cooldownTimes)",
  "function report(address rateFeedId, uint256 numerator, uint256 denominator)",
]);

interface Guard {
  pool: Pool;
  box: Hex;
  breaker: Hex;
}

/** The USDm/COPm pool, its BreakerBox and the breaker enabled on its feed, when there are. */
async function guardOf(destination: LegChain): Promise<Guard | undefined> {
  const pool = await usdmCopmPool(destination);
  if (!pool) return undefined;
  const read = destination.client;
  const box = await read.readContract({ address: pool.manager, abi: breakerAbi, functionName: "breakerBox" });
  const breakers = await read.readContract({ address: box, abi: breakerAbi, functionName: "getBreakers" });
  for (const breaker of breakers) {
    const enabled = await read.readContract({
      address: box,
      abi: breakerAbi,
      functionName: "isBreakerEnabled",
      args: [breaker, pool.feed],
    });
    if (enabled) return { pool, box, breaker };
  }
  return undefined;
}

function tradingMode(destination: LegChain, guard: Guard): Promise<number> {
  return destination.client.readContract({
    address: guard.box,
    abi: breakerAbi,
    functionName: "getRateFeedTradingMode",
    args: [guard.pool.feed],
  });
}

function report(wallet: OperatorWallet, guard: Guard, numerator: bigint, denominator: bigint) {
  return wallet.writeContract({
    address: guard.pool.oracles,
    abi: breakerAbi,
    functionName: "report",
    args: [guard.pool.feed, numerator, denominator],
  });
}

/** Trips the USDm/COPm breaker for `windowMs` (once: a feed already halted stays as it is). */
export async function tripMentoBreaker(
  destination: LegChain,
  operator: Account,
  windowMs: number,
): Promise<void> {
  if (windowMs <= 0) return;
  const guard = await guardOf(destination);
  if (!guard) return;
  const wallet = operatorWallet(destination, operator);
  const cooldown = BigInt(Math.max(1, Math.ceil(windowMs / 1000)));
  await sendUnlessDone({
    provider: PROVIDER,
    what: "set the USDm/COPm breaker's cooldown to the window",
    chain: destination,
    wallet,
    done: async () =>
      (await destination.client.readContract({
        address: guard.breaker,
        abi: breakerAbi,
        functionName: "getCooldown",
        args: [guard.pool.feed],
      })) === cooldown,
    send: (sender) =>
      sender.writeContract({
        address: guard.breaker,
        abi: breakerAbi,
        functionName: "setCooldownTime",
        args: [[guard.pool.feed], [cooldown]],
      }),
  });
  const before = await rateOf(destination, guard.pool);
  await sendUnlessDone({
    provider: PROVIDER,
    what: "report a USDm/COPm median past the breaker's threshold",
    chain: destination,
    wallet,
    done: async () => (await tradingMode(destination, guard)) !== TRADING_MODE_BIDIRECTIONAL,
    send: (sender) => report(sender, guard, (WAD * (BPS + TRIP_MOVE_BPS)) / BPS, before.denominator),
  });
  await sendUnlessDone({
    provider: PROVIDER,
    what: "report the USDm/COPm rate that stood before",
    chain: destination,
    wallet,
    done: async () => (await rateOf(destination, guard.pool)).numerator === before.numerator,
    send: (sender) => report(sender, guard, before.numerator, before.denominator),
  });
}

/**
 * Reports the standing rate once the tripped breaker's cooldown has passed by `now` (the service's
 * clock: a waiting chain mines no blocks), until the BreakerBox resets it (at most twice); true when
 * trading is open again after it.
 */
export async function resetMentoBreaker(
  destination: LegChain,
  operator: Account,
  now: Date,
): Promise<boolean> {
  const guard = await guardOf(destination);
  if (!guard || (await tradingMode(destination, guard)) === TRADING_MODE_BIDIRECTIONAL) return false;
  const [[, lastUpdated], cooldown] = await Promise.all([
    destination.client.readContract({
      address: guard.box,
      abi: breakerAbi,
      functionName: "rateFeedBreakerStatus",
      args: [guard.pool.feed, guard.breaker],
    }),
    destination.client.readContract({
      address: guard.breaker,
      abi: breakerAbi,
      functionName: "getCooldown",
      args: [guard.pool.feed],
    }),
  ]);
  if (now.getTime() < Number(lastUpdated + cooldown) * 1000) return false;
  const rate = await rateOf(destination, guard.pool);
  const open = async () => (await tradingMode(destination, guard)) === TRADING_MODE_BIDIRECTIONAL;
  for (let attempt = 0; attempt < 2; attempt++) {
    await sendUnlessDone({
      provider: PROVIDER,
      what: "report the standing USDm/COPm rate after the breaker's cooldown",
      chain: destination,
      wallet: operatorWallet(destination, operator),
      done: open,
      send: (sender) => report(sender, guard, rate.numerator, rate.denominator),
    });
  }
  return open();
}
