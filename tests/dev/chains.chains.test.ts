import {
  type Abi,
  type Account,
  createPublicClient,
  createTestClient,
  encodePacked,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  pad,
  parseAbi,
  parseEventLogs,
  parseUnits,
  toEventSelector,
  toFunctionSelector,
  zeroAddress,
  zeroHash,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  biPoolManagerAbi,
  CCTP_FORWARD_HOOK_DATA,
  compileSandboxContracts,
  DEFAULT_TRADING_LIMIT,
  fundFreshWallet,
  LOCAL_AGGREGATOR_KEY,
  mentoBrokerAdminAbi,
  type RunningSandboxChains,
  revertReason,
  type SandboxChain,
  sandboxChainOf,
  sandboxOperator,
  sandboxPublicClient,
  sandboxRelayReceiverAbi,
  sandboxRouterAbi,
  sandboxTokenAbi,
  sandboxTokenMessengerV2Abi,
  sandboxWalletClient,
  startSandboxChains,
  type TradingLimitConfig,
} from "../../dev/chains";
import { mentoArtifact } from "../../dev/chains/mento-artifacts";
import { ManualClock } from "../../lib/kernel/clock";
import { freePort } from "../harness/free-port";

// The real protocols' signatures, copied from docs/domain-facts.md, NOT from the
// sandbox's own ABIs: decoding with these proves a client of the real contracts works against ours.
const cctpV2Abi = parseAbi([
  "function depositForBurn(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken, bytes32 destinationCaller, uint256 maxFee, uint32 minFinalityThreshold)",
  "function depositForBurnWithHook(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken, bytes32 destinationCaller, uint256 maxFee, uint32 minFinalityThreshold, bytes hookData)",
  "event DepositForBurn(address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller, uint256 maxFee, uint32 indexed minFinalityThreshold, bytes hookData)",
  // circlefin/evm-cctp-contracts src/v2/BaseTokenMessenger.sol
  "event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken, uint256 feeCollected)",
]);
const mentoBrokerAbi = parseAbi([
  "function getAmountOut(address exchangeProvider, bytes32 exchangeId, address tokenIn, address tokenOut, uint256 amountIn) view returns (uint256)",
  "function swapIn(address exchangeProvider, bytes32 exchangeId, address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOutMin) returns (uint256)",
  "function tradingLimitsConfig(bytes32 limitId) view returns (uint32 timestep0, uint32 timestep1, int48 limit0, int48 limit1, int48 limitGlobal, uint8 flags)",
  "function tradingLimitsState(bytes32 limitId) view returns (uint32 lastUpdated0, uint32 lastUpdated1, int48 netflow0, int48 netflow1, int48 netflowGlobal)",
  "event Swap(address exchangeProvider, bytes32 indexed exchangeId, address indexed trader, address indexed tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut)",
]);
const aggregatorRouterAbi = parseAbi([
  "function route(address tokenIn, uint256 amountIn, uint256 destinationChainId, address tokenOut, address recipient, uint256 minAmountOut, bytes32 memo) returns (bytes32 routeId)",
  "function refund(bytes32 routeId)",
  "event RouteRequested(bytes32 indexed routeId, address indexed sender, address tokenIn, uint256 amountIn, uint256 destinationChainId, address tokenOut, address indexed recipient, uint256 minAmountOut, bytes32 memo)",
  "event RouteRefunded(bytes32 indexed routeId, address indexed sender, address tokenIn, uint256 amount)",
]);
const MEMO = `0x${"c0".repeat(32)}` as const;

const USDC = (amount: string) => parseUnits(amount, 6);
const USDT = (amount: string) => parseUnits(amount, 6);
/** USDm and COPm amounts (18 decimals). */
const E18 = (amount: string) => parseUnits(amount, 18);
const FAST_FINALITY = 1000;

let running: RunningSandboxChains;
let source: SandboxChain;
let sourceB: SandboxChain;
let intermediate: SandboxChain;
let destination: SandboxChain;

beforeAll(async () => {
  const startedAt = performance.now();
  running = await startSandboxChains();
  console.log(`sandbox chains started and deployed in ${Math.round(performance.now() - startedAt)} ms`);
  source = sandboxChainOf(running.network, "source");
  sourceB = sandboxChainOf(running.network, "sourceB");
  intermediate = sandboxChainOf(running.network, "intermediate");
  destination = sandboxChainOf(running.network, "destination");
});

afterAll(async () => {
  await running?.close();
});

/** A contract address the chain must have; the test fails loudly when it is missing. */
function addressOf(chain: SandboxChain, key: keyof SandboxChain["contracts"]): Hex {
  const address = chain.contracts[key];
  if (!address) throw new Error(`${chain.role} has no ${key}`);
  return address;
}

/** BiPoolManager's id for a ConstantSum pool: keccak256 of the two symbols and the module's name. */
function exchangeIdOfSymbols(symbol0: string, symbol1: string): Hex {
  return keccak256(encodePacked(["string", "string", "string"], [symbol0, symbol1, "ConstantSum"]));
}

async function mined(chain: SandboxChain, sent: Promise<Hex>) {
  const receipt = await sandboxPublicClient(chain).waitForTransactionReceipt({ hash: await sent });
  expect(receipt.status).toBe("success");
  return receipt;
}

