import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import {
  type Account,
  createPublicClient,
  createTestClient,
  erc20Abi,
  type Hex,
  http,
  type PublicClient,
  parseUnits,
  zeroHash,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fundFreshWallet,
  mentoBrokerAdminAbi,
  type RunningSandboxChains,
  revertReason,
  type SandboxChain,
  sandboxChainOf,
  sandboxOperator,
  sandboxPublicClient,
  sandboxWalletClient,
  startSandboxChains,
  type TradingLimitConfig,
} from "../../dev/chains";
import { mentoBrokerAbi } from "../../lib/kernel/chain/abis";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import { apiErrorOf } from "../../lib/settlement/pricing/api-error-of";
import type { ExchangeProvider } from "../../lib/settlement/pricing/ports";
import { mentoExchange, tradingLimitIdOf } from "../../lib/vendors/mento/mento-exchange";
import {
  type MentoDirectory,
  type MentoExchange,
  mentoDirectory,
} from "../../lib/vendors/mento/mento-exchanges";
import { freePort } from "../harness/free-port";

/** USDm and COPm amounts (18 decimals). */
const E18 = (amount: string) => parseUnits(amount, 18);

/** L0 only: 1,000 USDm net per 5 minutes on the USDm side of USDm/COPm. */
const SMALL_L0: TradingLimitConfig = {
  timestep0: 300,
  timestep1: 0,
  limit0: 1_000,
  limit1: 0,
  limitGlobal: 0,
  flags: 1,
};
const OFF: TradingLimitConfig = { ...SMALL_L0, flags: 0 };

let running: RunningSandboxChains;
let destination: SandboxChain;
let client: PublicClient;
let exchanges: MentoExchange[];
let mento: ExchangeProvider;
let usdm: Hex;
let copm: Hex;
let usdc: Hex;
let usdmCopm: Hex;

beforeAll(async () => {
  running = await startSandboxChains({ limits: { "USDm/COPm": SMALL_L0 } });
  destination = sandboxChainOf(running.network, "destination");
  const { contracts } = destination;
  if (
    !contracts.usdm ||
    !contracts.copm ||
    !contracts.usdc ||
    !contracts.broker ||
    !contracts.exchangeProvider
  ) {
    throw new Error("the destination chain lacks the Mento contracts");
  }
  [usdm, copm, usdc] = [contracts.usdm, contracts.copm, contracts.usdc];
  client = createPublicClient({ transport: http(destination.rpcUrl) });
  const directory = mentoDirectory({ client, broker: contracts.broker });
  exchanges = [...(await directory.exchanges())];
  mento = mentoExchange({ client, broker: contracts.broker, directory });
  const pair = exchanges.find(({ tokens }) => tokens[0] === usdm && tokens[1] === copm);
  if (!pair) throw new Error("no USDm/COPm exchange listed");
  usdmCopm = pair.exchangeId;
});

afterAll(() => running?.close());

function broker(): Hex {
  return destination.contracts.broker as Hex;
}

/** A directory that knows only these exchanges, read from nowhere. */
function listing(known: readonly MentoExchange[]): MentoDirectory {
  return {
    exchanges: async () => known,
    exchangeFor: async (tokenIn, tokenOut) => {
      const found = known.find(({ tokens }) => tokens.includes(tokenIn) && tokens.includes(tokenOut));
      if (!found) throw new Error("not listed");
      return found;
    },
  };
}

function exchangeProvider(): Hex {
  return destination.contracts.exchangeProvider as Hex;
}

/** A wallet holding `amount` of `token` that has let the broker take it. */
async function trader(token: Hex, amount: bigint): Promise<Account> {
  const user = await fundFreshWallet(destination, [{ token, amount }]);
  const hash = await sandboxWalletClient(destination, user).writeContract({
    address: token,
    abi: erc20Abi,
    functionName: "approve",
    args: [broker(), amount],
  });
  await sandboxPublicClient(destination).waitForTransactionReceipt({ hash });
  return user;
}

/** What the broker's swapIn would pay right now, or its revert. */
function simulateSwapIn(user: Account, exchangeId: Hex, tokenIn: Hex, tokenOut: Hex, amountIn: bigint) {
  return sandboxPublicClient(destination).simulateContract({
    account: user,
    address: broker(),
    abi: mentoBrokerAbi,
    functionName: "swapIn",
    args: [exchangeProvider(), exchangeId, tokenIn, tokenOut, amountIn, 0n],
  });
}

async function swapIn(user: Account, exchangeId: Hex, tokenIn: Hex, tokenOut: Hex, amountIn: bigint) {
  const hash = await sandboxWalletClient(destination, user).writeContract({
    address: broker(),
    abi: mentoBrokerAbi,
    functionName: "swapIn",
    args: [exchangeProvider(), exchangeId, tokenIn, tokenOut, amountIn, 0n],
  });
  const receipt = await sandboxPublicClient(destination).waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error("swap reverted");
}

