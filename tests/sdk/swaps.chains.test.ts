import { encodeFunctionData, type Hex, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkSwapTransaction, type PreparedSwap } from "../../sdk/src";
import { createHarness, type Harness } from "../harness/app";
import { anyAddress, destinationOf, prepareSwap, tokenAddress, unitsOf } from "../harness/swaps";
import { createTenant, type Tenant } from "../harness/tenants";

/** The SDK's check of a prepared swap, on real preparations of the service and tampered copies. */
describe("the SDK's swap transaction check", () => {
  let h: Harness;
  let tenant: Tenant;
  let twoHops: PreparedSwap;
  let oneHop: PreparedSwap;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
    tenant = await createTenant(h);
    const wallet = anyAddress();
    twoHops = (await prepareSwap(h, tenant, {
      wallet,
      tokenIn: "USDT",
      tokenOut: "COPm",
      amountIn: unitsOf("USDT", "25").toString(),
    })) as unknown as PreparedSwap;
    oneHop = (await prepareSwap(h, tenant, {
      wallet,
      tokenIn: "USDm",
      tokenOut: "COPm",
      amountIn: unitsOf("USDm", "10").toString(),
      slippageBps: 100,
    })) as unknown as PreparedSwap;
  }, 60_000);
  afterAll(() => h.close());

  /** What the wallet's app knows of the chain on its own: its id, Mento's Broker and router. */
  const known = () => {
    const { chainId, contracts } = destinationOf(h);
    return { chainId, targets: [contracts.broker, contracts.mentoRouter] as Hex[] };
  };
  const usdt = () => tokenAddress(h, "USDT");
  const copm = () => tokenAddress(h, "COPm");
  const expectTwoHops = () => ({
    ...known(),
    tokenIn: usdt(),
    tokenOut: copm(),
    amountIn: unitsOf("USDT", "25"),
  });
  const expectOneHop = (maxSlippageBps?: number) => ({
    ...known(),
    tokenIn: tokenAddress(h, "USDm"),
    tokenOut: copm(),
    amountIn: unitsOf("USDm", "10"),
    ...(maxSlippageBps === undefined ? {} : { maxSlippageBps }),
  });
  const tamper = (prepared: PreparedSwap, change: (copy: PreparedSwap) => void) => {
    const copy = structuredClone(prepared);
    change(copy);
    return copy;
  };

  it("finds nothing wrong with what the service prepared, through the router or the Broker", () => {
    expect(twoHops.quote.path).toHaveLength(2);
    expect(twoHops.approval).toBeDefined();
    expect(checkSwapTransaction(twoHops, expectTwoHops())).toEqual([]);
    expect(oneHop.quote.path).toHaveLength(1);
    expect(checkSwapTransaction(oneHop, expectOneHop(100))).toEqual([]);
  });

  it("finds another intent's commitment", () => {
    const other = tamper(twoHops, (copy) => {
      copy.intentId = "swp_someone_else";
    });
    expect(checkSwapTransaction(other, expectTwoHops())).toContain(
      "the calldata does not end with this intent's commitment",
    );
  });

  it("finds an amount, a token or a minimum other than asked", () => {
    expect(
      checkSwapTransaction(twoHops, { ...expectTwoHops(), amountIn: unitsOf("USDT", "24") }).join(),
    ).toMatch(/not 24000000/);
    expect(checkSwapTransaction(twoHops, { ...expectTwoHops(), tokenOut: usdt() })).toContain(
      "the path does not lead from tokenIn to tokenOut",
    );
    // A minimum 1% under the expected amount, for a wallet that accepts 0.5%.
    expect(checkSwapTransaction(oneHop, expectOneHop(50)).join()).toMatch(/below the accepted/);
    // The answer's own expected amount is no evidence: a wallet with its own price says so.
    const ownFloor = BigInt(oneHop.quote.minAmountOut) + 1n;
    expect(checkSwapTransaction(oneHop, { ...expectOneHop(100), minAmountOut: ownFloor }).join()).toMatch(
      /below your own/,
    );
  });

  it("finds a calldata whose minimum was lowered after the quote", () => {
    const loosened = tamper(oneHop, (copy) => {
      const calldata = copy.transaction.calldata;
      const body = calldata.slice(0, -64);
      const commitment = calldata.slice(-64);
      copy.transaction.calldata = `${body.slice(0, -64)}${"0".repeat(64)}${commitment}`;
    });
    expect(checkSwapTransaction(loosened, expectOneHop()).join()).toMatch(/minimum 0 is not the quote's/);
  });

  it("finds an approval for another spender or amount, a foreign target and native value", () => {
    const spender = anyAddress();
    const approveAbi = parseAbi(["function approve(address spender, uint256 amount) returns (bool)"]);
    const hijacked = tamper(twoHops, (copy) => {
      if (!copy.approval) throw new Error("no approval");
      copy.approval.calldata = encodeFunctionData({
        abi: approveAbi,
        functionName: "approve",
        args: [spender, 2n ** 255n],
      });
    });
    const problems = checkSwapTransaction(hijacked, expectTwoHops());
    expect(problems).toContain("the approval names another spender");
    expect(problems.join()).toMatch(/the approval allows/);
    expect(checkSwapTransaction(twoHops, { ...expectTwoHops(), targets: [spender] }).join()).toMatch(
      /not a known Broker or router/,
    );
    const paying = tamper(twoHops, (copy) => {
      (copy.transaction as { value: string }).value = "1";
    });
    expect(checkSwapTransaction(paying, expectTwoHops())).toContain("the transaction sends native value");
  });

  it("finds a target and an approval both moved to another contract, and reads a malformed answer as a problem", () => {
    const attacker = anyAddress();
    const approveAbi = parseAbi(["function approve(address spender, uint256 amount) returns (bool)"]);
    const moved = tamper(twoHops, (copy) => {
      if (!copy.approval) throw new Error("no approval");
      copy.transaction.target = attacker;
      copy.approval.calldata = encodeFunctionData({
        abi: approveAbi,
        functionName: "approve",
        args: [attacker, unitsOf("USDT", "25")],
      });
    });
    const problems = checkSwapTransaction(moved, expectTwoHops());
    expect(problems.join()).toMatch(/not a known Broker or router/);
    expect(problems).toContain("the approval names another spender");
    const malformed = tamper(twoHops, (copy) => {
      copy.transaction.amount = "1e6";
    });
    expect(checkSwapTransaction(malformed, expectTwoHops()).join()).toMatch(/cannot be read/);
  });
});