async function balanceOf(chain: SandboxChain, token: Hex, owner: Hex): Promise<bigint> {
  return sandboxPublicClient(chain).readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner],
  });
}

async function totalSupply(chain: SandboxChain, token: Hex): Promise<bigint> {
  return sandboxPublicClient(chain).readContract({
    address: token,
    abi: erc20Abi,
    functionName: "totalSupply",
  });
}

async function approve(chain: SandboxChain, owner: Account, token: Hex, spender: Hex, amount: bigint) {
  await mined(
    chain,
    sandboxWalletClient(chain, owner).writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [spender, amount],
    }),
  );
}

describe("the sandbox network", () => {
  it("runs two source chains and one chain of each other role, each with its own chain id, CCTP domain and JSON-RPC endpoint", async () => {
    expect(
      running.network.chains.map(({ key, role, chainId, cctpDomain }) => ({
        key,
        role,
        chainId,
        cctpDomain,
      })),
    ).toEqual([
      { key: "source", role: "source", chainId: 31331, cctpDomain: 3 },
      { key: "sourceB", role: "source", chainId: 31334, cctpDomain: 1 },
      { key: "intermediate", role: "intermediate", chainId: 31332, cctpDomain: 6 },
      { key: "destination", role: "destination", chainId: 31333, cctpDomain: undefined },
    ]);
    expect(new Set(running.network.chains.map(({ rpcUrl }) => rpcUrl)).size).toBe(4);
    for (const chain of running.network.chains) {
      expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await sandboxPublicClient(chain).getChainId()).toBe(chain.chainId);
    }
    expect(running.network.operator.address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(sandboxOperator.address).toBe(running.network.operator.address);
  });

  it("gives each chain its own USDC address, so a client that mixes chains up fails", () => {
    const addresses = [source, sourceB, intermediate, destination].map((chain) => addressOf(chain, "usdc"));
    expect(new Set(addresses).size).toBe(4);
  });

  it("links each source chain's messenger and the intermediate chain's to each other by CCTP domain, never the two sources", async () => {
    const sourceMessenger = addressOf(source, "tokenMessenger");
    const intermediateMessenger = addressOf(intermediate, "tokenMessenger");
    const read = (chain: SandboxChain, address: Hex, domain: number) =>
      sandboxPublicClient(chain).readContract({
        address,
        abi: sandboxTokenMessengerV2Abi,
        functionName: "remoteTokenMessengers",
        args: [domain],
      });
    expect(await read(source, sourceMessenger, 6)).toBe(
      pad(intermediateMessenger, { size: 32 }).toLowerCase(),
    );
    expect(await read(intermediate, intermediateMessenger, 3)).toBe(
      pad(sourceMessenger, { size: 32 }).toLowerCase(),
    );
    expect(await read(source, sourceMessenger, 7)).toBe(zeroHash);
    const sourceBMessenger = addressOf(sourceB, "tokenMessenger");
    expect(await read(sourceB, sourceBMessenger, 6)).toBe(
      pad(intermediateMessenger, { size: 32 }).toLowerCase(),
    );
    expect(await read(intermediate, intermediateMessenger, 1)).toBe(
      pad(sourceBMessenger, { size: 32 }).toLowerCase(),
    );
    expect(await read(sourceB, sourceBMessenger, 3)).toBe(zeroHash);
    expect(await read(source, sourceMessenger, 1)).toBe(zeroHash);
    const localDomain = (chain: SandboxChain, address: Hex) =>
      sandboxPublicClient(chain).readContract({
        address,
        abi: sandboxTokenMessengerV2Abi,
        functionName: "localDomain",
      });
    expect(await localDomain(source, sourceMessenger)).toBe(3);
    expect(await localDomain(sourceB, sourceBMessenger)).toBe(1);
    expect(await localDomain(intermediate, intermediateMessenger)).toBe(6);
  });

  it("lists Mento's three pools under BiPoolManager's ids (the two symbols and the pricing module)", async () => {
    const usdm = addressOf(destination, "usdm");
    expect(destination.exchanges).toEqual([
      { exchangeId: exchangeIdOfSymbols("USDm", "COPm"), tokens: [usdm, addressOf(destination, "copm")] },
      { exchangeId: exchangeIdOfSymbols("USDm", "USDC"), tokens: [usdm, addressOf(destination, "usdc")] },
      { exchangeId: exchangeIdOfSymbols("USDm", "USDT"), tokens: [usdm, addressOf(destination, "usdt")] },
    ]);
    const providers = await sandboxPublicClient(destination).readContract({
      address: addressOf(destination, "broker"),
      abi: mentoBrokerAdminAbi,
      functionName: "getExchangeProviders",
    });
    expect(providers).toEqual([addressOf(destination, "exchangeProvider")]);
  });

  it("compiles contracts whose ABIs contain every entry of the typed viem ABIs", async () => {
    const compiled = await compileSandboxContracts();
    const pairs: Array<[Abi, Abi]> = [
      [sandboxTokenAbi, compiled.SandboxToken.abi],
      [sandboxTokenMessengerV2Abi, compiled.SandboxTokenMessengerV2.abi],
      [biPoolManagerAbi, mentoArtifact("BiPoolManager").abi],
      [mentoBrokerAdminAbi, mentoArtifact("Broker").abi],
      [sandboxRouterAbi, compiled.SandboxRouter.abi],
      [sandboxRelayReceiverAbi, compiled.SandboxRelayReceiver.abi],
      [cctpV2Abi, compiled.SandboxTokenMessengerV2.abi],
      [mentoBrokerAbi, mentoArtifact("Broker").abi],
      [aggregatorRouterAbi, compiled.SandboxRouter.abi],
    ];
    for (const [typed, actual] of pairs) {
      for (const item of typed) {
        if (item.type === "function") {
          const match = actual.find(
            (candidate) =>
              candidate.type === "function" && toFunctionSelector(candidate) === toFunctionSelector(item),
          );
          expect(match, `function ${item.name}`).toBeDefined();
          if (match?.type === "function") {
            expect(
              match.outputs.map((output) => output.type),
              `outputs of ${item.name}`,
            ).toEqual(item.outputs.map((output) => output.type));
          }
        } else if (item.type === "event") {
          const match = actual.find(
            (candidate) => candidate.type === "event" && toEventSelector(candidate) === toEventSelector(item),
          );
          expect(match, `event ${item.name}`).toBeDefined();
          if (match?.type === "event") {
            expect(
              match.inputs.map((input) => input.indexed ?? false),
              `indexed fields of ${item.name}`,
            ).toEqual(item.inputs.map((input) => input.indexed ?? false));
          }
        }
      }
    }
  });
});

