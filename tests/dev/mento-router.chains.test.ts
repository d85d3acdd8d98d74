import {
  type Account,
  type Address,
  encodePacked,
  erc20Abi,
  type Hex,
  keccak256,
  parseEventLogs,
  parseUnits,
  size,
  toFunctionSelector,
  zeroHash,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  compileSandboxContracts,
  DEFAULT_TRADING_LIMIT,
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
import { CHAINALYSIS_SANCTIONS_ORACLE, mentoBrokerAbi, mentoRouterAbi } from "../../lib/kernel/chain/abis";
import { MAINNET_CHAINS, TESTNET_CHAINS } from "../../lib/kernel/chain/profiles";
import { chainRegistry } from "../../lib/kernel/chain/registry";
import { parseConfig } from "../../lib/kernel/config";

/** 6-decimal amounts (USDC, USDT). */
const E6 = (amount: string) => parseUnits(amount, 6);
/** 18-decimal amounts (USDm, COPm). */
const E18 = (amount: string) => parseUnits(amount, 18);

/**
 * The router's address on every start: the operator's next nonce on the destination chain after the
 * payout depositor. Every other address is the one dev/chains/README.md and tests/dev/chains.chains.test.ts
 * rely on, unchanged.
 */
const MENTO_ROUTER = "0xac81E70942DF7b08238Cb09572b74F400AdE24C1";
const EXPECTED_CONTRACTS = {
  source: {
    usdc: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    tokenMessenger: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
    messageTransmitter: "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707",
    sanctionsOracle: CHAINALYSIS_SANCTIONS_ORACLE,
  },
  intermediate: {
    usdc: "0x132F7D9033b28B08cbc520e1cfD83c6dA3abfA36",
    tokenMessenger: "0xB719422a0A484025c1A22a8dEEaFC67E81F43CfD",
    router: "0xF978b011bcf604b201996FEb3E53eD3D52F0A90F",
    messageTransmitter: "0xBA6BfBa894B5cAF04c3462A5C8556fFBa4de6782",
    relayReceiver: "0x56cB5406C23d0fb16EaC535D6108CA72980c8072",
    sanctionsOracle: CHAINALYSIS_SANCTIONS_ORACLE,
  },
  destination: {
    usdc: "0xcebe3F283f05A5815C4Af0EEC721692F86e21fD8",
    usdt: "0x65AE70f28522E7A43E111e22404c42Efc43fE2D0",
    bridgedUsdc: "0x4c5213Ab530C5AD637F80640c46b6ee98f8C2869",
    usdm: "0xDc6148C733Ab07E643cCd6d4f39c2BD5BE492aef",
    copm: "0xe5109c996634f8CCca0D69AF4DF5a3d112863d2d",
    exchangeProvider: "0x6Ad5B8B5a12a26892C6Ad6b8Ae64905D9B53da8A",
    broker: "0x12Aeb4648CfDaE7589580D6f4E6C901f12800aC2",
    relayReceiver: "0x953166191665Cd5a8C1F6C8bD6b09a0a87907B58",
    payoutDepositor: "0xD11D98Fe2Be0871E45B459Af22f7dd9FC8c6004d",
    mentoRouter: MENTO_ROUTER,
    router: "0x0c41c5af596173c8179c8F4663A8796224ECc31d",
    sanctionsOracle: CHAINALYSIS_SANCTIONS_ORACLE,
  },
} as const;

/**
 * The selectors the deployed MentoRouter's dispatcher answers, read from its creation code in
 * mento-protocol/mento-router broadcast/Deploy.s.sol/42220 (the deployment at 0xBE7293…57f67).
 */
const REAL_SWAP_EXACT_TOKENS_FOR_TOKENS = "0x723d40f7";
const REAL_GET_AMOUNT_OUT = "0xe49ee239";

type TokenKey = "usdc" | "usdt" | "usdm" | "copm";
interface Step {
  exchangeProvider: Address;
  exchangeId: Hex;
  assetIn: Address;
  assetOut: Address;
}

let running: RunningSandboxChains;
let destination: SandboxChain;

beforeAll(async () => {
  running = await startSandboxChains();
  destination = sandboxChainOf(running.network, "destination");
});

afterAll(async () => {
  await running?.close();
});

function addressOf(key: keyof SandboxChain["contracts"]): Address {
  const address = destination.contracts[key];
  if (!address) throw new Error(`destination has no ${key}`);
  return address;
}

/** BiPoolManager's id for a ConstantSum pool: keccak256 of the two symbols and the module's name. */
function exchangeIdOfSymbols(symbol0: string, symbol1: string): Hex {
  return keccak256(encodePacked(["string", "string", "string"], [symbol0, symbol1, "ConstantSum"]));
}
const USDM_COPM = exchangeIdOfSymbols("USDm", "COPm");
const USDM_USDC = exchangeIdOfSymbols("USDm", "USDC");
const USDM_USDT = exchangeIdOfSymbols("USDm", "USDT");

/** One step through Mento's BiPoolManager. */
function step(exchangeId: Hex, assetIn: TokenKey, assetOut: TokenKey): Step {
  return {
    exchangeProvider: addressOf("exchangeProvider"),
    exchangeId,
    assetIn: addressOf(assetIn),
    assetOut: addressOf(assetOut),
  };
}

async function mined(sent: Promise<Hex>) {
  return sandboxPublicClient(destination).waitForTransactionReceipt({ hash: await sent });
}

function balanceOf(token: Address, holder: Address): Promise<bigint> {
  return sandboxPublicClient(destination).readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [holder],
  });
}

