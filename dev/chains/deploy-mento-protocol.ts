import { type Abi, getAddress, getContract, type Hex, keccak256, stringToHex, toBytes } from "viem";
import { sandboxSortedOraclesAbi, sandboxTokenAbi } from "./abis";
import type { ChainDeployer } from "./deployer";
import { EXCHANGE_PAIRS, rateOf, SANDBOX_EXCHANGES, WAD } from "./exchanges";
import { type MentoContractName, mentoArtifact } from "./mento-artifacts";
import type { Address, ExchangePair, SandboxRates, TradingLimitConfig } from "./types";

/** Mento's fixed-point one (FixidityLib): 24 decimals. */
const FIXED1 = 10n ** 24n;

/** A pool's spread as Mento stores it (a 24-decimal fraction) from the sandbox's 18-decimal one. */
export function mentoSpreadOf(spread: bigint): { value: bigint } {
  return { value: spread * (FIXED1 / WAD) };
}

/**
 * A ConstantSum pool's bucket of its stable asset, in 18-decimal units: ten million USDm, the size
 * of Mento's pools on Celo. It bounds one trade as Mento does: what a trade pays cannot exceed the
 * bucket it pays from, and Mento's fixed-point arithmetic refuses a trade whose amount times the
 * other bucket overflows (about 2.5 million USDm into COPm at once).
 */
const STABLE_POOL_RESET_SIZE = 10_000_000n * WAD;

/** How often BiPoolManager resets a pool's buckets to the oracle's rate, in seconds (Celo uses minutes). */
const REFERENCE_RATE_RESET_SECONDS = 300n;

/** Collateral the reserve holds at start for swaps that pay USDC or USDT out. */
const RESERVE_COLLATERAL_UNITS = 100_000_000n;

export type MentoTokens = Record<"usdm" | "copm" | "usdc" | "usdt", Address>;

export interface MentoProtocolDeployment {
  broker: Address;
  /** Mento's BiPoolManager: the exchange provider the broker swaps through. */
  biPoolManager: Address;
  constantSum: Address;
  breakerBox: Address;
  reserve: Address;
  sortedOracles: Address;
  /** The oracle rate feed each pool prices from. */
  rateFeeds: Record<ExchangePair, Address>;
  exchanges: Array<{ pair: ExchangePair; exchangeId: Hex; tokens: [Address, Address] }>;
}

/** A sandbox feed's id: an address named after the pair, as Celo's are named after theirs. */
function rateFeedIdOf(pair: ExchangePair): Address {
  return getAddress(`0x${keccak256(toBytes(`sandbox rate feed ${pair}`)).slice(26)}`);
}

/**
 * Mento's protocol, deployed from the protocol's own compiled contracts on a local chain: the
 * Reserve (USDm and COPm its stable assets, USDC and USDT its collateral), BiPoolManager with the
 * ConstantSum pricing module, the BreakerBox, and the Broker over them, with one pool per pair
 * (asset0 USDm, as on Celo); limitMentoPools adds the broker's trading limits. The oracle is the sandbox's
 * stand-in (SandboxSortedOracles.sol says why). The stable tokens are sandbox tokens that let the
 * broker mint, as Mento's StableTokenV2 does; the broker burns what it takes in.
 */