describe("sandbox tokens", () => {
  it("carry the decimals of their production counterparts", async () => {
    const expectations: Array<[SandboxChain, keyof SandboxChain["contracts"], string, number]> = [
      [source, "usdc", "USDC", 6],
      [intermediate, "usdc", "USDC", 6],
      [destination, "usdc", "USDC", 6],
      [destination, "usdt", "USDT", 6],
      [destination, "usdm", "USDm", 18],
      [destination, "copm", "COPm", 18],
    ];
    for (const [chain, key, symbol, decimals] of expectations) {
      const client = sandboxPublicClient(chain);
      const address = addressOf(chain, key);
      expect(await client.readContract({ address, abi: erc20Abi, functionName: "decimals" })).toBe(decimals);
      expect(await client.readContract({ address, abi: erc20Abi, functionName: "symbol" })).toBe(symbol);
    }
  });

  it("mint only for the operator and the minters it authorised", async () => {
    const usdc = addressOf(source, "usdc");
    const stranger = await fundFreshWallet(source);
    const supplyBefore = await totalSupply(source, usdc);

    const receipt = await mined(
      source,
      sandboxWalletClient(source, sandboxOperator).writeContract({
        address: usdc,
        abi: sandboxTokenAbi,
        functionName: "mint",
        args: [stranger.address, USDC("12.5")],
      }),
    );
    const [minted] = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: "Transfer" });
    expect(minted?.args).toEqual({ from: zeroAddress, to: stranger.address, value: USDC("12.5") });
    expect(await totalSupply(source, usdc)).toBe(supplyBefore + USDC("12.5"));

    const strangerMint = sandboxPublicClient(source).simulateContract({
      account: stranger,
      address: usdc,
      abi: sandboxTokenAbi,
      functionName: "mint",
      args: [stranger.address, USDC("1")],
    });
    expect(await revertReason(strangerMint)).toBe("SandboxToken: caller is not a minter");

    const isMinter = (account: Hex, token: Hex) =>
      sandboxPublicClient(destination).readContract({
        address: token,
        abi: sandboxTokenAbi,
        functionName: "isMinter",
        args: [account],
      });
    // Mento's broker mints the reserve's stable assets only; USDC and USDT are collateral the reserve pays.
    for (const [key, minter] of [
      ["usdm", true],
      ["copm", true],
      ["usdc", false],
      ["usdt", false],
    ] as const) {
      expect(await isMinter(addressOf(destination, "broker"), addressOf(destination, key)), key).toBe(minter);
    }
    expect(await isMinter(stranger.address, addressOf(destination, "usdm"))).toBe(false);
  });

  it("burn only the caller's own balance", async () => {
    const usdc = addressOf(source, "usdc");
    const holder = await fundFreshWallet(source, [{ token: usdc, amount: USDC("3") }]);
    const supplyBefore = await totalSupply(source, usdc);
    await mined(
      source,
      sandboxWalletClient(source, holder).writeContract({
        address: usdc,
        abi: sandboxTokenAbi,
        functionName: "burn",
        args: [USDC("1")],
      }),
    );
    expect(await balanceOf(source, usdc, holder.address)).toBe(USDC("2"));
    expect(await totalSupply(source, usdc)).toBe(supplyBefore - USDC("1"));
    const overBurn = sandboxPublicClient(source).simulateContract({
      account: holder,
      address: usdc,
      abi: sandboxTokenAbi,
      functionName: "burn",
      args: [USDC("2.000001")],
    });
    expect(await revertReason(overBurn)).toBe("SandboxToken: burn amount exceeds balance");
  });
});

