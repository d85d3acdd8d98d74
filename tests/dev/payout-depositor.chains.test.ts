import {
  type Account,
  type Address,
  concat,
  erc20Abi,
  getAddress,
  getContractAddress,
  type Hex,
  keccak256,
  parseEventLogs,
  parseUnits,
  size,
  toEventSelector,
  toFunctionSelector,
  toHex,
  zeroAddress,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  compileSandboxContracts,
  fundFreshWallet,
  type RunningSandboxChains,
  revertReason,
  type SandboxChain,
  sandboxChainOf,
  sandboxPublicClient,
  sandboxWalletClient,
  startSandboxChains,
} from "../../dev/chains";
import { payoutDepositorAbi } from "../../lib/kernel/chain/abis";
import { MAINNET_CHAINS, PAYOUT_DEPOSITOR_CREATE2, TESTNET_CHAINS } from "../../lib/kernel/chain/profiles";
import { chainRegistry } from "../../lib/kernel/chain/registry";
import { parseConfig } from "../../lib/kernel/config";

const USDC = (amount: string) => parseUnits(amount, 6);
/** COPm amounts (18 decimals). */
const COPM = (amount: string) => parseUnits(amount, 18);

const EVENT_SIGNATURE = "PayoutDeposited(bytes32,address,address,uint256,uint256,address,address)" as const;

let running: RunningSandboxChains;
let destination: SandboxChain;

beforeAll(async () => {
  running = await startSandboxChains();
  destination = sandboxChainOf(running.network, "destination");
});

afterAll(async () => {
  await running?.close();
});

function addressOf(chain: SandboxChain, key: keyof SandboxChain["contracts"]): Address {
  const address = chain.contracts[key];
  if (!address) throw new Error(`${chain.role} has no ${key}`);
  return address;
}

/** An address nobody holds a key for in the test: where the provider's and the fee's money lands. */
function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

function payoutRef(label: string): Hex {
  return keccak256(toHex(`payout ${label} ${Math.random()}`));
}

async function mined(sent: Promise<Hex>) {
  return sandboxPublicClient(destination).waitForTransactionReceipt({ hash: await sent });
}

async function balanceOf(token: Address, owner: Address): Promise<bigint> {
  return sandboxPublicClient(destination).readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner],
  });
}

/** A user holding `balance` of `token`, minted by the operator, who approved the depositor for `allowance`. */
async function payer(token: Address, balance: bigint, allowance: bigint): Promise<Account> {
  const user = await fundFreshWallet(destination, [{ token, amount: balance }]);
  const receipt = await mined(
    sandboxWalletClient(destination, user).writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [addressOf(destination, "payoutDepositor"), allowance],
    }),
  );
  expect(receipt.status).toBe("success");
  return user;
}

type DepositArgs = readonly [Hex, Address, bigint, bigint, Address, Address];

function deposit(user: Account, args: DepositArgs, gas?: bigint) {
  return sandboxWalletClient(destination, user).writeContract({
    address: addressOf(destination, "payoutDepositor"),
    abi: payoutDepositorAbi,
    functionName: "deposit",
    args,
    // With a gas limit viem skips estimation, so a reverting call is mined (reverted) instead of refused.
    ...(gas === undefined ? {} : { gas }),
  });
}

function simulateDeposit(user: Account, args: DepositArgs) {
  return sandboxPublicClient(destination).simulateContract({
    account: user,
    address: addressOf(destination, "payoutDepositor"),
    abi: payoutDepositorAbi,
    functionName: "deposit",
    args,
  });
}

