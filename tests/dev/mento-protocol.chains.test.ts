import { type Account, erc20Abi, type Hex, type PublicClient, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_RATES,
  DEFAULT_TRADING_LIMIT,
  revertReason,
  sandboxSortedOraclesAbi,
  sandboxTokenAbi,
  sandboxWalletClient,
  type TradingLimitConfig,
} from "../../dev/chains";
import {
  deployMentoProtocol,
  limitMentoPools,
  type MentoProtocolDeployment,
  type MentoTokens,
} from "../../dev/chains/deploy-mento-protocol";
import { deploySandboxToken } from "../../dev/chains/deploy-token";
import type { ChainDeployer } from "../../dev/chains/deployer";
import { mentoArtifact } from "../../dev/chains/mento-artifacts";
import { mentoBrokerAbi } from "../../lib/kernel/chain/abis";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import type { ExchangeProvider } from "../../lib/settlement/pricing/ports";
import { mentoExchange } from "../../lib/vendors/mento/mento-exchange";
import { mentoDirectory } from "../../lib/vendors/mento/mento-exchanges";
import { type ScratchChain, startScratchChain } from "../harness/scratch-chain";

/**
 * Mento's own compiled contracts (from @mento-protocol/mento-core-ts) on a local chain, and the
 * service's Mento adapter against them: quotes, swaps, the reserve's collateral, the broker's
 * trading limits and a stale oracle are Mento's behaviour, not a stand-in's.
 */

const E18 = (amount: string) => parseUnits(amount, 18);
const E6 = (amount: string) => parseUnits(amount, 6);

/** 1,000 USDm net per 5 minutes on USDm/COPm: small enough to reach in a test. */
const SMALL_L0: TradingLimitConfig = {
  timestep0: 300,
  timestep1: 0,
  limit0: 1_000,
  limit1: 0,
  limitGlobal: 0,
  flags: 1,
};

let scratch: ScratchChain;
let deployer: ChainDeployer;
let client: PublicClient;
let tokens: MentoTokens;
let mento: MentoProtocolDeployment;
let adapter: ExchangeProvider;
let destination: ScratchChain["chain"];

beforeAll(async () => {
  scratch = await startScratchChain("destination");
  ({ deployer, client, chain: destination } = scratch);
  tokens = {
    usdm: await deploySandboxToken(deployer, "usdm"),
    copm: await deploySandboxToken(deployer, "copm"),
    usdc: await deploySandboxToken(deployer, "usdc"),
    usdt: await deploySandboxToken(deployer, "usdt"),
  };
  mento = await deployMentoProtocol(deployer, tokens, DEFAULT_RATES);
  await limitMentoPools(deployer, mento, {
    "USDm/COPm": SMALL_L0,
    "USDm/USDC": DEFAULT_TRADING_LIMIT,
    "USDm/USDT": DEFAULT_TRADING_LIMIT,
  });
  adapter = mentoExchange({
    client,
    broker: mento.broker,
    directory: mentoDirectory({ client, broker: mento.broker }),
  });
}, 120_000);

afterAll(() => scratch?.close());

function exchangeIdOf(pair: MentoProtocolDeployment["exchanges"][number]["pair"]): Hex {
  const found = mento.exchanges.find((exchange) => exchange.pair === pair);
  if (!found) throw new Error(`no ${pair} pool`);
  return found.exchangeId;
}

/** A fresh wallet with gas, holding `amount` of `token`, that has let the broker take it. */
async function trader(token: Hex, amount: bigint): Promise<Account> {
  const user = await scratch.freshWallet();
  await deployer.confirm(
    deployer.walletClient.writeContract({
      address: token,
      abi: sandboxTokenAbi,
      functionName: "mint",
      args: [user.address, amount],
    }),
    "mint to the trader",
  );
  const wallet = sandboxWalletClient(destination, user);
  await deployer.confirm(
    wallet.writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [mento.broker, amount],
    }),
    "approve the broker",
  );
  return user;
}

async function swapIn(user: Account, exchangeId: Hex, tokenIn: Hex, tokenOut: Hex, amountIn: bigint) {
  return deployer.confirm(
    sandboxWalletClient(destination, user).writeContract({
      address: mento.broker,
      abi: mentoBrokerAbi,
      functionName: "swapIn",
      args: [mento.biPoolManager, exchangeId, tokenIn, tokenOut, amountIn, 0n],
    }),
    "swapIn",
  );
}

const balanceOf = (token: Hex, holder: Hex) =>
  client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [holder] });
const supplyOf = (token: Hex) =>
  client.readContract({ address: token, abi: erc20Abi, functionName: "totalSupply" });