describe("the CCTP v2 TokenMessenger on the source chain", () => {
  async function depositor(amount: bigint): Promise<Account> {
    const usdc = addressOf(source, "usdc");
    const user = await fundFreshWallet(source, [{ token: usdc, amount }]);
    await approve(source, user, usdc, addressOf(source, "tokenMessenger"), amount);
    return user;
  }

  it("burns with depositForBurnWithHook and emits the exact v2 DepositForBurn event", async () => {
    const usdc = addressOf(source, "usdc");
    const messenger = addressOf(source, "tokenMessenger");
    const amount = USDC("250");
    const maxFee = USDC("0.3");
    const user = await depositor(amount);
    const settlementAccount = (await fundFreshWallet(intermediate)).address;
    const supplyBefore = await totalSupply(source, usdc);

    const receipt = await mined(
      source,
      sandboxWalletClient(source, user).writeContract({
        address: messenger,
        abi: cctpV2Abi,
        functionName: "depositForBurnWithHook",
        args: [
          amount,
          6,
          pad(settlementAccount, { size: 32 }),
          usdc,
          zeroHash,
          maxFee,
          FAST_FINALITY,
          CCTP_FORWARD_HOOK_DATA,
        ],
      }),
    );

    const events = parseEventLogs({ abi: cctpV2Abi, logs: receipt.logs, eventName: "DepositForBurn" });
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event?.address.toLowerCase()).toBe(messenger.toLowerCase());
    expect(event?.topics[0]).toBe(
      keccak256(
        new TextEncoder().encode(
          "DepositForBurn(address,uint256,address,bytes32,uint32,bytes32,bytes32,uint256,uint32,bytes)",
        ),
      ),
    );
    expect(event?.args).toEqual({
      burnToken: usdc,
      amount,
      depositor: user.address,
      mintRecipient: pad(settlementAccount, { size: 32 }).toLowerCase(),
      destinationDomain: 6,
      destinationTokenMessenger: pad(addressOf(intermediate, "tokenMessenger"), { size: 32 }).toLowerCase(),
      destinationCaller: zeroHash,
      maxFee,
      minFinalityThreshold: FAST_FINALITY,
      hookData: CCTP_FORWARD_HOOK_DATA,
    });
    // The forwarding request: 24-byte "cctp-forward" magic, version 0, length 0.
    expect(event?.args.hookData).toBe(
      `0x${Buffer.from("cctp-forward").toString("hex").padEnd(48, "0")}${"0".repeat(16)}`,
    );

    expect(await balanceOf(source, usdc, user.address)).toBe(0n);
    expect(await balanceOf(source, usdc, messenger)).toBe(0n);
    expect(await totalSupply(source, usdc)).toBe(supplyBefore - amount);
    const transfers = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: "Transfer" });
    expect(transfers.map(({ args }) => args)).toEqual([
      { from: user.address, to: messenger, value: amount },
      { from: messenger, to: zeroAddress, value: amount },
    ]);
  });

  it("burns with depositForBurn and emits empty hook data", async () => {
    const usdc = addressOf(source, "usdc");
    const amount = USDC("10");
    const user = await depositor(amount);
    const receipt = await mined(
      source,
      sandboxWalletClient(source, user).writeContract({
        address: addressOf(source, "tokenMessenger"),
        abi: cctpV2Abi,
        functionName: "depositForBurn",
        args: [amount, 6, pad(user.address, { size: 32 }), usdc, zeroHash, 0n, 2000],
      }),
    );
    const [event] = parseEventLogs({ abi: cctpV2Abi, logs: receipt.logs, eventName: "DepositForBurn" });
    expect(event?.args.hookData).toBe("0x");
    expect(event?.args.minFinalityThreshold).toBe(2000);
    expect(await balanceOf(source, usdc, user.address)).toBe(0n);
  });

  it("reverts like the real one: empty hook data, maxFee >= amount, zero amount or recipient, unsupported token", async () => {
    const usdc = addressOf(source, "usdc");
    const amount = USDC("5");
    const user = await depositor(amount);
    const recipient = pad(user.address, { size: 32 });
    type Args = readonly [bigint, number, Hex, Hex, Hex, bigint, number, Hex];
    const attempt = (args: Args) =>
      sandboxPublicClient(source).simulateContract({
        account: user,
        address: addressOf(source, "tokenMessenger"),
        abi: cctpV2Abi,
        functionName: "depositForBurnWithHook",
        args,
      });
    const hook = CCTP_FORWARD_HOOK_DATA;

    expect(await revertReason(attempt([amount, 6, recipient, usdc, zeroHash, 0n, 1000, "0x"]))).toBe(
      "Hook data is empty",
    );
    expect(await revertReason(attempt([amount, 6, recipient, usdc, zeroHash, amount, 1000, hook]))).toBe(
      "Max fee must be less than amount",
    );
    expect(await revertReason(attempt([amount, 6, recipient, usdc, zeroHash, amount + 1n, 1000, hook]))).toBe(
      "Max fee must be less than amount",
    );
    expect(await revertReason(attempt([0n, 6, recipient, usdc, zeroHash, 0n, 1000, hook]))).toBe(
      "Amount must be nonzero",
    );
    expect(await revertReason(attempt([amount, 6, zeroHash, usdc, zeroHash, 0n, 1000, hook]))).toBe(
      "Mint recipient must be nonzero",
    );
    const notUsdc = addressOf(source, "tokenMessenger");
    expect(await revertReason(attempt([amount, 6, recipient, notUsdc, zeroHash, 0n, 1000, hook]))).toBe(
      "Burn token not supported",
    );
    // The same inputs with a fee below the amount do go through, so the reverts above are the checks.
    await expect(
      attempt([amount, 6, recipient, usdc, zeroHash, amount - 1n, 1000, hook]),
    ).resolves.toBeDefined();
    expect(await balanceOf(source, usdc, user.address)).toBe(amount);
  });
});

