import { createPublicClient, erc20Abi, type Hex, http, type PublicClient, parseAbi, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fundFreshWallet,
  type RunningSandboxChains,
  revertReason,
  type SandboxChain,
  sandboxChainOf,
  sandboxOperator,
  sandboxPublicClient,
  sandboxWalletClient,
  startSandboxChains,
} from "../../dev/chains";
import { sandboxNetworkVariable } from "../../dev/stack";
import { pricingProviders } from "../../lib/composition/pricing-providers";
import { mentoBrokerAbi } from "../../lib/kernel/chain/abis";
import { chainRegistry } from "../../lib/kernel/chain/registry";
import { parseConfig } from "../../lib/kernel/config";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import { mentoExchange } from "../../lib/vendors/mento/mento-exchange";
import { mentoDirectory, mentoExchangesOf } from "../../lib/vendors/mento/mento-exchanges";

const E18 = (amount: string) => parseUnits(amount, 18);

/** mento-core BreakerBox's owner-only override of a rate feed's mode (3: halted, as a tripped breaker leaves it). */
const breakerBoxOwnerAbi = parseAbi([
  "function setRateFeedTradingMode(address rateFeedID, uint8 tradingMode)",
]);

let running: RunningSandboxChains;
let destination: SandboxChain;
let client: PublicClient;
let usdm: Hex;
let copm: Hex;
let broker: Hex;

beforeAll(async () => {
  running = await startSandboxChains();
  destination = sandboxChainOf(running.network, "destination");
  const { contracts } = destination;
  if (!contracts.usdm || !contracts.copm || !contracts.broker) throw new Error("no Mento on the destination");
  [usdm, copm, broker] = [contracts.usdm, contracts.copm, contracts.broker];
  client = createPublicClient({ transport: http(destination.rpcUrl) });
});

afterAll(() => running?.close());

describe("Mento's exchanges found on chain", () => {
  it("prices the first quote from the Broker alone when the profile lists no exchange (as mainnet's lists none)", async () => {
    // The chains as the mainnet profile describes them: Mento's addresses and nothing of its pools.
    const chains = sandboxNetworkVariable(running.network).chains.map(
      ({ exchanges: _listed, ...chain }) => chain,
    );
    const parsed = parseConfig({ MODE: "mock", SANDBOX_NETWORK: JSON.stringify({ chains }) });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const pricing = pricingProviders(parsed.config, chainRegistry(parsed.config));

    const quote = await pricing.exchange.quoteExchange({
      tokenIn: usdm,
      tokenOut: copm,
      amountIn: E18("100"),
    });
    // 100 USDm × 3,900 less the pool's 0.25% spread, from the pool the Broker's provider lists.
    expect(quote.amountOut).toBe(E18("389025"));
    expect(quote.exchangeProvider.toLowerCase()).toBe(destination.contracts.exchangeProvider?.toLowerCase());
    expect(quote.exchangeId).toBe(
      destination.exchanges?.find(({ tokens }) => tokens.includes(copm))?.exchangeId,
    );
  });

  it("lists every pool of every provider the Broker names, with the rate feed and BreakerBox that guard it", async () => {
    const found = await mentoExchangesOf(client, broker);
    expect(found.map(({ exchangeId, tokens }) => ({ exchangeId, tokens }))).toEqual(destination.exchanges);
    for (const exchange of found) {
      expect(exchange.exchangeProvider).toBe(destination.contracts.exchangeProvider);
      expect(exchange.referenceRateFeedId).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(BigInt(exchange.breakerBox)).not.toBe(0n);
    }
    expect(new Set(found.map((exchange) => exchange.referenceRateFeedId)).size).toBe(found.length);
  });

  it("reads the listing once per ttl, again after it, and forgets a failed read", async () => {
    let now = 0;
    const directory = mentoDirectory({ client, broker, ttlMs: 60_000, now: () => now });
    const first = directory.exchanges();
    expect(directory.exchanges()).toBe(first);
    await first;
    now = 59_999;
    expect(directory.exchanges()).toBe(first);
    now = 60_000;
    const second = directory.exchanges();
    expect(second).not.toBe(first);
    expect(await second).toEqual(await first);

    const down = mentoDirectory({
      client: createPublicClient({ transport: http("http://127.0.0.1:9", { retryCount: 0 }) }),
      broker,
      now: () => 0,
    });
    const failed = down.exchanges();
    await expect(failed).rejects.toBeInstanceOf(ProviderFailure);
    expect(down.exchanges()).not.toBe(failed);
    await down.exchanges().catch(() => undefined);
  });

  it("refuses to price a pool whose rate feed the BreakerBox halts, though the Broker's getAmountOut still prices it", async () => {
    const directory = mentoDirectory({ client, broker });
    const mento = mentoExchange({ client, broker, directory });
    const pool = await directory.exchangeFor(usdm, copm);
    const operator = sandboxWalletClient(destination, sandboxOperator);
    const setMode = async (mode: number) => {
      const hash = await operator.writeContract({
        address: pool.breakerBox,
        abi: breakerBoxOwnerAbi,
        functionName: "setRateFeedTradingMode",
        args: [pool.referenceRateFeedId, mode],
      });
      await sandboxPublicClient(destination).waitForTransactionReceipt({ hash });
    };
    const user = await fundFreshWallet(destination, [{ token: usdm, amount: E18("10") }]);
    const approve = await sandboxWalletClient(destination, user).writeContract({
      address: usdm,
      abi: erc20Abi,
      functionName: "approve",
      args: [broker, E18("10")],
    });
    await sandboxPublicClient(destination).waitForTransactionReceipt({ hash: approve });
    const swap = () =>
      sandboxPublicClient(destination).simulateContract({
        account: user,
        address: broker,
        abi: mentoBrokerAbi,
        functionName: "swapIn",
        args: [pool.exchangeProvider, pool.exchangeId, usdm, copm, E18("10"), 0n],
      });

    await setMode(3);
    try {
      const priced = await client.readContract({
        address: broker,
        abi: mentoBrokerAbi,
        functionName: "getAmountOut",
        args: [pool.exchangeProvider, pool.exchangeId, usdm, copm, E18("10")],
      });
      expect(priced).toBe(E18("38902.5"));
      expect(await revertReason(swap())).toBe("Trading is suspended for this reference rate");

      const failure = await mento.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: E18("10") }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(ProviderFailure);
      expect((failure as ProviderFailure).kind).toBe("trading_halted");
      expect((failure as ProviderFailure).message).toMatch(/BreakerBox halts trading .* \(trading mode 3\)/);
    } finally {
      await setMode(0);
    }
    expect((await swap()).result).toBe(E18("38902.5"));
    expect(
      (await mento.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: E18("10") })).amountOut,
    ).toBe(E18("38902.5"));
  });
});
