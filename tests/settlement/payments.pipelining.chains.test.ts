import { asc, eq, inArray } from "drizzle-orm";
import { encodeFunctionData, type Hex, maxUint256, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import type { ConfiguredChain } from "../../lib/kernel/chain/registry";
import {
  ALLOWANCE_PURPOSE,
  type FaultInjector,
  type PaymentRequest,
  sendOnce,
} from "../../lib/settlement/payments";
import { settlementTransactions } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { placeOrder } from "../harness/burns";
import { quietContext } from "../harness/context";
import { enableBurnPlan } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

const MAX_IN_FLIGHT = 3;
const ALLOWANCE_PAYMENTS = 2;

class Crash extends Error {}

/**
 * The settlement account signs its next payment on a chain while earlier ones are still unmined
 * (issue 23): consecutive nonces, at most SETTLEMENT_MAX_IN_FLIGHT at once, allowances counted across
 * the payments in flight, and a crashed job's unsent transaction rebroadcast by whoever comes next.
 */
describe("the settlement account's transactions in flight", () => {
  let h: Harness;
  let tenant: Tenant;
  let chain: ConfiguredChain;
  let reader: PublicClient;
  beforeAll(async () => {
    h = await createHarness({
      chains: true,
      env: {
        SETTLEMENT_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT),
        SETTLEMENT_ALLOWANCE_PAYMENTS: String(ALLOWANCE_PAYMENTS),
      },
    });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
    const destination = h.deps.chains.byRole("destination");
    if (!destination) throw new Error("no destination chain");
    chain = destination;
    if (!h.network) throw new Error("no chains");
    reader = sandboxPublicClient(sandboxChainOf(h.network, "destination")) as PublicClient;
  }, 60_000);
  afterAll(() => h.close());
  afterEach(async () => {
    await rpc("evm_setAutomine", [true]);
    await mine(1);
  });

  const rpc = (method: string, params: unknown[] = []) =>
    reader.request({ method, params } as never) as Promise<unknown>;
  const mine = (blocks = 1) => rpc("hardhat_mine", [`0x${blocks.toString(16)}`]);
  const signer = () => {
    const account = h.deps.settlement.accountSigner;
    if (!account) throw new Error("no settlement signer");
    return account;
  };

  /** One order's payment on the destination chain; `request` is what it sends. */
  async function payment(request: PaymentRequest, faults?: FaultInjector) {
    const { orderId } = await placeOrder(h, tenant);
    const pay = () =>
      sendOnce(
        { ...quietContext(h), ...(faults ? { faults } : {}) },
        { orderId, purpose: "delivery", chain, account: signer(), prepare: async () => request },
      );
    return { orderId, pay };
  }
  const fresh = () => privateKeyToAccount(generatePrivateKey()).address;
  const recorded = (orderIds: string[]) =>
    h.database.db
      .select()
      .from(settlementTransactions)
      .where(inArray(settlementTransactions.orderId, orderIds))
      .orderBy(asc(settlementTransactions.nonce));

  it("signs and broadcasts the next payments while earlier ones are unmined, at consecutive nonces, up to SETTLEMENT_MAX_IN_FLIGHT", async () => {
    const payments = await Promise.all(
      Array.from({ length: MAX_IN_FLIGHT + 1 }, (_, i) =>
        payment({ to: fresh(), data: "0x", value: 1_000n + BigInt(i) }),
      ),
    );
    const start = await reader.getTransactionCount({ address: signer().address, blockTag: "pending" });
    await rpc("evm_setAutomine", [false]);
    for (const { pay } of payments.slice(0, MAX_IN_FLIGHT)) {
      expect(await pay()).toEqual({ state: "pending", reason: "not mined yet" });
    }
    const last = payments[MAX_IN_FLIGHT];
    if (!last) throw new Error("no last payment");
    expect(await last.pay()).toEqual({
      state: "pending",
      reason: "queued behind the account's earlier transactions",
    });
    const inFlight = await recorded(payments.map((p) => p.orderId));
    expect(inFlight.map((row) => [row.nonce, row.status])).toEqual(
      Array.from({ length: MAX_IN_FLIGHT }, (_, i) => [start + i, "sent"]),
    );
    // Every one of them is in the node's pool, not waiting for the one before to be mined.
    for (const row of inFlight)
      expect((await reader.getTransaction({ hash: row.hash as Hex })).nonce).toBe(row.nonce);

    await mine(1);
    for (const { pay } of payments.slice(0, MAX_IN_FLIGHT))
      expect(await pay()).toMatchObject({ state: "success" });
    expect(await last.pay()).toEqual({ state: "pending", reason: "not mined yet" });
    await mine(1);
    expect(await last.pay()).toMatchObject({ state: "success" });
    const all = await recorded(payments.map((p) => p.orderId));
    expect(all.map((row) => row.nonce)).toEqual(
      Array.from({ length: MAX_IN_FLIGHT + 1 }, (_, i) => start + i),
    );
  });

  it("broadcasts a crashed job's recorded, unsent transaction when the next payment looks, so the later nonces are not held up", async () => {
    const crashAfterRecord: FaultInjector = {
      at(point) {
        if (point === "after-record") throw new Crash("crash after-record");
      },
    };
    const crashed = await payment({ to: fresh(), data: "0x", value: 7n }, crashAfterRecord);
    const next = await payment({ to: fresh(), data: "0x", value: 8n });
    await rpc("evm_setAutomine", [false]);
    await expect(crashed.pay()).rejects.toBeInstanceOf(Crash);
    const [unsent] = await recorded([crashed.orderId]);
    if (!unsent) throw new Error("nothing recorded");
    expect(unsent.status).toBe("signed");
    expect(await reader.getTransaction({ hash: unsent.hash as Hex }).catch(() => undefined)).toBeUndefined();

    // Another order's payment watches the oldest unmined nonce first: it sends the crashed job's bytes.
    expect(await next.pay()).toEqual({ state: "pending", reason: "not mined yet" });
    expect((await reader.getTransaction({ hash: unsent.hash as Hex })).nonce).toBe(unsent.nonce);
    const [after] = await recorded([next.orderId]);
    expect(after?.nonce).toBe(unsent.nonce + 1);
    await mine(1);
    expect(await next.pay()).toMatchObject({ state: "success" });
    // The crashed order's next look finds its payment mined: paid once, nothing signed again.
    expect(await crashed.pay()).toMatchObject({ state: "success", hash: unsent.hash });
    expect((await recorded([crashed.orderId])).map((row) => row.status)).toEqual(["success"]);
  });

  it("counts what the payments in flight will spend of an allowance: a payment the chain's allowance alone would let through tops it up first, signed behind the spends in flight", async () => {
    const token = chain.contracts.copm;
    if (!token) throw new Error("no COPm on the destination chain");
    const spender = fresh();
    const amount = 100n;
    // The allowance is only counted here; what the payment sends does not spend it.
    const spending = () =>
      payment({ to: fresh(), data: "0x", value: 1n, allowance: { token, spender, amount } });
    const allowance = () =>
      reader.readContract({
        address: token,
        abi: erc20Abi,
        functionName: "allowance",
        args: [signer().address, spender],
      });
    const approvals = async () =>
      (
        await h.database.db
          .select()
          .from(settlementTransactions)
          .where(eq(settlementTransactions.purpose, ALLOWANCE_PURPOSE))
      ).filter(
        (row) =>
          row.request?.to.toLowerCase() === token.toLowerCase() &&
          row.request.data.includes(spender.slice(2).toLowerCase()),
      );

    const [first, second, third] = [await spending(), await spending(), await spending()];
    const other = await payment({ to: fresh(), data: "0x", value: 2n });
    await rpc("evm_setAutomine", [false]);
    // Another payment in flight does not hold the top-up up: it has a lower nonce and spends nothing of it.
    expect(await other.pay()).toEqual({ state: "pending", reason: "not mined yet" });
    expect(await first.pay()).toEqual({ state: "pending", reason: "not mined yet" });
    const [approval] = await approvals();
    expect(approval?.status).toBe("sent");
    const [otherRow] = await recorded([other.orderId]);
    expect(approval?.nonce).toBe((otherRow?.nonce ?? -2) + 1);
    await mine(1);
    expect(await other.pay()).toMatchObject({ state: "success" });
    expect(await allowance()).toBe(amount * BigInt(ALLOWANCE_PAYMENTS));

    // The top-up covers ALLOWANCE_PAYMENTS (2) payments of this size.
    expect(await first.pay()).toEqual({ state: "pending", reason: "not mined yet" });
    expect(await second.pay()).toEqual({ state: "pending", reason: "not mined yet" });
    // The chain still shows 200 allowed, but the two in flight will spend all of it: the third
    // payment tops the allowance up first, behind them (their lower nonces run before it).
    expect(await allowance()).toBe(amount * BigInt(ALLOWANCE_PAYMENTS));
    expect(await third.pay()).toEqual({ state: "pending", reason: "not mined yet" });
    expect(await recorded([third.orderId])).toHaveLength(0);
    const topUps = await approvals();
    expect(topUps).toHaveLength(2);
    const inFlight = await recorded([first.orderId, second.orderId]);
    expect(inFlight.map((row) => row.request?.allowance)).toEqual([
      { token, spender, amount: "100" },
      { token, spender, amount: "100" },
    ]);
    expect(Math.max(...topUps.map((row) => row.nonce))).toBeGreaterThan(
      Math.max(...inFlight.map((row) => row.nonce)),
    );
    await mine(1);
    expect(await third.pay()).toEqual({ state: "pending", reason: "not mined yet" });
    await mine(1);
    for (const { pay } of [first, second, third]) expect(await pay()).toMatchObject({ state: "success" });
    expect(await approvals()).toHaveLength(2);
  });

  it("pays one at a time the payments that name the same serialWith key (a Mento pool's swaps), while others pipeline", async () => {
    const pool = "mento:test-pool";
    const [first, second] = [
      await payment({ to: fresh(), data: "0x", value: 4n, serialWith: pool }),
      await payment({ to: fresh(), data: "0x", value: 5n, serialWith: pool }),
    ];
    const other = await payment({ to: fresh(), data: "0x", value: 6n });
    await rpc("evm_setAutomine", [false]);
    expect(await first.pay()).toEqual({ state: "pending", reason: "not mined yet" });
    expect(await second.pay()).toEqual({
      state: "pending",
      reason: "queued behind the account's earlier transactions",
    });
    expect(await other.pay()).toEqual({ state: "pending", reason: "not mined yet" });
    await mine(1);
    // Mined: its effect is in the chain's state, so the next one is priced on it, confirmed or not.
    expect(await second.pay()).toEqual({ state: "pending", reason: "not mined yet" });
    await mine(1);
    for (const { pay } of [first, second, other]) expect(await pay()).toMatchObject({ state: "success" });
  });

  it("waits, rather than refuses, a payment whose estimate fails while earlier ones are in flight, and refuses it once nothing is", async () => {
    const token = chain.contracts.copm;
    if (!token) throw new Error("no COPm on the destination chain");
    const overdraw: PaymentRequest = {
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [fresh(), maxUint256] }),
    };
    const earlier = await payment({ to: fresh(), data: "0x", value: 3n });
    const failing = await payment(overdraw);
    await rpc("evm_setAutomine", [false]);
    expect(await earlier.pay()).toEqual({ state: "pending", reason: "not mined yet" });
    expect(await failing.pay()).toEqual({
      state: "pending",
      reason: "queued behind the account's earlier transactions",
    });
    await mine(1);
    expect(await earlier.pay()).toMatchObject({ state: "success" });
    expect(await failing.pay()).toMatchObject({ state: "refused", purpose: "delivery" });
    expect(await recorded([failing.orderId])).toHaveLength(0);
  });
});