export async function deployMentoProtocol(
  deployer: ChainDeployer,
  tokens: MentoTokens,
  rates: SandboxRates,
): Promise<MentoProtocolDeployment> {
  const client = deployer.walletClient;
  const operator = client.account.address;
  const deployMento = (name: MentoContractName, args: readonly unknown[]) =>
    deployer.deployArtifact(name, mentoArtifact(name), args);
  const send = (name: MentoContractName, address: Address, functionName: string, args: readonly unknown[]) =>
    client.writeContract({ address, abi: mentoArtifact(name).abi, functionName, args });

  const sortedOracles = await deployer.deploy("SandboxSortedOracles");
  const rateFeeds = Object.fromEntries(EXCHANGE_PAIRS.map((pair) => [pair, rateFeedIdOf(pair)])) as Record<
    ExchangePair,
    Address
  >;
  const oracle = getContract({ address: sortedOracles, abi: sandboxSortedOraclesAbi, client });
  for (const pair of EXCHANGE_PAIRS) {
    // Mento's feeds quote asset0 per asset1 (USD per COP); the pool's bucket ratio is the inverse.
    await deployer.confirm(
      oracle.write.report([rateFeeds[pair], WAD, rateOf(pair, rates)]),
      `report ${pair}`,
    );
  }

  const breakerBox = await deployMento("BreakerBox", [Object.values(rateFeeds), sortedOracles]);
  const reserve = await deployMento("Reserve", [true]);
  const constantSum = await deployMento("ConstantSumPricingModule", []);
  const biPoolManager = await deployMento("BiPoolManager", [true]);
  const broker = await deployMento("Broker", [true]);

  // Celo's Reserve asks its registry only for spenders it does not list; the broker is listed as an
  // exchange spender, so the operator's address stands where Celo's registry would.
  await deployer.confirm(
    send("Reserve", reserve, "initialize", [
      operator,
      3_600n,
      FIXED1,
      0n,
      0n,
      [stringToHex("cGLD", { size: 32 })],
      [FIXED1],
      0n,
      0n,
      [tokens.usdc, tokens.usdt],
      [FIXED1, FIXED1],
    ]),
    "initialize the reserve",
  );
  for (const stable of [tokens.usdm, tokens.copm]) {
    await deployer.confirm(send("Reserve", reserve, "addToken", [stable]), "register a stable asset");
  }
  await deployer.confirm(send("Reserve", reserve, "addExchangeSpender", [broker]), "let the broker pay out");

  await deployer.confirm(
    send("BiPoolManager", biPoolManager, "initialize", [broker, reserve, sortedOracles, breakerBox]),
    "initialize BiPoolManager",
  );
  const pricingName = (await deployer.publicClient.readContract({
    address: constantSum,
    abi: mentoArtifact("ConstantSumPricingModule").abi as Abi,
    functionName: "name",
  })) as string;
  await deployer.confirm(
    send("BiPoolManager", biPoolManager, "setPricingModules", [
      [keccak256(stringToHex(pricingName))],
      [constantSum],
    ]),
    "register ConstantSum",
  );
  await deployer.confirm(
    send("Broker", broker, "initialize", [[biPoolManager], reserve]),
    "initialize the broker",
  );

  for (const key of ["usdm", "copm", "usdc", "usdt"] as const) {
    const token = getContract({ address: tokens[key], abi: sandboxTokenAbi, client });
    if (key === "usdm" || key === "copm") {
      await deployer.confirm(token.write.setMinter([broker, true]), `let the broker mint ${key}`);
    } else {
      const decimals = BigInt(await token.read.decimals());
      await deployer.confirm(
        token.write.mint([reserve, RESERVE_COLLATERAL_UNITS * 10n ** decimals]),
        `fund the reserve with ${key}`,
      );
    }
  }

  const exchanges: MentoProtocolDeployment["exchanges"] = [];
  for (const pair of EXCHANGE_PAIRS) {
    const { asset0, asset1 } = SANDBOX_EXCHANGES[pair];
    await deployer.confirm(
      send("BiPoolManager", biPoolManager, "createExchange", [
        {
          asset0: tokens[asset0],
          asset1: tokens[asset1],
          pricingModule: constantSum,
          bucket0: 0n,
          bucket1: 0n,
          lastBucketUpdate: 0n,
          config: {
            spread: mentoSpreadOf(rates.spread),
            referenceRateFeedID: rateFeeds[pair],
            referenceRateResetFrequency: REFERENCE_RATE_RESET_SECONDS,
            minimumReports: 1n,
            stablePoolResetSize: STABLE_POOL_RESET_SIZE,
          },
        },
      ]),
      `create the ${pair} pool`,
    );
  }
  const listed = (await deployer.publicClient.readContract({
    address: biPoolManager,
    abi: mentoArtifact("BiPoolManager").abi as Abi,
    functionName: "getExchanges",
  })) as Array<{ exchangeId: Hex; assets: readonly Address[] }>;
  for (const pair of EXCHANGE_PAIRS) {
    const { asset0, asset1 } = SANDBOX_EXCHANGES[pair];
    const found = listed.find(
      ({ assets }) => assets[0] === tokens[asset0] && assets[1] === tokens[asset1] && assets.length === 2,
    );
    if (!found) throw new Error(`BiPoolManager does not list the ${pair} pool`);
    exchanges.push({ pair, exchangeId: found.exchangeId, tokens: [tokens[asset0], tokens[asset1]] });
  }
  return { broker, biPoolManager, constantSum, breakerBox, reserve, sortedOracles, rateFeeds, exchanges };
}