describe("the Mento broker on the destination chain", () => {
  const USDM_COPM = exchangeIdOfSymbols("USDm", "COPm");
  const USDM_USDC = exchangeIdOfSymbols("USDm", "USDC");
  const USDM_USDT = exchangeIdOfSymbols("USDm", "USDT");

  function quote(exchangeId: Hex, tokenIn: Hex, tokenOut: Hex, amountIn: bigint) {
    return sandboxPublicClient(destination).readContract({
      address: addressOf(destination, "broker"),
      abi: mentoBrokerAbi,
      functionName: "getAmountOut",
      args: [addressOf(destination, "exchangeProvider"), exchangeId, tokenIn, tokenOut, amountIn],
    });
  }

  async function trader(token: Hex, amount: bigint): Promise<Account> {
    const user = await fundFreshWallet(destination, [{ token, amount }]);
    await approve(destination, user, token, addressOf(destination, "broker"), amount);
    return user;
  }

  type SwapArgs = readonly [Hex, Hex, Hex, Hex, bigint, bigint];

  /** swapIn's arguments through the sandbox's exchange provider unless another provider is given. */
  function swapArgs(
    exchangeId: Hex,
    tokenIn: Hex,
    tokenOut: Hex,
    amountIn: bigint,
    amountOutMin: bigint,
    provider: Hex = addressOf(destination, "exchangeProvider"),
  ): SwapArgs {
    return [provider, exchangeId, tokenIn, tokenOut, amountIn, amountOutMin];
  }

  function swap(user: Account, args: SwapArgs) {
    const broker = addressOf(destination, "broker");
    const wallet = sandboxWalletClient(destination, user);
    return wallet.writeContract({ address: broker, abi: mentoBrokerAbi, functionName: "swapIn", args });
  }

  function simulateSwap(user: Account, args: SwapArgs) {
    return sandboxPublicClient(destination).simulateContract({
      account: user,
      address: addressOf(destination, "broker"),
      abi: mentoBrokerAbi,
      functionName: "swapIn",
      args,
    });
  }

  it("quotes 1 USDm = 3,900 COPm less the 0.25% spread, and swapIn pays exactly the quote", async () => {
    const usdm = addressOf(destination, "usdm");
    const copm = addressOf(destination, "copm");
    const amountIn = E18("100");
    const quoted = await quote(USDM_COPM, usdm, copm, amountIn);
    // 100 × 3,900 = 390,000 COPm before the spread; 0.25% of it (975 COPm) stays with the exchange.
    expect(quoted).toBe(E18("389025"));

    const user = await trader(usdm, amountIn);
    const usdmSupply = await totalSupply(destination, usdm);
    const copmSupply = await totalSupply(destination, copm);
    const receipt = await mined(destination, swap(user, swapArgs(USDM_COPM, usdm, copm, amountIn, quoted)));

    const [swapEvent] = parseEventLogs({ abi: mentoBrokerAbi, logs: receipt.logs, eventName: "Swap" });
    expect(swapEvent?.args).toEqual({
      exchangeProvider: addressOf(destination, "exchangeProvider"),
      exchangeId: USDM_COPM,
      trader: user.address,
      tokenIn: usdm,
      tokenOut: copm,
      amountIn,
      amountOut: quoted,
    });
    const transfers = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: "Transfer" });
    expect(transfers.map(({ address, args }) => ({ token: address.toLowerCase(), ...args }))).toEqual([
      {
        token: usdm.toLowerCase(),
        from: user.address,
        to: addressOf(destination, "broker"),
        value: amountIn,
      },
      { token: usdm.toLowerCase(), from: addressOf(destination, "broker"), to: zeroAddress, value: amountIn },
      { token: copm.toLowerCase(), from: zeroAddress, to: user.address, value: quoted },
    ]);
    expect(await balanceOf(destination, copm, user.address)).toBe(quoted);
    expect(await balanceOf(destination, usdm, user.address)).toBe(0n);
    expect(await totalSupply(destination, usdm)).toBe(usdmSupply - amountIn);
    expect(await totalSupply(destination, copm)).toBe(copmSupply + quoted);
  });

  it("prices the other directions and decimals with the same spread", async () => {
    const usdm = addressOf(destination, "usdm");
    expect(await quote(USDM_COPM, addressOf(destination, "copm"), usdm, E18("390000"))).toBe(E18("99.75"));
    expect(await quote(USDM_USDC, addressOf(destination, "usdc"), usdm, USDC("10"))).toBe(E18("9.975"));
    expect(await quote(USDM_USDT, usdm, addressOf(destination, "usdt"), E18("1"))).toBe(USDT("0.9975"));

    const usdc = addressOf(destination, "usdc");
    const user = await trader(usdc, USDC("10"));
    await mined(destination, swap(user, swapArgs(USDM_USDC, usdc, usdm, USDC("10"), E18("9.975"))));
    expect(await balanceOf(destination, usdm, user.address)).toBe(E18("9.975"));
  });

  it("enforces amountOutMin and rejects unknown providers, exchanges and token pairs like Mento", async () => {
    const usdm = addressOf(destination, "usdm");
    const copm = addressOf(destination, "copm");
    const amountIn = E18("2");
    const quoted = await quote(USDM_COPM, usdm, copm, amountIn);
    const user = await trader(usdm, amountIn);

    const usdc = addressOf(destination, "usdc");
    const stranger = user.address;
    const attempts: Array<[SwapArgs, string]> = [
      [swapArgs(USDM_COPM, usdm, copm, amountIn, quoted + 1n), "amountOutMin not met"],
      [swapArgs(USDM_COPM, usdm, copm, amountIn, 0n, stranger), "ExchangeProvider does not exist"],
      [swapArgs(zeroHash, usdm, copm, amountIn, 0n), "An exchange with the specified id does not exist"],
      [swapArgs(USDM_COPM, usdm, usdc, amountIn, 0n), "tokenIn and tokenOut must match exchange"],
    ];
    for (const [args, reason] of attempts) {
      expect(await revertReason(simulateSwap(user, args))).toBe(reason);
    }

    // At exactly the quote the swap goes through and nothing moved before.
    expect(await balanceOf(destination, usdm, user.address)).toBe(amountIn);
    await mined(destination, swap(user, swapArgs(USDM_COPM, usdm, copm, amountIn, quoted)));
    expect(await balanceOf(destination, copm, user.address)).toBe(quoted);
  });

  it("starts with generous trading limits on the USDm side of every exchange", async () => {
    const usdm = addressOf(destination, "usdm");
    for (const exchangeId of [USDM_COPM, USDM_USDC, USDM_USDT]) {
      const config = await sandboxPublicClient(destination).readContract({
        address: addressOf(destination, "broker"),
        abi: mentoBrokerAbi,
        functionName: "tradingLimitsConfig",
        args: [limitIdOf(exchangeId, usdm)],
      });
      const { timestep0, timestep1, limit0, limit1, limitGlobal, flags } = DEFAULT_TRADING_LIMIT;
      expect(config).toEqual([timestep0, timestep1, limit0, limit1, limitGlobal, flags]);
    }
  });

  it("fails a trade over a trading limit with Mento's message, and the views report the netflows", async () => {
    const usdm = addressOf(destination, "usdm");
    const copm = addressOf(destination, "copm");
    const broker = addressOf(destination, "broker");
    const limitId = limitIdOf(USDM_COPM, usdm);
    const publicClient = sandboxPublicClient(destination);
    const operator = sandboxWalletClient(destination, sandboxOperator);
    const configure = (config: TradingLimitConfig) =>
      operator.writeContract({
        address: broker,
        abi: mentoBrokerAdminAbi,
        functionName: "configureTradingLimit",
        args: [USDM_COPM, usdm, config],
      });
    const state = () =>
      publicClient.readContract({
        address: broker,
        abi: mentoBrokerAbi,
        functionName: "tradingLimitsState",
        args: [limitId],
      });

    // Switching every limit off forgets earlier tests' flows; then L0 = 1,000 USDm per 5 minutes, LG = 1,500.
    await mined(destination, configure({ ...DEFAULT_TRADING_LIMIT, flags: 0 }));
    await mined(
      destination,
      configure({ timestep0: 300, timestep1: 0, limit0: 1_000, limit1: 0, limitGlobal: 1_500, flags: 1 | 4 }),
    );
    expect(await state()).toEqual([0, 0, 0, 0, 0]);

    const user = await trader(usdm, E18("2000"));
    const first = await mined(destination, swap(user, swapArgs(USDM_COPM, usdm, copm, E18("600"), 0n)));
    const firstBlock = await publicClient.getBlock({ blockNumber: first.blockNumber });
    expect(await state()).toEqual([Number(firstBlock.timestamp), 0, 600, 0, 600]);

    // 600 + 500 > 1,000 within the window.
    const fiveHundred = swapArgs(USDM_COPM, usdm, copm, E18("500"), 0n);
    expect(await revertReason(simulateSwap(user, fiveHundred))).toBe("L0 Exceeded");
    expect(await state()).toEqual([Number(firstBlock.timestamp), 0, 600, 0, 600]);

    // A new window restarts L0, but the lifetime flow keeps counting: 600 + 500 = 1,100 ≤ 1,500.
    await createTestClient({ mode: "hardhat", transport: http(destination.rpcUrl) }).increaseTime({
      seconds: 301,
    });
    await mined(destination, swap(user, fiveHundred));
    const [, , netflow0, , netflowGlobal] = await state();
    expect([netflow0, netflowGlobal]).toEqual([500, 1_100]);

    // 500 more fits L0 (1,000) but not LG (1,600 > 1,500).
    expect(await revertReason(simulateSwap(user, fiveHundred))).toBe("LG Exceeded");

    // Back to the defaults so later trades are not limited by this test.
    await mined(destination, configure({ ...DEFAULT_TRADING_LIMIT, flags: 0 }));
    await mined(destination, configure(DEFAULT_TRADING_LIMIT));
  });

  it("lets only the owner configure limits, and validates them as Mento does", async () => {
    const usdm = addressOf(destination, "usdm");
    const stranger = await fundFreshWallet(destination);
    const attempt = (account: Account, config: TradingLimitConfig) =>
      sandboxPublicClient(destination).simulateContract({
        account,
        address: addressOf(destination, "broker"),
        abi: mentoBrokerAdminAbi,
        functionName: "configureTradingLimit",
        args: [USDM_COPM, usdm, config],
      });
    expect(await revertReason(attempt(stranger, DEFAULT_TRADING_LIMIT))).toBe(
      "Ownable: caller is not the owner",
    );
    expect(await revertReason(attempt(sandboxOperator, { ...DEFAULT_TRADING_LIMIT, flags: 2 }))).toBe(
      "L1 without L0 not allowed",
    );
    expect(await revertReason(attempt(sandboxOperator, { ...DEFAULT_TRADING_LIMIT, limit1: 1 }))).toBe(
      "limit1 must be greater than limit0",
    );
  });
});