describe("Mento's own contracts on the local destination chain", () => {
  it("are the package's compiled Broker, BiPoolManager, ConstantSum, BreakerBox and Reserve, byte for byte", async () => {
    for (const [name, address] of [
      ["Broker", mento.broker],
      ["BiPoolManager", mento.biPoolManager],
      ["ConstantSumPricingModule", mento.constantSum],
      ["BreakerBox", mento.breakerBox],
      ["Reserve", mento.reserve],
    ] as const) {
      const code = await client.getCode({ address });
      // The creation bytecode carries the runtime bytecode whole (immutables aside, which these lack).
      expect(code && code.length > 100 && mentoArtifact(name).bytecode.includes(code.slice(2))).toBe(true);
    }
  });

  it("prices USDm to COPm at the oracle's rate less the pool's spread, through the service's adapter and Mento's broker alike", async () => {
    const amountIn = E18("100");
    const expected = (amountIn * 3_900n * (10_000n - 25n)) / 10_000n;
    const viaBroker = await client.readContract({
      address: mento.broker,
      abi: mentoBrokerAbi,
      functionName: "getAmountOut",
      args: [mento.biPoolManager, exchangeIdOf("USDm/COPm"), tokens.usdm, tokens.copm, amountIn],
    });
    expect(viaBroker).toBe(expected);
    const quote = await adapter.quoteExchange({ tokenIn: tokens.usdm, tokenOut: tokens.copm, amountIn });
    expect(quote).toMatchObject({
      exchangeProvider: mento.biPoolManager,
      exchangeId: exchangeIdOf("USDm/COPm"),
      amountOut: expected,
    });
  });

  it("swaps: the broker burns the USDm it takes and mints the COPm it pays, as Mento does with stable assets", async () => {
    const amountIn = E18("250");
    const user = await trader(tokens.usdm, amountIn);
    const usdmSupply = await supplyOf(tokens.usdm);
    const quoted = await adapter.quoteExchange({ tokenIn: tokens.usdm, tokenOut: tokens.copm, amountIn });
    await swapIn(user, exchangeIdOf("USDm/COPm"), tokens.usdm, tokens.copm, amountIn);
    expect(await balanceOf(tokens.copm, user.address)).toBe(quoted.amountOut);
    expect(await balanceOf(tokens.usdm, user.address)).toBe(0n);
    expect(await supplyOf(tokens.usdm)).toBe(usdmSupply - amountIn);
  });

  it("takes USDC into the reserve for USDm, and pays USDC out of the reserve for USDm", async () => {
    const reserveBefore = await balanceOf(tokens.usdc, mento.reserve);
    const buyer = await trader(tokens.usdc, E6("40"));
    await swapIn(buyer, exchangeIdOf("USDm/USDC"), tokens.usdc, tokens.usdm, E6("40"));
    expect(await balanceOf(tokens.usdc, mento.reserve)).toBe(reserveBefore + E6("40"));
    const usdmBought = await balanceOf(tokens.usdm, buyer.address);
    expect(usdmBought).toBe((E18("40") * (10_000n - 25n)) / 10_000n);

    const seller = await trader(tokens.usdm, E18("10"));
    await swapIn(seller, exchangeIdOf("USDm/USDC"), tokens.usdm, tokens.usdc, E18("10"));
    const paid = await balanceOf(tokens.usdc, seller.address);
    expect(paid).toBe((E6("10") * (10_000n - 25n)) / 10_000n);
    expect(await balanceOf(tokens.usdc, mento.reserve)).toBe(reserveBefore + E6("40") - paid);
  });

  it("refuses a swap past the broker's trading limit with Mento's own revert, which the adapter foresees as capacity exceeded", async () => {
    // 250 USDm went in above; 700 more stays within 1,000 per five minutes, 100 more does not.
    const within = await trader(tokens.usdm, E18("700"));
    await swapIn(within, exchangeIdOf("USDm/COPm"), tokens.usdm, tokens.copm, E18("700"));

    const amountIn = E18("100");
    const failure = await adapter
      .quoteExchange({ tokenIn: tokens.usdm, tokenOut: tokens.copm, amountIn })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect((failure as ProviderFailure).kind).toBe("capacity_exceeded");

    const beyond = await trader(tokens.usdm, amountIn);
    const refused = client.simulateContract({
      account: beyond,
      address: mento.broker,
      abi: mentoBrokerAbi,
      functionName: "swapIn",
      args: [mento.biPoolManager, exchangeIdOf("USDm/COPm"), tokens.usdm, tokens.copm, amountIn, 0n],
    });
    expect(await revertReason(refused)).toBe("L0 Exceeded");
  });

  it("stops pricing a pool whose oracle feed went stale (Mento's 'no valid median'), which the adapter answers as no route", async () => {
    const feed = mento.rateFeeds["USDm/USDT"];
    const setStale = (stale: boolean) =>
      deployer.confirm(
        deployer.walletClient.writeContract({
          address: mento.sortedOracles,
          abi: sandboxSortedOraclesAbi,
          functionName: "setStale",
          args: [feed, stale],
        }),
        "mark the feed",
      );
    await setStale(true);
    try {
      const failure = await adapter
        .quoteExchange({ tokenIn: tokens.usdm, tokenOut: tokens.usdt, amountIn: E18("1") })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProviderFailure);
      expect((failure as ProviderFailure).kind).toBe("no_route");
      expect((failure as ProviderFailure).message).toContain("no valid median");
    } finally {
      await setStale(false);
    }
    const quote = await adapter.quoteExchange({
      tokenIn: tokens.usdm,
      tokenOut: tokens.usdt,
      amountIn: E18("1"),
    });
    expect(quote.amountOut).toBe((E6("1") * (10_000n - 25n)) / 10_000n);
  });
});