/** The broker's trading limits on each pool's USDm side (asset0); a pair given null has none. */
export async function limitMentoPools(
  deployer: ChainDeployer,
  mento: Pick<MentoProtocolDeployment, "broker" | "exchanges">,
  limits: Record<ExchangePair, TradingLimitConfig | null>,
): Promise<void> {
  for (const { pair, exchangeId, tokens } of mento.exchanges) {
    const limit = limits[pair];
    if (!limit) continue;
    await deployer.confirm(
      deployer.walletClient.writeContract({
        address: mento.broker,
        abi: mentoArtifact("Broker").abi,
        functionName: "configureTradingLimit",
        args: [exchangeId, tokens[0], limit],
      }),
      `limit ${pair}`,
    );
  }
}

/** How far the USDm/COPm median may move from its average in one report before Mento halts it: 20%. */
const COPM_BREAKER_THRESHOLD = 2n * 10n ** 23n;
/** How long a tripped breaker stays before a report may reset it (the `.81` lever sets its own). */
const COPM_BREAKER_COOLDOWN_S = 60n;

/**
 * Mento's MedianDeltaBreaker from the package, on the USDm/COPm rate feed: added to the BreakerBox
 * with trading mode 3 (halted both ways) and enabled for that feed, and the oracle stand-in told to
 * ask the BreakerBox after every report, as Mento's SortedOracles does. A report that moves the
 * median more than COPM_BREAKER_THRESHOLD from its average halts the feed's pool; a report after
 * the cooldown that is back within it resets it.
 */
export async function guardCopmFeed(
  deployer: ChainDeployer,
  mento: Pick<MentoProtocolDeployment, "breakerBox" | "sortedOracles" | "rateFeeds">,
): Promise<Address> {
  const feed = mento.rateFeeds["USDm/COPm"];
  const breaker = await deployer.deployArtifact("MedianDeltaBreaker", mentoArtifact("MedianDeltaBreaker"), [
    COPM_BREAKER_COOLDOWN_S,
    COPM_BREAKER_THRESHOLD,
    mento.sortedOracles,
    mento.breakerBox,
    [feed],
    [COPM_BREAKER_THRESHOLD],
    [COPM_BREAKER_COOLDOWN_S],
  ]);
  const box = (functionName: string, args: readonly unknown[]) =>
    deployer.walletClient.writeContract({
      address: mento.breakerBox,
      abi: mentoArtifact("BreakerBox").abi,
      functionName,
      args,
    });
  await deployer.confirm(box("addBreaker", [breaker, 3]), "add the MedianDeltaBreaker");
  await deployer.confirm(box("toggleBreaker", [breaker, feed, true]), "enable it on USDm/COPm");
  const oracle = getContract({
    address: mento.sortedOracles,
    abi: sandboxSortedOraclesAbi,
    client: deployer.walletClient,
  });
  await deployer.confirm(oracle.write.setBreakerBox([mento.breakerBox]), "check breakers on every report");
  return breaker;
}