function allowanceOf(token: Address, owner: Address, spender: Address = MENTO_ROUTER): Promise<bigint> {
  return sandboxPublicClient(destination).readContract({
    address: token,
    abi: erc20Abi,
    functionName: "allowance",
    args: [owner, spender],
  });
}

/** A wallet holding `balance` of `token`, minted by the operator, that approved the router for `allowance`. */
async function trader(token: Address, balance: bigint, allowance = balance): Promise<Account> {
  const user = await fundFreshWallet(destination, [{ token, amount: balance }]);
  const approved = await mined(
    sandboxWalletClient(destination, user).writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [MENTO_ROUTER, allowance],
    }),
  );
  expect(approved.status).toBe("success");
  return user;
}

function quoteOnRouter(amountIn: bigint, path: readonly Step[]) {
  return sandboxPublicClient(destination).readContract({
    address: MENTO_ROUTER,
    abi: mentoRouterAbi,
    functionName: "getAmountOut",
    args: [amountIn, path],
  });
}

/** The same path quoted hop by hop on the broker itself: what the router must agree with. */
async function quoteOnBroker(amountIn: bigint, path: readonly Step[]): Promise<bigint[]> {
  const amounts = [amountIn];
  for (const { exchangeProvider, exchangeId, assetIn, assetOut } of path) {
    const previous = amounts.at(-1) as bigint;
    amounts.push(
      await sandboxPublicClient(destination).readContract({
        address: addressOf("broker"),
        abi: mentoBrokerAbi,
        functionName: "getAmountOut",
        args: [exchangeProvider, exchangeId, assetIn, assetOut, previous],
      }),
    );
  }
  return amounts;
}

type SwapArgs = readonly [bigint, bigint, readonly Step[]];

function simulateSwap(user: Account, args: SwapArgs) {
  return sandboxPublicClient(destination).simulateContract({
    account: user,
    address: MENTO_ROUTER,
    abi: mentoRouterAbi,
    functionName: "swapExactTokensForTokens",
    args,
  });
}

function swap(user: Account, args: SwapArgs, gas?: bigint) {
  return sandboxWalletClient(destination, user).writeContract({
    address: MENTO_ROUTER,
    abi: mentoRouterAbi,
    functionName: "swapExactTokensForTokens",
    args,
    // With a gas limit viem skips estimation, so a reverting call is mined (reverted) instead of refused.
    ...(gas === undefined ? {} : { gas }),
  });
}

