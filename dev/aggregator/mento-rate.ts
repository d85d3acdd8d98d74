import {
  type Account,
  type ContractFunctionArgs,
  decodeFunctionData,
  getAbiItem,
  type Hex,
  parseAbi,
} from "viem";
import type { LegChain } from "../../lib/kernel/chain/leg-chain";
import { operatorWallet, sendUnlessDone } from "../../lib/sandbox/operator";

const PROVIDER = "sandbox-mento";

/**
 * The test amount `.77`: Mento's USDm/COPm rate moves against the order just before its exchange and
 * stays there for a window, as a peso that strengthened would: the oracle stand-in reports a rate
 * RATE_MOVE_BPS dearer in USDm per COPm, and the pool is listed again so it prices from that rate at
 * once (a pool's buckets otherwise follow the oracle only every referenceRateResetFrequency). Every
 * USDm → COPm exchange in the window gives about 4.8% less, below any order's floor (3% under what
 * it expected). The restore (the local aggregator's tick) reports the rate that stood before once
 * the window has passed by its clock and lists the pool again.
 *
 * The sandbox's reports are `WAD / rate` (USDm per COPm with a numerator of one WAD); the moved
 * rate keeps the denominator and raises the numerator, so a numerator other than WAD is the marker
 * of a pulled lever and the denominator is the rate to restore.
 */

const WAD = 10n ** 18n;
const RATE_MOVE_BPS = 500n;
const BPS = 10_000n;

const mentoPoolAbi = parseAbi([
  "struct Fraction { uint256 value; }",
  "struct PoolConfig { Fraction spread; address referenceRateFeedID; uint256 referenceRateResetFrequency; uint256 minimumReports; uint256 stablePoolResetSize; }",
  "struct PoolExchange { address asset0; address asset1; address pricingModule; uint256 bucket0; uint256 bucket1; uint256 lastBucketUpdate; PoolConfig config; }",
  "function sortedOracles() view returns (address)",
  "function getExchangeIds() view returns (bytes32[])",
  "function createExchange(PoolExchange exchange) returns (bytes32 exchangeId)",
  "function destroyExchange(bytes32 exchangeId, uint256 exchangeIdIndex) returns (bool destroyed)",
  "function report(address rateFeedId, uint256 numerator, uint256 denominator)",
  "function medianRate(address rateFeedId) view returns (uint256, uint256)",
  "event OracleReported(address indexed rateFeedId, uint256 numerator, uint256 denominator)",
  "event ExchangeCreated(bytes32 indexed exchangeId, address indexed asset0, address indexed asset1, address pricingModule)",
]);

type PoolExchange = ContractFunctionArgs<typeof mentoPoolAbi, "nonpayable", "createExchange">[0];

export interface Pool {
  manager: Hex;
  oracles: Hex;
  exchangeId: Hex;
  feed: Hex;
  /** The pool as it was listed, from its latest listing: to list it again after a delisting. */
  exchange: PoolExchange;
}

/**
 * The USDm/COPm pool, from its latest listing (the `createExchange` call behind its ExchangeCreated
 * event), so a lever that stopped between delisting and listing again finds it, and lists it.
 */
export async function usdmCopmPool(destination: LegChain): Promise<Pool | undefined> {
  const { exchangeProvider: manager, usdm, copm } = destination.contracts;
  if (!manager || !usdm || !copm) return undefined;
  const same = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();
  const listings = await destination.client.getLogs({
    address: manager,
    event: getAbiItem({ abi: mentoPoolAbi, name: "ExchangeCreated" }),
    fromBlock: 0n,
  });
  const listing = listings
    .filter(
      ({ args }) =>
        (same(args.asset0, usdm) && same(args.asset1, copm)) ||
        (same(args.asset0, copm) && same(args.asset1, usdm)),
    )
    .at(-1);
  if (!listing?.args.exchangeId || !listing.transactionHash) return undefined;
  const call = await destination.client.getTransaction({ hash: listing.transactionHash });
  const decoded = decodeFunctionData({ abi: mentoPoolAbi, data: call.input });
  if (decoded.functionName !== "createExchange") return undefined;
  const [exchange] = decoded.args;
  const oracles = await destination.client.readContract({
    address: manager,
    abi: mentoPoolAbi,
    functionName: "sortedOracles",
  });
  return {
    manager,
    oracles,
    exchangeId: listing.args.exchangeId,
    feed: exchange.config.referenceRateFeedID,
    exchange,
  };
}