describe("the settlement account's transactions in flight, with two confirmations", () => {
  let h: Harness;
  let tenant: Tenant;
  let chain: ConfiguredChain;
  beforeAll(async () => {
    h = await createHarness({
      chains: true,
      confirmations: { destination: 2 },
      env: { SETTLEMENT_ALLOWANCE_PAYMENTS: String(ALLOWANCE_PAYMENTS) },
    });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
    const destination = h.deps.chains.byRole("destination");
    if (!destination) throw new Error("no destination chain");
    chain = destination;
  }, 60_000);
  afterAll(() => h.close());

  it("no longer counts against the allowance a spend the chain has mined, though short of its confirmations: the allowance the chain shows already paid it", async () => {
    const token = chain.contracts.copm;
    const account = h.deps.settlement.accountSigner;
    if (!token || !account) throw new Error("no COPm or no settlement signer");
    const spender = privateKeyToAccount(generatePrivateKey()).address;
    const pays = await Promise.all(
      [1n, 2n, 3n].map(async (value) => {
        const { orderId } = await placeOrder(h, tenant);
        return () =>
          sendOnce(quietContext(h), {
            orderId,
            purpose: "delivery",
            chain,
            account,
            prepare: async () => ({
              to: privateKeyToAccount(generatePrivateKey()).address,
              data: "0x",
              value,
              allowance: { token, spender, amount: 100n },
            }),
          });
      }),
    );
    const [first, second, third] = pays as [
      () => ReturnType<typeof sendOnce>,
      () => ReturnType<typeof sendOnce>,
      () => ReturnType<typeof sendOnce>,
    ];
    const approvals = async () =>
      (
        await h.database.db
          .select()
          .from(settlementTransactions)
          .where(eq(settlementTransactions.purpose, ALLOWANCE_PURPOSE))
      ).filter((row) => row.request?.data.includes(spender.slice(2).toLowerCase()));
    const reader = sandboxPublicClient(sandboxChainOf(h.network as never, "destination")) as PublicClient;
    const rpc = (method: string, params: unknown[] = []) => reader.request({ method, params } as never);
    // The top-up (200) is mined as it is sent, then confirmed.
    expect(await first()).toMatchObject({ state: "pending" });
    await rpc("hardhat_mine", ["0x1"]);
    await rpc("evm_setAutomine", [false]);
    try {
      expect(await first()).toEqual({ state: "pending", reason: "not mined yet" });
      expect(await second()).toEqual({ state: "pending", reason: "not mined yet" });
      // Both spends mined in one block: one confirmation of two, still recorded as sent.
      await rpc("hardhat_mine", ["0x1"]);
      // Counted again, they would leave nothing of the 200 for this one and need a second top-up.
      expect(await third()).toEqual({ state: "pending", reason: "not mined yet" });
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    expect(await approvals()).toHaveLength(1);
  });
});
