import type { Hex } from "viem";
import { biPoolManagerAbi, mentoBreakerGovernanceAbi, sandboxSortedOraclesAbi } from "./abis";
import { sandboxPublicClient, sandboxWalletClient } from "./clients";
import { mentoSpreadOf } from "./deploy-mento-protocol";
import { exchangeIdOf, WAD } from "./exchanges";
import { sandboxOperator } from "./operator";
import type { ExchangePair, SandboxChain } from "./types";

/**
 * The sandbox operator re-lists a pool at a new rate and spread, as Mento's governance would: the
 * oracle reports the rate, and the pool is destroyed and created again with the spread (a pool's
 * config cannot change in place). The exchange id, and so the broker's trading limits on it, stay;
 * the new pool prices from the oracle at once. The feed's median-delta breakers forget their average
 * first, so the new rate is where they measure from, not a jump that halts the pool.
 */
export async function repriceMentoPool(
  chain: SandboxChain,
  pair: ExchangePair,
  pricing: { rate: bigint; spread: bigint },
): Promise<void> {
  const manager = chain.contracts.exchangeProvider;
  if (!manager) throw new Error(`${chain.name} has no Mento BiPoolManager`);
  const reader = sandboxPublicClient(chain);
  const operator = sandboxWalletClient(chain, sandboxOperator);
  const mined = async (sent: Promise<Hex>, what: string) => {
    const receipt = await reader.waitForTransactionReceipt({ hash: await sent });
    if (receipt.status !== "success") throw new Error(`${what} reverted`);
  };
  const exchangeId = exchangeIdOf(pair);
  const [pool, oracles, ids] = await Promise.all([
    reader.readContract({
      address: manager,
      abi: biPoolManagerAbi,
      functionName: "getPoolExchange",
      args: [exchangeId],
    }),
    reader.readContract({ address: manager, abi: biPoolManagerAbi, functionName: "sortedOracles" }),
    reader.readContract({ address: manager, abi: biPoolManagerAbi, functionName: "getExchangeIds" }),
  ]);
  const box = await reader.readContract({
    address: manager,
    abi: biPoolManagerAbi,
    functionName: "breakerBox",
  });
  const guard = mentoBreakerGovernanceAbi;
  for (const breaker of await reader.readContract({
    address: box,
    abi: guard,
    functionName: "getBreakers",
  })) {
    const feed = pool.config.referenceRateFeedID;
    if (
      !(await reader.readContract({
        address: box,
        abi: guard,
        functionName: "isBreakerEnabled",
        args: [breaker, feed],
      }))
    )
      continue;
    await mined(
      operator.writeContract({
        address: breaker,
        abi: guard,
        functionName: "resetMedianRateEMA",
        args: [feed],
      }),
      `reset the ${pair} breaker's average`,
    );
  }
  await mined(
    operator.writeContract({
      address: oracles,
      abi: sandboxSortedOraclesAbi,
      functionName: "report",
      args: [pool.config.referenceRateFeedID, WAD, pricing.rate],
    }),
    `report ${pair}`,
  );
  await mined(
    operator.writeContract({
      address: manager,
      abi: biPoolManagerAbi,
      functionName: "destroyExchange",
      args: [exchangeId, BigInt(ids.indexOf(exchangeId))],
    }),
    `destroy ${pair}`,
  );
  await mined(
    operator.writeContract({
      address: manager,
      abi: biPoolManagerAbi,
      functionName: "createExchange",
      args: [
        {
          ...pool,
          bucket0: 0n,
          bucket1: 0n,
          lastBucketUpdate: 0n,
          config: { ...pool.config, spread: mentoSpreadOf(pricing.spread) },
        },
      ],
    }),
    `create ${pair}`,
  );
}