/** Every sandbox token's balance of `holder`, in a fixed order. */
function balancesOf(holder: Address): Promise<bigint[]> {
  return Promise.all(
    (["usdc", "usdt", "usdm", "copm"] as const).map((key) => balanceOf(addressOf(key), holder)),
  );
}

/** The broker's limit on one token of one exchange, and a way to put the default back. */
function limitOn(exchangeId: Hex, token: Address) {
  const operator = sandboxWalletClient(destination, sandboxOperator);
  const configure = async (config: TradingLimitConfig) => {
    const receipt = await mined(
      operator.writeContract({
        address: addressOf("broker"),
        abi: mentoBrokerAdminAbi,
        functionName: "configureTradingLimit",
        args: [exchangeId, token, config],
      }),
    );
    expect(receipt.status).toBe("success");
  };
  return {
    /** Switching every limit off first forgets earlier flows; then `config` starts from zero. */
    async set(config: TradingLimitConfig) {
      await configure({ ...DEFAULT_TRADING_LIMIT, flags: 0 });
      await configure(config);
    },
    async restore() {
      await configure({ ...DEFAULT_TRADING_LIMIT, flags: 0 });
      await configure(DEFAULT_TRADING_LIMIT);
    },
  };
}

describe("the Mento router on the sandbox destination chain", () => {
  it("is deployed on the destination chain at the same address on every start, whatever the options, and SANDBOX_NETWORK carries it", async () => {
    expect(destination.contracts.mentoRouter).toBe(MENTO_ROUTER);
    // Every address is the one the other sandbox tests expect.
    for (const role of ["source", "intermediate", "destination"] as const) {
      expect(sandboxChainOf(running.network, role).contracts, role).toEqual(EXPECTED_CONTRACTS[role]);
    }
    const code = await sandboxPublicClient(destination).getCode({ address: MENTO_ROUTER });
    expect(size(code ?? "0x")).toBeGreaterThan(0);

    // Other options send other set-up transactions; no address moves, the router's included.
    const other = await startSandboxChains({
      rate: { copmPerUsdm: 4_000n * 10n ** 18n, spread: 0n },
      limits: { "USDm/COPm": null, "USDm/USDC": null },
    });
    try {
      expect(sandboxChainOf(other.network, "destination").contracts.mentoRouter).toBe(MENTO_ROUTER);
      expect(other.network.chains.map(({ contracts }) => contracts)).toEqual(
        running.network.chains.map(({ contracts }) => contracts),
      );
    } finally {
      await other.close();
    }

    // The worker's view: the descriptor survives config parsing with the router on the destination.
    const parsed = parseConfig({
      MODE: "mock",
      CHAIN_PROFILE: "local",
      SANDBOX_NETWORK: JSON.stringify({
        chains: running.network.chains.map((chain) => ({ ...chain, confirmations: 1 })),
      }),
    });
    if (!parsed.ok) throw new Error(`config invalid: ${JSON.stringify(parsed.problems)}`);
    const registry = chainRegistry(parsed.config);
    expect(registry.byRole("destination")?.contracts.mentoRouter).toBe(MENTO_ROUTER);
    expect(registry.byRole("source")?.contracts.mentoRouter).toBeUndefined();

    // Celo and Celo Sepolia: Mento's router and BiPoolManager (sources in lib/kernel/chain/profiles.ts).
    expect(MAINNET_CHAINS.destination.contracts.mentoRouter).toBe(
      "0xBE729350F8CdFC19DB6866e8579841188eE57f67",
    );
    expect(MAINNET_CHAINS.destination.contracts.exchangeProvider).toBe(
      "0x22d9db95E6Ae61c104A7B6F6C78D7993B94ec901",
    );
    expect(TESTNET_CHAINS.destination.contracts.mentoRouter).toBe(
      "0x8e4Fb12D86D5DF911086a9153e79CA27e0c96156",
    );
  });

  it("has exactly the functions of mentoRouterAbi, under the deployed MentoRouter's selectors, and no events", async () => {
    const compiled = (await compileSandboxContracts()).SandboxMentoRouter.abi;
    expect(mentoRouterAbi).toHaveLength(2);
    const [swapExact, getAmountOut] = mentoRouterAbi;
    expect(toFunctionSelector(swapExact)).toBe(REAL_SWAP_EXACT_TOKENS_FOR_TOKENS);
    expect(toFunctionSelector(getAmountOut)).toBe(REAL_GET_AMOUNT_OUT);

    const functions = compiled.filter((item) => item.type === "function");
    expect(functions.map((item) => toFunctionSelector(item)).sort()).toEqual(
      [REAL_GET_AMOUNT_OUT, REAL_SWAP_EXACT_TOKENS_FOR_TOKENS].sort(),
    );
    for (const typed of [swapExact, getAmountOut]) {
      const match = functions.find((item) => toFunctionSelector(item) === toFunctionSelector(typed));
      expect(
        match?.outputs.map(({ type }) => type),
        typed.name,
      ).toEqual(typed.outputs.map(({ type }) => type));
      expect(match?.stateMutability, typed.name).toBe(typed.stateMutability);
    }
    expect(compiled.filter((item) => item.type === "event")).toEqual([]);
  });

  const pairs = [
    {
      name: "USDC → USDm → COPm",
      tokenIn: "usdc" as const,
      tokenOut: "copm" as const,
      amountIn: E6("100"),
      // 100 USDC → 99.75 USDm → 99.75 × 3,900 × 0.9975 COPm.
      expected: [E18("99.75"), E18("388052.4375")],
      path: () => [step(USDM_USDC, "usdc", "usdm"), step(USDM_COPM, "usdm", "copm")],
    },
    {
      name: "USDT → USDm → COPm",
      tokenIn: "usdt" as const,
      tokenOut: "copm" as const,
      amountIn: E6("250"),
      expected: [E18("249.375"), E18("970131.09375")],
      path: () => [step(USDM_USDT, "usdt", "usdm"), step(USDM_COPM, "usdm", "copm")],
    },
    {
      name: "COPm → USDm → USDT",
      tokenIn: "copm" as const,
      tokenOut: "usdt" as const,
      amountIn: E18("1000000"),
      // 1,000,000 / 3,900 less 0.25%, rounded down at 18 decimals; then less 0.25% rounded down to 6.
      expected: [255_769230769230769230n, E6("255.129807")],
      path: () => [step(USDM_COPM, "copm", "usdm"), step(USDM_USDT, "usdm", "usdt")],
    },
  ];

  it.each(pairs)(
    "swaps $name in one transaction: exactly amountIn leaves the wallet and exactly the quote arrives",
    async ({ tokenIn, tokenOut, amountIn, expected, path: pathOf }) => {
      const path = pathOf();
      const [tokenInAddress, tokenOutAddress] = [addressOf(tokenIn), addressOf(tokenOut)];
      const quoted = await quoteOnRouter(amountIn, path);
      // The router's quote is the broker's, hop by hop, and the rate's arithmetic.
      expect(await quoteOnBroker(amountIn, path)).toEqual([amountIn, ...expected]);
      expect(quoted).toBe(expected.at(-1));

      const leftover = 7n;
      const user = await trader(tokenInAddress, amountIn + leftover, amountIn);
      const before = {
        in: await balanceOf(tokenInAddress, user.address),
        out: await balanceOf(tokenOutAddress, user.address),
      };
      const args = [amountIn, quoted, path] as const;

      // What the call returns: amountIn, then each hop's output (the real router's layout).
      const { result } = await simulateSwap(user, args);
      expect(result).toEqual([amountIn, ...expected]);

      const receipt = await mined(swap(user, args));
      expect(receipt.status).toBe("success");
      expect(receipt.to?.toLowerCase()).toBe(MENTO_ROUTER.toLowerCase());

      expect(await balanceOf(tokenInAddress, user.address)).toBe(before.in - amountIn);
      expect(await balanceOf(tokenInAddress, user.address)).toBe(leftover);
      expect(await balanceOf(tokenOutAddress, user.address)).toBe(before.out + quoted);
      // The router keeps nothing, and no allowance to it or from it survives.
      expect(await balancesOf(MENTO_ROUTER)).toEqual([0n, 0n, 0n, 0n]);
      expect(await allowanceOf(tokenInAddress, user.address)).toBe(0n);
      for (const { assetIn } of path) {
        expect(
          await allowanceOf(assetIn, MENTO_ROUTER, addressOf("broker")),
          `router's ${assetIn} allowance to the broker`,
        ).toBe(0n);
      }

      // Every hop went through Broker.swapIn (so through its trading limits), traded by the router.
      const swaps = parseEventLogs({ abi: mentoBrokerAbi, logs: receipt.logs, eventName: "Swap" });
      expect(swaps.map(({ args: event }) => event)).toEqual(
        path.map((hop, index) => ({
          exchangeProvider: hop.exchangeProvider,
          exchangeId: hop.exchangeId,
          trader: MENTO_ROUTER,
          tokenIn: hop.assetIn,
          tokenOut: hop.assetOut,
          amountIn: [amountIn, ...expected][index],
          amountOut: expected[index],
        })),
      );
      const transfers = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: "Transfer" });
      expect(transfers[0]?.args).toEqual({ from: user.address, to: MENTO_ROUTER, value: amountIn });
      expect(transfers.at(-1)?.args).toEqual({ from: MENTO_ROUTER, to: user.address, value: quoted });
      // No event of the router's own, as on the real router.
      expect(
        receipt.logs.filter(({ address }) => address.toLowerCase() === MENTO_ROUTER.toLowerCase()),
      ).toEqual([]);
    },
  );

  it("refuses an amountOutMin above the output with the real router's reason, before anything moves", async () => {
    const usdc = addressOf("usdc");
    const amountIn = E6("40");
    const path = [step(USDM_USDC, "usdc", "usdm"), step(USDM_COPM, "usdm", "copm")];
    const quoted = await quoteOnRouter(amountIn, path);
    const user = await trader(usdc, amountIn);

    expect(await revertReason(simulateSwap(user, [amountIn, quoted + 1n, path]))).toBe(
      "MentoRouter: INSUFFICIENT_OUTPUT_AMOUNT",
    );
    const receipt = await mined(swap(user, [amountIn, quoted + 1n, path], 1_000_000n));
    expect(receipt.status).toBe("reverted");
    expect(receipt.logs).toEqual([]);
    expect(await balancesOf(user.address)).toEqual([amountIn, 0n, 0n, 0n]);
    expect(await allowanceOf(usdc, user.address)).toBe(amountIn);

    // At exactly the output it goes through: the minimum was the only obstacle.
    expect((await mined(swap(user, [amountIn, quoted, path]))).status).toBe("success");
    expect(await balanceOf(addressOf("copm"), user.address)).toBe(quoted);
  });

  it("refuses a broken path (a step's assetIn is not the previous assetOut), an empty or one-step one and a mismatched exchange", async () => {
    const usdc = addressOf("usdc");
    const amountIn = E6("10");
    const user = await trader(usdc, amountIn);
    // USDC → USDm, then a step that spends COPm the router never received.
    const broken = [step(USDM_USDC, "usdc", "usdm"), step(USDM_COPM, "copm", "usdm")];
    const reason = "SandboxMentoRouter: step assetIn is not the previous step's assetOut";

    expect(await revertReason(simulateSwap(user, [amountIn, 0n, broken]))).toBe(reason);
    expect(await revertReason(quoteOnRouter(amountIn, broken))).toBe(reason);
    expect(await revertReason(simulateSwap(user, [amountIn, 0n, []]))).toBe("MentoRouter: INVALID_PATH");
    // As on Celo: one step is not a route; the broker trades it directly.
    expect(await revertReason(simulateSwap(user, [amountIn, 0n, [step(USDM_USDC, "usdc", "usdm")]]))).toBe(
      "MentoRouter: INVALID_PATH",
    );
    // A step whose assets the exchange does not trade fails with the broker's own reason.
    expect(
      await revertReason(
        simulateSwap(user, [
          amountIn,
          0n,
          [step(USDM_COPM, "usdc", "copm"), step(USDM_COPM, "copm", "usdm")],
        ]),
      ),
    ).toBe("tokenIn and tokenOut must match exchange");
    expect(
      await revertReason(
        simulateSwap(user, [
          amountIn,
          0n,
          [{ ...step(USDM_USDC, "usdc", "usdm"), exchangeId: zeroHash }, step(USDM_COPM, "usdm", "copm")],
        ]),
      ),
    ).toBe("An exchange with the specified id does not exist");

    const receipt = await mined(swap(user, [amountIn, 0n, broken], 1_000_000n));
    expect(receipt.status).toBe("reverted");
    expect(await balancesOf(user.address)).toEqual([amountIn, 0n, 0n, 0n]);

    // The same hops chained right go through.
    const chained = [step(USDM_USDC, "usdc", "usdm"), step(USDM_COPM, "usdm", "copm")];
    expect((await mined(swap(user, [amountIn, 0n, chained]))).status).toBe("success");
  });

  it("refuses a caller whose allowance is short with the real TransferHelper reason", async () => {
    const usdt = addressOf("usdt");
    const amountIn = E6("5");
    const user = await trader(usdt, amountIn, amountIn - 1n);
    const path = [step(USDM_USDT, "usdt", "usdm"), step(USDM_COPM, "usdm", "copm")];
    expect(await revertReason(simulateSwap(user, [amountIn, 0n, path]))).toBe(
      "TransferHelper::transferFrom: transferFrom failed",
    );
    expect(await balancesOf(user.address)).toEqual([0n, amountIn, 0n, 0n]);
  });

  it("fails a hop over the broker's trading limit with the broker's reason, first hop or second, and moves nothing", async () => {
    const usdc = addressOf("usdc");
    const usdm = addressOf("usdm");
    const path = [step(USDM_USDC, "usdc", "usdm"), step(USDM_COPM, "usdm", "copm")];
    const onlyL0 = (limit0: number): TradingLimitConfig => ({
      timestep0: 300,
      timestep1: 0,
      limit0,
      limit1: 0,
      limitGlobal: 0,
      flags: 1,
    });
    const secondHop = limitOn(USDM_COPM, usdm);
    const firstHop = limitOn(USDM_USDC, usdm);
    const user = await trader(usdc, E6("3000"));

    try {
      // Second hop: at most 1,000 USDm into USDm/COPm per 5 minutes.
      await secondHop.set(onlyL0(1_000));
      // 1,500 USDC → 1,496.25 USDm: the first hop is free, the second is over the limit.
      expect(await quoteOnRouter(E6("1500"), path)).toBeGreaterThan(0n);
      expect(await revertReason(simulateSwap(user, [E6("1500"), 0n, path]))).toBe("L0 Exceeded");
      const over = await mined(swap(user, [E6("1500"), 0n, path], 1_000_000n));
      expect(over.status).toBe("reverted");
      expect(await balancesOf(user.address)).toEqual([E6("3000"), 0n, 0n, 0n]);

      // Within it the same route goes through, and its flow counts: 897.75 + 199.5 USDm > 1,000.
      expect((await mined(swap(user, [E6("900"), 0n, path]))).status).toBe("success");
      expect(await revertReason(simulateSwap(user, [E6("200"), 0n, path]))).toBe("L0 Exceeded");
      await secondHop.restore();

      // First hop: at most 100 USDm out of USDm/USDC per 5 minutes.
      await firstHop.set(onlyL0(100));
      expect(await revertReason(simulateSwap(user, [E6("200"), 0n, path]))).toBe("L0 Exceeded");
      expect((await mined(swap(user, [E6("90"), 0n, path]))).status).toBe("success");
    } finally {
      await secondHop.restore();
      await firstHop.restore();
    }
  });
});