/** The operator reconfigures one token's limit; switching it off first forgets earlier flows. */
async function configureLimit(token: Hex, config: TradingLimitConfig) {
  const operator = sandboxWalletClient(destination, sandboxOperator);
  for (const step of [OFF, config]) {
    const hash = await operator.writeContract({
      address: broker(),
      abi: mentoBrokerAdminAbi,
      functionName: "configureTradingLimit",
      args: [usdmCopm, token, step],
    });
    await sandboxPublicClient(destination).waitForTransactionReceipt({ hash });
  }
}

async function failureOf(attempt: Promise<unknown>): Promise<ProviderFailure> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProviderFailure))
    throw new Error(`expected a ProviderFailure, got ${String(error)}`);
  return error;
}

describe("Mento exchange against Mento's own broker on the sandbox chain", () => {
  it("lists the provider's exchanges with getExchanges", () => {
    expect(exchanges.map(({ exchangeId, tokens }) => ({ exchangeId, tokens }))).toEqual(
      destination.exchanges,
    );
    expect(exchanges).toHaveLength(3);
  });

  it("keys a limit as Mento does: exchangeId XOR the token address, under which Mento's broker keeps the configured limit", async () => {
    const onChain = await client.readContract({
      address: broker(),
      abi: mentoBrokerAdminAbi,
      functionName: "tradingLimitsConfig",
      args: [tradingLimitIdOf(usdmCopm, usdm)],
    });
    expect(onChain).toEqual([
      SMALL_L0.timestep0,
      SMALL_L0.timestep1,
      SMALL_L0.limit0,
      SMALL_L0.limit1,
      SMALL_L0.limitGlobal,
      SMALL_L0.flags,
    ]);
  });

  it("quotes what the broker's swapIn pays, in both directions of the pool", async () => {
    const quote = await mento.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: E18("100") });
    // 100 USDm × 3,900 less the 0.25% spread (and the limits' headroom, checked below).
    expect(quote).toMatchObject({
      exchangeProvider: exchangeProvider(),
      exchangeId: usdmCopm,
      amountOut: E18("389025"),
    });
    const user = await trader(usdm, E18("100"));
    const { result } = await simulateSwapIn(user, usdmCopm, usdm, copm, E18("100"));
    expect(result).toBe(quote.amountOut);

    const back = await mento.quoteExchange({ tokenIn: copm, tokenOut: usdm, amountIn: E18("390000") });
    expect(back).toMatchObject({
      exchangeProvider: exchangeProvider(),
      exchangeId: usdmCopm,
      amountOut: E18("99.75"),
    });
  });

  it("is no_route for a pair no exchange trades directly, or one the broker will not price", async () => {
    const unknown = "0x00000000000000000000000000000000000000a1";
    for (const [tokenIn, tokenOut] of [
      [usdc, copm],
      [usdm, usdm],
      [unknown, copm],
    ] as const) {
      const failure = await failureOf(mento.quoteExchange({ tokenIn, tokenOut, amountIn: E18("1") }));
      expect({ kind: failure.kind, provider: failure.provider }).toEqual({
        kind: "no_route",
        provider: "mento",
      });
      expect(apiErrorOf(failure).code).toBe("ROUTE_UNAVAILABLE");
    }

    // An exchange id the provider does not know: getAmountOut reverts, and the reason is kept.
    const listed = exchanges.find(({ exchangeId }) => exchangeId === usdmCopm);
    if (!listed) throw new Error("no USDm/COPm exchange listed");
    const stale = mentoExchange({
      client,
      broker: broker(),
      directory: listing([{ ...listed, exchangeId: zeroHash }]),
    });
    const failure = await failureOf(
      stale.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: E18("1") }),
    );
    expect(failure.kind).toBe("no_route");
    expect(failure.message).toMatch(/An exchange with the specified id does not exist/);
  });

  it("passes a trade within a small L0 limit and refuses one above it, as swapIn would", async () => {
    await configureLimit(usdm, SMALL_L0);
    const user = await trader(usdm, E18("1001"));

    // 1,000.9 USDm counts as 1,000 whole units: exactly the limit.
    const within = await mento.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: E18("1000.9") });
    expect(within.amountOut).toBe((await simulateSwapIn(user, usdmCopm, usdm, copm, E18("1000.9"))).result);

    const failure = await failureOf(
      mento.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: E18("1001") }),
    );
    expect({ kind: failure.kind, provider: failure.provider }).toEqual({
      kind: "capacity_exceeded",
      provider: "mento",
    });
    expect(failure.message).toMatch(/L0 trading limit/);
    expect(apiErrorOf(failure).code).toBe("MENTO_CAPACITY_EXCEEDED");
    expect(await revertReason(simulateSwapIn(user, usdmCopm, usdm, copm, E18("1001")))).toBe("L0 Exceeded");

    // The headroom the price book keeps: the most swapIn takes now, to the unit.
    expect(within.maxAmountIn).toBe(E18("1001") - 1n);
    const most = within.maxAmountIn ?? 0n;
    expect((await simulateSwapIn(user, usdmCopm, usdm, copm, most)).result).toBeGreaterThan(0n);
    expect(await revertReason(simulateSwapIn(user, usdmCopm, usdm, copm, most + 1n))).toBe("L0 Exceeded");
  });

  it("limits the outflow of tokenOut too: COPm paid out subtracts from its netflow", async () => {
    await configureLimit(usdm, OFF);
    await configureLimit(copm, { ...SMALL_L0, limit0: 100_000 });
    try {
      const user = await trader(usdm, E18("100"));
      // 25 USDm buys 97,256.25 COPm: within 100,000. 100 USDm buys 389,025: beyond it.
      const within = await mento.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: E18("25") });
      expect(within.amountOut).toBe(E18("97256.25"));
      const failure = await failureOf(
        mento.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: E18("100") }),
      );
      expect(failure.kind).toBe("capacity_exceeded");
      expect(failure.message).toContain(copm);
      expect(await revertReason(simulateSwapIn(user, usdmCopm, usdm, copm, E18("100")))).toBe("L0 Exceeded");
    } finally {
      await configureLimit(copm, OFF);
    }
  });

  it("counts recorded flows, lets a passed window restart, and keeps the lifetime limit", async () => {
    await configureLimit(usdm, { ...SMALL_L0, limitGlobal: 1_500, flags: 1 | 4 });
    const user = await trader(usdm, E18("1100"));
    await swapIn(user, usdmCopm, usdm, copm, E18("600"));

    // 600 + 500 > 1,000 within the window.
    const crowded = await failureOf(
      mento.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: E18("500") }),
    );
    expect(crowded.kind).toBe("capacity_exceeded");
    expect(crowded.message).toMatch(/L0/);

    // The window passes (on the chain's clock): L0 restarts, LG keeps 600.
    const testClient = createTestClient({ mode: "hardhat", transport: http(destination.rpcUrl) });
    await testClient.increaseTime({ seconds: 301 });
    await testClient.mine({ blocks: 1 });
    await mento.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: E18("500") });
    await swapIn(user, usdmCopm, usdm, copm, E18("500"));

    // 500 more fits L0 (500 + 500 = 1,000) but not LG (1,100 + 500 = 1,600 > 1,500).
    const lifetime = await failureOf(
      mento.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: E18("500") }),
    );
    expect(lifetime.kind).toBe("capacity_exceeded");
    expect(lifetime.message).toMatch(/LG/);
    expect(await revertReason(simulateSwapIn(user, usdmCopm, usdm, copm, E18("500")))).toBe("LG Exceeded");
    await mento.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: E18("400") });
  });

  it("is unavailable when the RPC refuses connections or never answers", async () => {
    const options = { broker: broker(), directory: listing(exchanges), timeoutMs: 300 };
    const refused = mentoExchange({
      ...options,
      client: createPublicClient({
        transport: http(`http://127.0.0.1:${await freePort()}`, { retryCount: 0 }),
      }),
    });
    const down = await failureOf(
      refused.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: E18("1") }),
    );
    expect(down.kind).toBe("unavailable");
    expect(apiErrorOf(down).code).toBe("PROVIDER_UNAVAILABLE");

    // A server that accepts connections and never answers.
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      // viem's own timeout is far longer: only the adapter's deadline can end these calls in time.
      const silentClient = createPublicClient({
        transport: http(`http://127.0.0.1:${port}`, { retryCount: 0, timeout: 30_000 }),
      });
      const startedAt = performance.now();
      const stuck = await failureOf(
        mentoExchange({ ...options, client: silentClient }).quoteExchange({
          tokenIn: usdm,
          tokenOut: copm,
          amountIn: E18("1"),
        }),
      );
      expect(stuck.kind).toBe("unavailable");
      expect(stuck.message).toMatch(/did not answer within 300 ms/);
      expect(performance.now() - startedAt).toBeLessThan(1_500);

      const unlisted = await failureOf(
        mentoDirectory({ client: silentClient, broker: broker(), timeoutMs: 300 }).exchanges(),
      );
      expect(unlisted.kind).toBe("unavailable");
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("refuses an empty amount before asking the chain", async () => {
    await expect(mento.quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: 0n })).rejects.toThrow(
      RangeError,
    );
  });
});