describe("the aggregator router on the intermediate chain", () => {
  it("burns the input and emits RouteRequested with a fresh route id", async () => {
    const usdc = addressOf(intermediate, "usdc");
    const router = addressOf(intermediate, "router");
    const amount = USDC("75");
    const user = await fundFreshWallet(intermediate, [{ token: usdc, amount }]);
    await approve(intermediate, user, usdc, router, amount);
    const recipient = (await fundFreshWallet(destination)).address;
    const usdm = addressOf(destination, "usdm");
    const supplyBefore = await totalSupply(intermediate, usdc);
    const args = [usdc, USDC("50"), 31333n, usdm, recipient, E18("49.5"), MEMO] as const;

    const { result: routeId } = await sandboxPublicClient(intermediate).simulateContract({
      account: user,
      address: router,
      abi: aggregatorRouterAbi,
      functionName: "route",
      args,
    });
    const receipt = await mined(
      intermediate,
      sandboxWalletClient(intermediate, user).writeContract({
        address: router,
        abi: aggregatorRouterAbi,
        functionName: "route",
        args,
      }),
    );
    const [event] = parseEventLogs({
      abi: aggregatorRouterAbi,
      logs: receipt.logs,
      eventName: "RouteRequested",
    });
    expect(event?.args).toEqual({
      routeId,
      sender: user.address,
      tokenIn: usdc,
      amountIn: USDC("50"),
      destinationChainId: 31333n,
      tokenOut: usdm,
      recipient,
      minAmountOut: E18("49.5"),
      memo: MEMO,
    });
    expect(await balanceOf(intermediate, usdc, user.address)).toBe(USDC("25"));
    expect(await totalSupply(intermediate, usdc)).toBe(supplyBefore - USDC("50"));

    // A refund is the owner's (the local aggregator's relayer, once the chains are deployed: not
    // even the operator who deployed it), gives the input back to the sender once, and says so.
    const relayer = privateKeyToAccount(LOCAL_AGGREGATOR_KEY);
    const refundBy = (account: typeof user) =>
      sandboxPublicClient(intermediate).simulateContract({
        account,
        address: router,
        abi: aggregatorRouterAbi,
        functionName: "refund",
        args: [routeId],
      });
    expect(await revertReason(refundBy(user))).toBe("SandboxRouter: caller is not the owner");
    expect(await revertReason(refundBy(sandboxOperator))).toBe("SandboxRouter: caller is not the owner");
    const refunded = await mined(
      intermediate,
      sandboxWalletClient(intermediate, relayer).writeContract({
        address: router,
        abi: aggregatorRouterAbi,
        functionName: "refund",
        args: [routeId],
      }),
    );
    const [refundEvent] = parseEventLogs({
      abi: aggregatorRouterAbi,
      logs: refunded.logs,
      eventName: "RouteRefunded",
    });
    expect(refundEvent?.args).toEqual({ routeId, sender: user.address, tokenIn: usdc, amount: USDC("50") });
    expect(await balanceOf(intermediate, usdc, user.address)).toBe(USDC("75"));
    expect(await revertReason(refundBy(relayer))).toBe("SandboxRouter: route already refunded");
    await approve(intermediate, user, usdc, router, USDC("25"));

    const second = await mined(
      intermediate,
      sandboxWalletClient(intermediate, user).writeContract({
        address: router,
        abi: aggregatorRouterAbi,
        functionName: "route",
        args: [usdc, USDC("25"), 31333n, usdm, recipient, 0n, MEMO],
      }),
    );
    const [secondEvent] = parseEventLogs({
      abi: aggregatorRouterAbi,
      logs: second.logs,
      eventName: "RouteRequested",
    });
    expect(secondEvent?.args.routeId).not.toBe(routeId);

    const toItself = sandboxPublicClient(intermediate).simulateContract({
      account: user,
      address: router,
      abi: aggregatorRouterAbi,
      functionName: "route",
      args: [usdc, 1n, 31332n, usdm, recipient, 0n, MEMO],
    });
    expect(await revertReason(toItself)).toBe("SandboxRouter: destination must be another chain");
  });
});

