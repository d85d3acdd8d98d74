import { type Account, type ContractFunctionArgs, getAbiItem, type Hex, parseAbi } from "viem";
import type { LegChain } from "../../lib/kernel/chain/leg-chain";
import { operatorWallet, sendUnlessDone } from "../../lib/sandbox/operator";
import { tradingLimitIdOf } from "../../lib/vendors/mento/mento-exchange";
import { mentoExchangesOf } from "../../lib/vendors/mento/mento-exchanges";
import { L0 } from "../../lib/vendors/mento/mento-trading-limits";

const PROVIDER = "sandbox-mento";

/**
 * The test amount `.76`: Mento's trading limit exhausted at exchange time, freed later, as Mento's
 * governance or a market rush would do it, with Mento's own contracts. The lever sets the USDm/COPm
 * pool's USDm limit L0 to one whole unit (the marker: no real configuration is that tight) for a
 * window of `slowLegMs`, so Mento's Broker refuses every USDm → COPm trade beyond it ("L0 Exceeded")
 * and the service's quote sees the breach. The release (the local aggregator's tick) puts back the
 * configuration that stood before once the window has passed.
 */

const brokerGovernanceAbi = parseAbi([
  "struct TradingLimitConfig { uint32 timestep0; uint32 timestep1; int48 limit0; int48 limit1; int48 limitGlobal; uint8 flags; }",
  "function configureTradingLimit(bytes32 exchangeId, address token, TradingLimitConfig config)",
  "function tradingLimitsConfig(bytes32 limitId) view returns (uint32 timestep0, uint32 timestep1, int48 limit0, int48 limit1, int48 limitGlobal, uint8 flags)",
  "event TradingLimitConfigured(bytes32 exchangeId, address token, TradingLimitConfig config)",
]);

const MARKER_LIMIT = 1;

/** Mento's ITradingLimits.Config as the Broker takes it (uint32 windows, int48 whole-unit limits). */
type TradingLimitConfig = ContractFunctionArgs<
  typeof brokerGovernanceAbi,
  "nonpayable",
  "configureTradingLimit"
>[2];

interface Pool {
  broker: Hex;
  exchangeId: Hex;
  usdm: Hex;
}

async function usdmCopmPool(destination: LegChain): Promise<Pool | undefined> {
  const { broker, usdm, copm } = destination.contracts;
  if (!broker || !usdm || !copm) return undefined;
  const exchanges = await mentoExchangesOf(destination.client, broker);
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const pool = exchanges.find(
    ({ tokens }) => tokens.some((token) => same(token, usdm)) && tokens.some((token) => same(token, copm)),
  );
  return pool && { broker, exchangeId: pool.exchangeId, usdm };
}

async function configOf(destination: LegChain, pool: Pool): Promise<TradingLimitConfig> {
  const [timestep0, timestep1, limit0, limit1, limitGlobal, flags] = await destination.client.readContract({
    address: pool.broker,
    abi: brokerGovernanceAbi,
    functionName: "tradingLimitsConfig",
    args: [tradingLimitIdOf(pool.exchangeId, pool.usdm)],
  });
  return { timestep0, timestep1, limit0, limit1, limitGlobal, flags };
}

const isMarker = (config: Pick<TradingLimitConfig, "limit0">) => config.limit0 === MARKER_LIMIT;

function configure(
  destination: LegChain,
  operator: Account,
  pool: Pool,
  config: TradingLimitConfig,
  what: string,
) {
  return sendUnlessDone({
    provider: PROVIDER,
    what,
    chain: destination,
    wallet: operatorWallet(destination, operator),
    done: async () => {
      const now = await configOf(destination, pool);
      return now.limit0 === config.limit0 && now.timestep0 === config.timestep0 && now.flags === config.flags;
    },
    send: (wallet) =>
      wallet.writeContract({
        address: pool.broker,
        abi: brokerGovernanceAbi,
        functionName: "configureTradingLimit",
        args: [pool.exchangeId, pool.usdm, config],
      }),
  });
}

/** Exhausts the USDm/COPm pool's USDm limit for `slowLegMs` (once: a lever already pulled stays as it is). */
export async function exhaustMentoLimit(
  destination: LegChain,
  operator: Account,
  slowLegMs: number,
): Promise<void> {
  const pool = await usdmCopmPool(destination);
  if (!pool) return;
  const current = await configOf(destination, pool);
  if (isMarker(current)) return;
  const window = Math.max(1, Math.ceil(slowLegMs / 1000));
  await configure(
    destination,
    operator,
    pool,
    { ...current, timestep0: window, limit0: MARKER_LIMIT, flags: current.flags | L0 },
    "exhaust Mento's USDm/COPm trading limit",
  );
}

/**
 * Puts back the configuration that stood before the lever, once its window has passed by `now` (the
 * service's clock: a waiting chain mines no blocks, so its latest block tells no time); true when it did.
 */
export async function releaseMentoLimit(
  destination: LegChain,
  operator: Account,
  now: Date,
): Promise<boolean> {
  const pool = await usdmCopmPool(destination);
  if (!pool) return false;
  const current = await configOf(destination, pool);
  if (!isMarker(current)) return false;
  const configured = await destination.client.getLogs({
    address: pool.broker,
    event: getAbiItem({ abi: brokerGovernanceAbi, name: "TradingLimitConfigured" }),
    fromBlock: 0n,
  });
  const ofPool = configured.filter(
    (log) =>
      log.args.exchangeId === pool.exchangeId && log.args.token?.toLowerCase() === pool.usdm.toLowerCase(),
  );
  const lever = ofPool.at(-1);
  const before = ofPool.filter((log) => log.args.config && !isMarker(log.args.config)).at(-1)?.args.config;
  if (!lever?.blockNumber || !before) return false;
  const pulled = await destination.client.getBlock({ blockNumber: lever.blockNumber });
  if (BigInt(Math.floor(now.getTime() / 1000)) < pulled.timestamp + BigInt(current.timestep0)) return false;
  await configure(destination, operator, pool, { ...before }, "release Mento's USDm/COPm trading limit");
  return true;
}