export async function rateOf(
  destination: LegChain,
  pool: Pool,
): Promise<{ numerator: bigint; denominator: bigint }> {
  const [numerator, denominator] = await destination.client.readContract({
    address: pool.oracles,
    abi: mentoPoolAbi,
    functionName: "medianRate",
    args: [pool.feed],
  });
  return { numerator, denominator };
}

function listedIds(destination: LegChain, pool: Pool): Promise<readonly Hex[]> {
  return destination.client.readContract({
    address: pool.manager,
    abi: mentoPoolAbi,
    functionName: "getExchangeIds",
  });
}

/** Reports `numerator / denominator` and lists the pool again so it prices from it now. */
async function reprice(
  destination: LegChain,
  operator: Account,
  pool: Pool,
  rate: { numerator: bigint; denominator: bigint },
  what: string,
): Promise<void> {
  const wallet = operatorWallet(destination, operator);
  const reported = async () => {
    const now = await rateOf(destination, pool);
    return now.numerator === rate.numerator && now.denominator === rate.denominator;
  };
  await sendUnlessDone({
    provider: PROVIDER,
    what: `${what}: report`,
    chain: destination,
    wallet,
    done: reported,
    send: (operator) =>
      operator.writeContract({
        address: pool.oracles,
        abi: mentoPoolAbi,
        functionName: "report",
        args: [pool.feed, rate.numerator, rate.denominator],
      }),
  });
  const ids = () => listedIds(destination, pool);
  await sendUnlessDone({
    provider: PROVIDER,
    what: `${what}: delist the pool`,
    chain: destination,
    wallet,
    done: async () => !(await ids()).includes(pool.exchangeId),
    send: async (operator) =>
      operator.writeContract({
        address: pool.manager,
        abi: mentoPoolAbi,
        functionName: "destroyExchange",
        args: [pool.exchangeId, BigInt((await ids()).indexOf(pool.exchangeId))],
      }),
  });
  await sendUnlessDone({
    provider: PROVIDER,
    what: `${what}: list the pool`,
    chain: destination,
    wallet,
    done: async () => (await ids()).includes(pool.exchangeId),
    send: (operator) =>
      operator.writeContract({
        address: pool.manager,
        abi: mentoPoolAbi,
        functionName: "createExchange",
        args: [{ ...pool.exchange, bucket0: 0n, bucket1: 0n, lastBucketUpdate: 0n }],
      }),
  });
}

/** Moves the USDm/COPm rate against COPm buyers for the window (once: a lever already pulled stays). */
export async function moveMentoRate(
  destination: LegChain,
  operator: Account,
  windowMs: number,
): Promise<void> {
  if (windowMs <= 0) return;
  const pool = await usdmCopmPool(destination);
  if (!pool) return;
  const rate = await rateOf(destination, pool);
  if (rate.numerator !== WAD) return;
  await reprice(
    destination,
    operator,
    pool,
    { numerator: (WAD * (BPS + RATE_MOVE_BPS)) / BPS, denominator: rate.denominator },
    "move Mento's USDm/COPm rate",
  );
}

/**
 * Puts back the rate that stood before the lever once `windowMs` has passed since it was pulled, by
 * `now` (the service's clock: a waiting chain mines no blocks); true when it did.
 */
export async function restoreMentoRate(
  destination: LegChain,
  operator: Account,
  now: Date,
  windowMs: number,
): Promise<boolean> {
  const pool = await usdmCopmPool(destination);
  if (!pool) return false;
  const rate = await rateOf(destination, pool);
  if (rate.numerator === WAD) {
    // Not moved; but a lever that stopped halfway may have left the pool delisted: list it again.
    if ((await listedIds(destination, pool)).includes(pool.exchangeId)) return false;
    await reprice(destination, operator, pool, rate, "list Mento's USDm/COPm pool again");
    return true;
  }
  const reports = await destination.client.getLogs({
    address: pool.oracles,
    event: getAbiItem({ abi: mentoPoolAbi, name: "OracleReported" }),
    args: { rateFeedId: pool.feed },
    fromBlock: 0n,
  });
  const lever = reports.at(-1);
  if (!lever?.blockNumber) return false;
  const pulled = await destination.client.getBlock({ blockNumber: lever.blockNumber });
  if (now.getTime() < Number(pulled.timestamp) * 1000 + windowMs) return false;
  await reprice(
    destination,
    operator,
    pool,
    { numerator: WAD, denominator: rate.denominator },
    "restore Mento's USDm/COPm rate",
  );
  return true;
}