describe("startSandboxChains options and close", () => {
  it("deploys at the same addresses on every start, applies rate, limits and ports, and close frees the ports", async () => {
    const port = await freePort();
    const other = await startSandboxChains({
      ports: { destination: port },
      rate: { copmPerUsdm: 4_000n * 10n ** 18n, spread: 0n },
      limits: { "USDm/COPm": null },
    });
    let closed = false;
    try {
      expect(other.network.chains.map(({ contracts }) => contracts)).toEqual(
        running.network.chains.map(({ contracts }) => contracts),
      );
      const otherDestination = sandboxChainOf(other.network, "destination");
      expect(otherDestination.rpcUrl).toBe(`http://127.0.0.1:${port}`);
      const client = sandboxPublicClient(otherDestination);
      const usdm = addressOf(otherDestination, "usdm");
      const amountOut = await client.readContract({
        address: addressOf(otherDestination, "broker"),
        abi: mentoBrokerAbi,
        functionName: "getAmountOut",
        args: [
          addressOf(otherDestination, "exchangeProvider"),
          exchangeIdOfSymbols("USDm", "COPm"),
          usdm,
          addressOf(otherDestination, "copm"),
          E18("1"),
        ],
      });
      expect(amountOut).toBe(E18("4000"));
      const limits = await client.readContract({
        address: addressOf(otherDestination, "broker"),
        abi: mentoBrokerAbi,
        functionName: "tradingLimitsConfig",
        args: [limitIdOf(exchangeIdOfSymbols("USDm", "COPm"), usdm)],
      });
      expect(limits[5]).toBe(0);

      await other.close();
      closed = true;
      const afterClose = createPublicClient({ transport: http(otherDestination.rpcUrl, { retryCount: 0 }) });
      await expect(afterClose.getBlockNumber()).rejects.toThrow(/HTTP request failed|fetch failed/);
    } finally {
      if (!closed) await other.close();
    }
  });
});