describe("PayoutDepositor on the sandbox destination chain", () => {
  it("is deployed on the destination chain only, at the same address on every start, and SANDBOX_NETWORK carries it", async () => {
    const depositor = addressOf(destination, "payoutDepositor");
    // Deployed after everything else: every earlier contract keeps the address dev/chains/README.md lists.
    expect(destination.contracts).toEqual({
      usdc: "0xcebe3F283f05A5815C4Af0EEC721692F86e21fD8",
      usdt: "0x65AE70f28522E7A43E111e22404c42Efc43fE2D0",
      bridgedUsdc: "0x4c5213Ab530C5AD637F80640c46b6ee98f8C2869",
      usdm: "0xDc6148C733Ab07E643cCd6d4f39c2BD5BE492aef",
      copm: "0xe5109c996634f8CCca0D69AF4DF5a3d112863d2d",
      exchangeProvider: "0x6Ad5B8B5a12a26892C6Ad6b8Ae64905D9B53da8A",
      broker: "0x12Aeb4648CfDaE7589580D6f4E6C901f12800aC2",
      relayReceiver: "0x953166191665Cd5a8C1F6C8bD6b09a0a87907B58",
      payoutDepositor: "0xD11D98Fe2Be0871E45B459Af22f7dd9FC8c6004d",
      mentoRouter: "0xac81E70942DF7b08238Cb09572b74F400AdE24C1",
      router: "0x0c41c5af596173c8179c8F4663A8796224ECc31d",
      // Put at Chainalysis's address by code, not deployed: it moves no other address.
      sanctionsOracle: "0x40C57923924B5c5c5455c48D93317139ADDaC8fb",
    });
    const code = await sandboxPublicClient(destination).getCode({ address: depositor });
    expect(size(code ?? "0x")).toBeGreaterThan(0);
    for (const role of ["source", "intermediate"] as const) {
      expect(sandboxChainOf(running.network, role).contracts.payoutDepositor).toBeUndefined();
    }

    // Other options (rate, limits) send other set-up transactions; neither this address nor any other moves.
    const other = await startSandboxChains({
      rate: { copmPerUsdm: 4_000n * 10n ** 18n, spread: 0n },
      limits: { "USDm/COPm": null, "USDm/USDT": null },
    });
    try {
      const otherDestination = sandboxChainOf(other.network, "destination");
      expect(otherDestination.contracts.payoutDepositor).toBe(depositor);
      expect(other.network.chains.map(({ contracts }) => contracts)).toEqual(
        running.network.chains.map(({ contracts }) => contracts),
      );
    } finally {
      await other.close();
    }

    // The worker's view: the descriptor survives config parsing with the address on the destination.
    const parsed = parseConfig({
      MODE: "mock",
      CHAIN_PROFILE: "local",
      SANDBOX_NETWORK: JSON.stringify({
        chains: running.network.chains.map((chain) => ({ ...chain, confirmations: 1 })),
      }),
    });
    if (!parsed.ok) throw new Error(`config invalid: ${JSON.stringify(parsed.problems)}`);
    expect(chainRegistry(parsed.config).byRole("destination")?.contracts.payoutDepositor).toBe(depositor);

    // The real profiles name where this very bytecode lands through the deterministic deployment
    // proxy with salt 0: a change to the contract changes the address, and this test says so.
    const { PayoutDepositor } = await compileSandboxContracts();
    const create2 = getContractAddress({
      opcode: "CREATE2",
      from: PAYOUT_DEPOSITOR_CREATE2.deployer,
      salt: PAYOUT_DEPOSITOR_CREATE2.salt,
      bytecode: PayoutDepositor.bytecode,
    });
    expect(MAINNET_CHAINS.destination.contracts.payoutDepositor).toBe(create2);
    expect(TESTNET_CHAINS.destination.contracts.payoutDepositor).toBe(create2);
  });

  it("has exactly the functions and events of the typed ABI", async () => {
    const compiled = (await compileSandboxContracts()).PayoutDepositor.abi;
    const typedFunctions = payoutDepositorAbi.filter((item) => item.type === "function");
    const typedEvents = payoutDepositorAbi.filter((item) => item.type === "event");
    const event = typedEvents.find((item) => item.name === "PayoutDeposited");
    if (!event) throw new Error("no PayoutDeposited in the typed ABI");
    expect(toEventSelector(event)).toBe(keccak256(toHex(EVENT_SIGNATURE)));
    expect(
      compiled
        .filter((item) => item.type === "function")
        .map((item) => toFunctionSelector(item))
        .sort(),
    ).toEqual(typedFunctions.map((item) => toFunctionSelector(item)).sort());
    const compiledEvents = compiled.filter((item) => item.type === "event");
    expect(compiledEvents.map((item) => toEventSelector(item)).sort()).toEqual(
      typedEvents.map((item) => toEventSelector(item)).sort(),
    );
    for (const typed of typedEvents) {
      const built = compiledEvents.find((item) => item.name === typed.name);
      expect(
        built?.inputs.map(({ name, indexed }) => ({ name, indexed: indexed ?? false })),
        typed.name,
      ).toEqual(
        typed.inputs.map((input) => ({
          name: input.name,
          indexed: "indexed" in input ? input.indexed : false,
        })),
      );
    }
  });

  it.each([
    { symbol: "USDC", key: "usdc" as const, amount: USDC("1234.567891"), fee: USDC("2.5") },
    { symbol: "COPm", key: "copm" as const, amount: COPM("4850000.123456789012345678"), fee: COPM("9700") },
  ])(
    "takes $symbol: amount to the deposit address and fee to the fee wallet in one transaction, one event",
    async ({ key, amount, fee }) => {
      const token = addressOf(destination, key);
      const depositor = addressOf(destination, "payoutDepositor");
      const leftover = 7n;
      const user = await payer(token, amount + fee + leftover, amount + fee);
      const depositAddress = freshAddress();
      const feeWallet = freshAddress();
      const ref = payoutRef(key);
      const supply = await sandboxPublicClient(destination).readContract({
        address: token,
        abi: erc20Abi,
        functionName: "totalSupply",
      });

      const receipt = await mined(deposit(user, [ref, token, amount, fee, depositAddress, feeWallet]));
      expect(receipt.status).toBe("success");
      expect(receipt.to?.toLowerCase()).toBe(depositor.toLowerCase());

      const events = parseEventLogs({
        abi: payoutDepositorAbi,
        logs: receipt.logs,
        eventName: "PayoutDeposited",
      });
      expect(events).toHaveLength(1);
      expect(events[0]?.address.toLowerCase()).toBe(depositor.toLowerCase());
      expect(events[0]?.topics[0]).toBe(keccak256(toHex(EVENT_SIGNATURE)));
      expect(events[0]?.args).toEqual({
        payoutRef: ref,
        payer: user.address,
        token,
        amount,
        fee,
        depositAddress,
        feeWallet,
      });

      const transfers = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: "Transfer" });
      expect(transfers.map(({ address, args }) => ({ token: address.toLowerCase(), ...args }))).toEqual([
        { token: token.toLowerCase(), from: user.address, to: depositAddress, value: amount },
        { token: token.toLowerCase(), from: user.address, to: feeWallet, value: fee },
      ]);
      // Nothing else happened in the transaction: two transfers, one event (approvals emit nothing here).
      expect(receipt.logs).toHaveLength(3);

      expect(await balanceOf(token, user.address)).toBe(leftover);
      expect(await balanceOf(token, depositAddress)).toBe(amount);
      expect(await balanceOf(token, feeWallet)).toBe(fee);
      expect(await balanceOf(token, depositor)).toBe(0n);
      expect(
        await sandboxPublicClient(destination).readContract({
          address: token,
          abi: erc20Abi,
          functionName: "allowance",
          args: [user.address, depositor],
        }),
      ).toBe(0n);
      expect(
        await sandboxPublicClient(destination).readContract({
          address: token,
          abi: erc20Abi,
          functionName: "totalSupply",
        }),
      ).toBe(supply);
    },
  );

  it("with a zero fee makes one transfer and still names the fee wallet in the event", async () => {
    const usdc = addressOf(destination, "usdc");
    const amount = USDC("40");
    const user = await payer(usdc, amount, amount);
    const depositAddress = freshAddress();
    const feeWallet = freshAddress();
    const ref = payoutRef("no fee");

    const receipt = await mined(deposit(user, [ref, usdc, amount, 0n, depositAddress, feeWallet]));
    expect(receipt.status).toBe("success");
    const transfers = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: "Transfer" });
    expect(transfers.map(({ args }) => args)).toEqual([
      { from: user.address, to: depositAddress, value: amount },
    ]);
    const [event] = parseEventLogs({
      abi: payoutDepositorAbi,
      logs: receipt.logs,
      eventName: "PayoutDeposited",
    });
    expect(event?.args).toEqual({
      payoutRef: ref,
      payer: user.address,
      token: usdc,
      amount,
      fee: 0n,
      depositAddress,
      feeWallet,
    });
    expect(await balanceOf(usdc, user.address)).toBe(0n);
    expect(await balanceOf(usdc, depositAddress)).toBe(amount);
    expect(await balanceOf(usdc, feeWallet)).toBe(0n);
  });

  it("moves nothing when the allowance covers the amount but not the fee: the transaction is mined reverted", async () => {
    const usdc = addressOf(destination, "usdc");
    const amount = USDC("100");
    const fee = USDC("1");
    // Approved the amount alone: the first leg would go through, the fee leg cannot.
    const user = await payer(usdc, amount + fee, amount + fee - 1n);
    const depositAddress = freshAddress();
    const feeWallet = freshAddress();
    const args = [payoutRef("short"), usdc, amount, fee, depositAddress, feeWallet] as const;

    expect(await revertReason(simulateDeposit(user, args))).toBe("SandboxToken: insufficient allowance");

    const receipt = await mined(deposit(user, args, 300_000n));
    expect(receipt.status).toBe("reverted");
    expect(receipt.logs).toHaveLength(0);
    expect(await balanceOf(usdc, user.address)).toBe(amount + fee);
    expect(await balanceOf(usdc, depositAddress)).toBe(0n);
    expect(await balanceOf(usdc, feeWallet)).toBe(0n);

    // One unit more allowance and the same call goes through: the allowance was the only obstacle.
    const approved = await mined(
      sandboxWalletClient(destination, user).writeContract({
        address: usdc,
        abi: erc20Abi,
        functionName: "approve",
        args: [addressOf(destination, "payoutDepositor"), amount + fee],
      }),
    );
    expect(approved.status).toBe("success");
    expect((await mined(deposit(user, args))).status).toBe("success");
    expect(await balanceOf(usdc, feeWallet)).toBe(fee);
  });

  it("refuses a zero amount, token, deposit address or fee wallet, and a short balance, with clear reasons", async () => {
    const copm = addressOf(destination, "copm");
    const amount = COPM("5000");
    const fee = COPM("10");
    const user = await payer(copm, amount + fee, amount + fee);
    const ref = payoutRef("refused");
    const depositAddress = freshAddress();
    const feeWallet = freshAddress();

    const attempts: Array<[DepositArgs, string]> = [
      [[ref, copm, 0n, fee, depositAddress, feeWallet], "PayoutDepositor: amount must be nonzero"],
      [[ref, zeroAddress, amount, fee, depositAddress, feeWallet], "PayoutDepositor: token must be nonzero"],
      [[ref, copm, amount, fee, zeroAddress, feeWallet], "PayoutDepositor: deposit address must be nonzero"],
      [[ref, copm, amount, fee, depositAddress, zeroAddress], "PayoutDepositor: fee wallet must be nonzero"],
      [[ref, copm, amount, 0n, depositAddress, zeroAddress], "PayoutDepositor: fee wallet must be nonzero"],
      [[ref, copm, amount + 1n, fee, depositAddress, feeWallet], "SandboxToken: insufficient allowance"],
      [
        [ref, freshAddress(), amount, fee, depositAddress, feeWallet],
        "PayoutDepositor: token is not a contract",
      ],
    ];
    for (const [args, reason] of attempts) {
      expect(await revertReason(simulateDeposit(user, args)), reason).toBe(reason);
    }

    // A zero deposit address sent anyway is mined reverted and moves nothing.
    const zeroDeposit = await mined(
      deposit(user, [ref, copm, amount, fee, zeroAddress, feeWallet], 300_000n),
    );
    expect(zeroDeposit.status).toBe("reverted");
    expect(await balanceOf(copm, user.address)).toBe(amount + fee);

    // The same user and arguments with the fields set right do go through, so each refusal above was its check.
    await expect(
      simulateDeposit(user, [ref, copm, amount, fee, depositAddress, feeWallet]),
    ).resolves.toBeDefined();
  });

  describe("with tokens that do not answer like SandboxToken", () => {
    /** Deploys `runtime` as a contract's code (creation code: copy it to memory and return it). */
    async function deployRuntime(deployer: Account, runtime: Hex): Promise<Address> {
      const length = toHex(size(runtime), { size: 1 });
      // PUSH1 len PUSH1 10 PUSH0 CODECOPY PUSH1 len PUSH0 RETURN, then the runtime at offset 10.
      const creation = concat(["0x60", length, "0x600a5f3960", length, "0x5ff3", runtime]);
      const receipt = await mined(
        sandboxWalletClient(destination, deployer).sendTransaction({ data: creation }),
      );
      if (!receipt.contractAddress) throw new Error("no contract deployed");
      return getAddress(receipt.contractAddress);
    }

    it("accepts a transferFrom that returns nothing (like USDT) and refuses one that returns false or reverts bare", async () => {
      const user = await fundFreshWallet(destination);
      // STOP: every call succeeds with empty return data, as USDT's transferFrom does.
      const silent = await deployRuntime(user, "0x00");
      // PUSH1 32 PUSH0 RETURN: every call answers one zero word, an ABI-encoded `false`.
      const refusing = await deployRuntime(user, "0x60205ff3");
      // PUSH0 PUSH0 REVERT: every call reverts without a reason.
      const bare = await deployRuntime(user, "0x5f5ffd");
      const depositAddress = freshAddress();
      const feeWallet = freshAddress();
      const ref = payoutRef("odd tokens");

      const receipt = await mined(deposit(user, [ref, silent, 10n, 1n, depositAddress, feeWallet]));
      expect(receipt.status).toBe("success");
      const [event] = parseEventLogs({
        abi: payoutDepositorAbi,
        logs: receipt.logs,
        eventName: "PayoutDeposited",
      });
      expect(event?.args).toMatchObject({
        payoutRef: ref,
        payer: user.address,
        token: silent,
        amount: 10n,
        fee: 1n,
      });

      for (const token of [refusing, bare]) {
        expect(
          await revertReason(simulateDeposit(user, [ref, token, 10n, 1n, depositAddress, feeWallet])),
        ).toBe("PayoutDepositor: transfer failed");
      }
    });
  });

  it("pays the partner's fee in the same call as the deposit and the service's fee, or nothing at all", async () => {
    const token = addressOf(destination, "usdc");
    const depositor = addressOf(destination, "payoutDepositor");
    const [amount, fee, partnerFee] = [USDC("100"), USDC("1"), USDC("0.5")];
    const [depositAddress, feeWallet, partnerWallet] = [freshAddress(), freshAddress(), freshAddress()];
    const write = (user: Account, ref: Hex, gas?: bigint) =>
      sandboxWalletClient(destination, user).writeContract({
        address: depositor,
        abi: payoutDepositorAbi,
        functionName: "depositWithPartnerFee",
        args: [ref, token, amount, fee, depositAddress, feeWallet, partnerFee, partnerWallet],
        ...(gas === undefined ? {} : { gas }),
      });

    const user = await payer(token, amount + fee + partnerFee, amount + fee + partnerFee);
    const ref = payoutRef("partner");
    const receipt = await mined(write(user, ref));
    expect(receipt.status).toBe("success");
    const paid = parseEventLogs({ abi: payoutDepositorAbi, logs: receipt.logs, eventName: "PartnerFeePaid" });
    expect(paid.map((log) => log.args)).toEqual([
      { payoutRef: ref, partnerFeeWallet: partnerWallet, token, partnerFee },
    ]);
    expect(await balanceOf(token, partnerWallet)).toBe(partnerFee);
    expect(await balanceOf(token, depositAddress)).toBe(amount);
    expect(await balanceOf(token, feeWallet)).toBe(fee);

    // Approved for the deposit and the service's fee but not the partner's: nothing moves.
    const short = await payer(token, amount + fee + partnerFee, amount + fee);
    const before = await balanceOf(token, depositAddress);
    const reverted = await mined(write(short, payoutRef("partner-short"), 300_000n));
    expect(reverted.status).toBe("reverted");
    expect(await balanceOf(token, depositAddress)).toBe(before);
    expect(await balanceOf(token, short.address)).toBe(amount + fee + partnerFee);
  });
});