describe("sandbox chains on an injected clock", () => {
  // TIMESTAMP PUSH0 MSTORE PUSH1 0x20 PUSH0 RETURN: creation code whose eth_call answers block.timestamp.
  const READ_TIMESTAMP = "0x425f5260205ff3";
  const secondsOf = (clock: ManualClock) => BigInt(Math.floor(clock.now().getTime() / 1000));

  it("start at the clock's time and stamp every mined block with its whole seconds, same-second blocks included", async () => {
    // Far from the wall clock either way, and not on a whole second: block times are floored.
    const clock = new ManualClock(new Date("2031-03-04T05:06:07.890Z"));
    const started = await startSandboxChains({ clock });
    try {
      const chain = sandboxChainOf(started.network, "source");
      const client = sandboxPublicClient(chain);
      const start = secondsOf(clock);
      // Genesis and every deployment block, all mined while the clock stood still.
      const deployed = await client.getBlockNumber();
      expect(deployed).toBeGreaterThan(1n);
      for (let number = 0n; number <= deployed; number++)
        expect((await client.getBlock({ blockNumber: number })).timestamp, `block ${number}`).toBe(start);

      const operator = sandboxWalletClient(chain, sandboxOperator);
      const send = () =>
        operator.sendTransaction({ to: "0x000000000000000000000000000000000000dEaD", value: 1n });
      const blockTimeOf = async (hash: Hex) =>
        (
          await client.getBlock({
            blockNumber: (await client.waitForTransactionReceipt({ hash })).blockNumber,
          })
        ).timestamp;

      expect(await blockTimeOf(await send())).toBe(start);
      // 07.890 + 2.5 s = 10.390: the block carries second 10.
      clock.advance(2_500);
      expect(await blockTimeOf(await send())).toBe(start + 3n);
      // Two users sending at once: each automined block still carries the clock's second.
      const users = [await fundFreshWallet(chain), await fundFreshWallet(chain)];
      const sentAtOnce = await Promise.all(
        users.map((user) =>
          sandboxWalletClient(chain, user).sendTransaction({
            to: "0x000000000000000000000000000000000000dEaD",
            value: 1n,
          }),
        ),
      );
      for (const hash of sentAtOnce) expect(await blockTimeOf(hash)).toBe(start + 3n);

      // hardhat_mine without an interval keeps every block on the clock, not a second apart.
      clock.advance(60_000);
      const before = await client.getBlockNumber();
      await client.request({ method: "hardhat_mine" as never, params: ["0x3"] as never });
      expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(before + 3n);
      for (let number = before + 1n; number <= before + 3n; number++)
        expect((await client.getBlock({ blockNumber: number })).timestamp).toBe(start + 63n);

      // A call on the pending block sees the clock's time as well.
      clock.advance(7_000);
      const pending = await client.request({
        method: "eth_call",
        params: [{ data: READ_TIMESTAMP }, "pending"],
      });
      expect(BigInt(pending)).toBe(start + 70n);
    } finally {
      await started.close();
    }
  });

  it("without a clock keep wall time, one second apart at least, as Hardhat does by default", async () => {
    const client = sandboxPublicClient(source);
    const testClient = createTestClient({ mode: "hardhat", transport: http(source.rpcUrl) });
    await testClient.mine({ blocks: 1 });
    const first = await client.getBlock();
    await testClient.mine({ blocks: 1 });
    const second = await client.getBlock();
    expect(second.timestamp).toBeGreaterThan(first.timestamp);
    const wallSeconds = BigInt(Math.floor(Date.now() / 1000));
    expect(first.timestamp).toBeGreaterThanOrEqual(wallSeconds - 60n);
    expect(first.timestamp).toBeLessThanOrEqual(wallSeconds + 60n);
  });
});

/** Mento's limit key: exchangeId XOR the token address (left-padded to 32 bytes). */
function limitIdOf(exchangeId: Hex, token: Hex): Hex {
  return `0x${(BigInt(exchangeId) ^ BigInt(token)).toString(16).padStart(64, "0")}`;
}
