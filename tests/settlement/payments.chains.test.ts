import { and, eq } from "drizzle-orm";
import { type Hex, type PublicClient, TransactionReceiptNotFoundError } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient, sandboxWalletClient } from "../../dev/chains";
import { LOCAL_SETTLEMENT_ACCOUNT_KEY } from "../../dev/local-defaults";
import type { ConfiguredChain } from "../../lib/kernel/chain/registry";
import { sendOnce } from "../../lib/settlement/payments";
import { settlementEvents, settlementOrders, settlementTransactions } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { enableBurnPlan } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

const DESTINATION_CONFIRMATIONS = 3;
const settlementAccount = privateKeyToAccount(LOCAL_SETTLEMENT_ACCOUNT_KEY);

describe("the settlement account's recorded transactions: nonces, replacement and finality", () => {
  let h: Harness;
  let tenant: Tenant;
  let chain: ConfiguredChain;
  let reader: PublicClient;
  beforeAll(async () => {
    h = await createHarness({ chains: true, confirmations: { destination: DESTINATION_CONFIRMATIONS } });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
    const destination = h.deps.chains.byRole("destination");
    if (!destination) throw new Error("no destination chain");
    chain = destination;
    if (!h.network) throw new Error("no chains");
    reader = sandboxPublicClient(sandboxChainOf(h.network, "destination")) as PublicClient;
  }, 60_000);
  afterAll(() => h.close());

  const ctx = () => quietContext(h);
  const rpc = (method: string, params: unknown[] = []) =>
    reader.request({ method, params } as never) as Promise<unknown>;
  const mine = (blocks = 1) => rpc("hardhat_mine", [`0x${blocks.toString(16)}`]);

  /** A payment of `value` wei from the settlement account to a fresh address, for one order. */
  async function payment(value: bigint) {
    const { orderId } = await placeOrder(h, tenant);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const signer = h.deps.settlement.accountSigner;
    if (!signer) throw new Error("no settlement signer");
    const pay = () =>
      sendOnce(ctx(), {
        orderId,
        purpose: "delivery",
        chain,
        account: signer,
        prepare: async () => ({ to, data: "0x", value }),
      });
    const versions = () =>
      h.database.db.select().from(settlementTransactions).where(eq(settlementTransactions.orderId, orderId));
    return { orderId, to, pay, versions };
  }

  /**
   * A route payment for a fresh order whose calldata, like an aggregator's quote, is valid for a
   * minute from each pricing; `prices` lists when it was priced.
   */
  async function quotedRoute() {
    const { orderId } = await placeOrder(h, tenant);
    const signer = h.deps.settlement.accountSigner;
    if (!signer) throw new Error("no settlement signer");
    const prices: Date[] = [];
    const pay = () =>
      sendOnce(ctx(), {
        orderId,
        purpose: "route",
        chain,
        account: signer,
        prepare: async () => {
          prices.push(h.clock.now());
          const to = privateKeyToAccount(generatePrivateKey()).address;
          return { to, data: "0x", value: 1n, validUntil: new Date(h.clock.now().getTime() + 60_000) };
        },
      });
    const versions = () =>
      h.database.db.select().from(settlementTransactions).where(eq(settlementTransactions.orderId, orderId));
    return { orderId, signer, prices, pay, versions };
  }

  it("re-broadcasts an unmined payment, replaces it with higher fees at the same nonce when it waits too long, and settles on the version mined", async () => {
    const { to, pay, versions } = await payment(1_000n);
    await rpc("evm_setAutomine", [false]);
    try {
      expect(await pay()).toMatchObject({ state: "pending" });
      const [first] = await versions();
      if (!first) throw new Error("nothing recorded");
      expect(first.status).toBe("sent");

      // The node forgets it: the next look sends the same bytes again.
      await rpc("hardhat_dropTransaction", [first.hash]);
      expect(await reader.getTransaction({ hash: first.hash as Hex }).catch(() => undefined)).toBeUndefined();
      expect(await pay()).toMatchObject({ state: "pending" });
      expect((await reader.getTransaction({ hash: first.hash as Hex })).nonce).toBe(first.nonce);

      // Past SETTLEMENT_REPLACE_AFTER_SECONDS: a second version, same nonce, both fees at least 10% up.
      h.clock.advance(h.deps.config.SETTLEMENT_REPLACE_AFTER_SECONDS * 1000);
      expect(await pay()).toMatchObject({ state: "pending" });
      const both = await versions();
      expect(both.map((v) => v.status).sort()).toEqual(["replaced", "sent"]);
      const replacement = both.find((v) => v.status === "sent");
      if (!replacement?.request || !first.request) throw new Error("no replacement");
      expect(replacement.nonce).toBe(first.nonce);
      expect(BigInt(replacement.request.maxFeePerGas) * 10n).toBeGreaterThanOrEqual(
        BigInt(first.request.maxFeePerGas) * 11n,
      );
      expect(BigInt(replacement.request.maxPriorityFeePerGas) * 10n).toBeGreaterThanOrEqual(
        BigInt(first.request.maxPriorityFeePerGas) * 11n,
      );

      await mine(DESTINATION_CONFIRMATIONS);
      expect(await pay()).toEqual({ state: "success", hash: replacement.hash, purpose: "delivery" });
      const settled = await versions();
      expect(Object.fromEntries(settled.map((v) => [v.hash, v.status]))).toEqual({
        [first.hash]: "dropped",
        [replacement.hash]: "success",
      });
      // Paid once.
      expect(await reader.getBalance({ address: to })).toBe(1_000n);
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
  });

  it("never signs again calldata past its validity (an aggregator's quote): a stale version is cancelled at its nonce, then the payment is priced and signed afresh", async () => {
    const { orderId, signer, prices, pay, versions } = await quotedRoute();
    await rpc("evm_setAutomine", [false]);
    try {
      expect(await pay()).toMatchObject({ state: "pending" });
      const [first] = await versions();
      if (!first?.request) throw new Error("nothing recorded");
      expect(first.request.validUntil).toBe(new Date((prices[0]?.getTime() ?? 0) + 60_000).toISOString());

      // Past both its validity and the replacement wait: not the same calldata with higher fees, but
      // a transfer of nothing to the account itself at the same nonce.
      h.clock.advance(h.deps.config.SETTLEMENT_REPLACE_AFTER_SECONDS * 1000);
      expect(await pay()).toMatchObject({ state: "pending" });
      const both = await versions();
      const cancel = both.find((version) => version.request?.cancels);
      expect(cancel).toMatchObject({ nonce: first.nonce, status: "sent" });
      expect(cancel?.request).toMatchObject({ to: signer.address, data: "0x", value: "0" });
      expect(both.find((version) => version.id === first.id)?.status).toBe("replaced");

      // The cancellation is mined: the stale route moved nothing, and the next look prices a fresh one.
      await mine(DESTINATION_CONFIRMATIONS);
      expect(await pay()).toMatchObject({ state: "pending", reason: expect.stringMatching(/cancelled/) });
      expect(await pay()).toMatchObject({ state: "pending" });
      expect(prices).toHaveLength(2);
      const after = await versions();
      expect(after.find((version) => version.id === first.id)?.status).toBe("dropped");
      expect(after.find((version) => version.id === cancel?.id)?.purpose).toBe(
        `route:cancelled:${cancel?.id}`,
      );
      const fresh = after.find((version) => version.purpose === "route" && version.status === "sent");
      expect(fresh?.nonce).toBe(first.nonce + 1);
      await mine(DESTINATION_CONFIRMATIONS);
      expect(await pay()).toEqual({ state: "success", hash: fresh?.hash, purpose: "route" });
      const resigned = await h.database.db
        .select()
        .from(settlementEvents)
        .where(and(eq(settlementEvents.orderId, orderId), eq(settlementEvents.kind, "PAYMENT_RESIGNED")));
      expect(resigned).toHaveLength(1);
      expect(String(resigned[0]?.detail?.reason)).toMatch(/quote expired/);
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
  });

  it("settles on a stale version the chain mined instead of its cancellation, though a look missed its receipt once: never priced and paid twice", async () => {
    const { prices, pay, versions } = await quotedRoute();
    await rpc("evm_setAutomine", [false]);
    const client = chain.client;
    const receipt = client.getTransactionReceipt;
    try {
      await pay();
      const [stale] = await versions();
      if (!stale) throw new Error("nothing recorded");
      h.clock.advance(h.deps.config.SETTLEMENT_REPLACE_AFTER_SECONDS * 1000);
      await pay();
      const cancel = (await versions()).find((version) => version.request?.cancels);
      if (!cancel) throw new Error("no cancellation");

      // The chain mines the stale version, not its cancellation (the node let the cancellation go).
      await rpc("hardhat_dropTransaction", [cancel.hash]);
      await rpc("eth_sendRawTransaction", [stale.raw]);
      await mine(DESTINATION_CONFIRMATIONS);
      // The next look reads the stale version's receipt once before it is there (a node behind the
      // others, or mined just after the read): its nonce is then taken, for good, by "another" transaction.
      let missed = false;
      client.getTransactionReceipt = (async (args: Parameters<typeof receipt>[0]) => {
        if (!missed && args.hash === stale.hash) {
          missed = true;
          throw new TransactionReceiptNotFoundError({ hash: stale.hash as Hex });
        }
        return receipt(args);
      }) as typeof receipt;

      expect(await pay()).toEqual({ state: "success", hash: stale.hash, purpose: "route" });
      expect(missed).toBe(true);
      expect(await pay()).toEqual({ state: "success", hash: stale.hash, purpose: "route" });
      expect(prices).toHaveLength(1);
      expect((await versions()).filter((version) => version.purpose === "route")).toHaveLength(2);
    } finally {
      client.getTransactionReceipt = receipt;
      await rpc("evm_setAutomine", [true]);
    }
  });

  it("replaces at once, with higher fees, a payment a node refuses to take back for its fees, instead of holding the account's queue", async () => {
    const { to, pay, versions } = await payment(7n);
    await rpc("evm_setAutomine", [false]);
    const client = chain.client;
    const broadcast = client.sendRawTransaction;
    try {
      expect(await pay()).toMatchObject({ state: "pending" });
      const [evicted] = await versions();
      if (!evicted) throw new Error("nothing recorded");
      // Fees rose: the node evicted the payment and refuses it again at its fees.
      await rpc("hardhat_dropTransaction", [evicted.hash]);
      client.sendRawTransaction = (async (args: Parameters<typeof broadcast>[0]) => {
        if (args.serializedTransaction === evicted.raw) throw new Error("transaction underpriced");
        return broadcast(args);
      }) as typeof broadcast;

      expect(await pay()).toMatchObject({
        state: "pending",
        reason: expect.stringMatching(/refused for its fees/),
      });
      const both = await versions();
      const bumped = both.find((version) => version.id !== evicted.id);
      expect(both.find((version) => version.id === evicted.id)?.status).toBe("replaced");
      expect(bumped).toMatchObject({ nonce: evicted.nonce, status: "sent" });
      expect(BigInt(bumped?.request?.maxFeePerGas ?? 0)).toBeGreaterThan(
        BigInt(evicted.request?.maxFeePerGas ?? 0),
      );
      expect(bumped?.request).toMatchObject({ to, value: "7" });

      await mine(DESTINATION_CONFIRMATIONS);
      expect(await pay()).toEqual({ state: "success", hash: bumped?.hash, purpose: "delivery" });
    } finally {
      client.sendRawTransaction = broadcast;
      await rpc("evm_setAutomine", [true]);
    }
  });

  it("prices again a payment whose calldata went stale before it was signed", async () => {
    const { orderId } = await placeOrder(h, tenant);
    const signer = h.deps.settlement.accountSigner;
    if (!signer) throw new Error("no settlement signer");
    let priced = 0;
    const outcome = await sendOnce(ctx(), {
      orderId,
      purpose: "route",
      chain,
      account: signer,
      prepare: async () => {
        priced += 1;
        return {
          to: signer.address,
          data: "0x",
          value: 0n,
          validUntil: new Date(h.clock.now().getTime() - 1),
        };
      },
    });
    expect(outcome).toEqual({
      state: "pending",
      reason: "its quote expired before it was signed; it is priced again",
    });
    expect(priced).toBe(1);
    expect(
      await h.database.db
        .select()
        .from(settlementTransactions)
        .where(eq(settlementTransactions.orderId, orderId)),
    ).toEqual([]);
  });

  it("re-signs a payment at a fresh nonce once its nonce went, for good, to another transaction, and says so on the timeline", async () => {
    const { orderId, to, pay, versions } = await payment(2_000n);
    await rpc("evm_setAutomine", [false]);
    let taken: { nonce: number; hash: string };
    try {
      expect(await pay()).toMatchObject({ state: "pending" });
      const [first] = await versions();
      if (!first) throw new Error("nothing recorded");
      taken = first;
      // The recorded transaction never reaches a block; another one of the account's takes its nonce.
      await rpc("hardhat_dropTransaction", [first.hash]);
      const wallet = sandboxWalletClient(
        sandboxChainOf(h.network as never, "destination"),
        settlementAccount,
      );
      await wallet.sendTransaction({ to: settlementAccount.address, value: 0n, nonce: first.nonce });
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    await mine(1);
    // Not final yet (1 of 3 confirmations): the old transaction could still come back; nothing is re-signed.
    expect(await pay()).toMatchObject({ state: "pending" });
    expect((await versions()).map((v) => v.status)).toEqual(["sent"]);

    await mine(DESTINATION_CONFIRMATIONS);
    expect(await pay()).toMatchObject({ state: "pending", reason: "re-signing at a fresh nonce" });
    const outcome = await pay();
    expect(outcome).toMatchObject({ state: "pending" });
    await mine(DESTINATION_CONFIRMATIONS);
    const settled = await pay();
    expect(settled).toMatchObject({ state: "success", purpose: "delivery" });
    const all = await versions();
    expect(all.map((v) => v.status).sort()).toEqual(["dropped", "success"]);
    const fresh = all.find((v) => v.status === "success");
    expect(fresh?.nonce).toBeGreaterThan(taken.nonce);
    expect(await reader.getBalance({ address: to })).toBe(2_000n);

    const [note] = await h.database.db
      .select()
      .from(settlementEvents)
      .where(and(eq(settlementEvents.kind, "PAYMENT_RESIGNED"), eq(settlementEvents.orderId, orderId)));
    expect(note).toMatchObject({
      orderId,
      detail: {
        purpose: "delivery",
        nonce: taken.nonce,
        droppedHashes: [taken.hash],
        reason: "its nonce was taken by another transaction",
      },
    });
  });

  it("counts a payment only with the chain's confirmations; a reorg that drops it sends the same transaction again instead of moving on", async () => {
    const { to, pay, versions } = await payment(3_000n);
    const snapshot = (await rpc("evm_snapshot")) as Hex;
    const first = await pay();
    expect(first).toMatchObject({
      state: "pending",
      reason: expect.stringMatching(/awaits 3 confirmations/),
    });
    const [recorded] = await versions();
    if (!recorded) throw new Error("nothing recorded");
    expect((await reader.getTransactionReceipt({ hash: recorded.hash as Hex })).status).toBe("success");

    // The block holding it is reorganised away before it is final.
    expect(await rpc("evm_revert", [snapshot])).toBe(true);
    expect(await reader.getBalance({ address: to })).toBe(0n);
    expect(await pay()).toMatchObject({ state: "pending" });
    // The same signed bytes went out again (no second payment): one record, mined anew.
    expect((await versions()).map((v) => [v.hash, v.status])).toEqual([[recorded.hash, "sent"]]);
    expect((await reader.getTransactionReceipt({ hash: recorded.hash as Hex })).status).toBe("success");

    await mine(DESTINATION_CONFIRMATIONS - 1);
    expect(await pay()).toEqual({ state: "success", hash: recorded.hash, purpose: "delivery" });
    expect(await reader.getBalance({ address: to })).toBe(3_000n);
  });

  it("keeps an order short of DELIVERED until its delivery has the destination chain's confirmations", async () => {
    const placed = await placeOrder(h, tenant);
    const burn = await sendPlan(h, placed);
    expect((await submitBurn(h, tenant, placed.orderId, burn)).status).toBe(200);
    const order = async () =>
      (await h.database.db.select().from(settlementOrders).where(eq(settlementOrders.id, placed.orderId)))[0];
    const delivery = async () =>
      (
        await h.database.db
          .select()
          .from(settlementTransactions)
          .where(
            and(
              eq(settlementTransactions.orderId, placed.orderId),
              eq(settlementTransactions.purpose, "delivery"),
            ),
          )
      )[0];
    // The earlier destination payments get their confirmations as blocks come; then the delivery is sent.
    for (let poll = 0; poll < 30 && !(await delivery()); poll++) {
      await h.jobs.drain();
      if (await delivery()) break;
      await mine(DESTINATION_CONFIRMATIONS);
      h.clock.advance(5_000);
    }
    const sent = await delivery();
    if (!sent) throw new Error("the delivery was never sent");
    expect((await reader.getTransactionReceipt({ hash: sent.hash as Hex })).status).toBe("success");
    for (let poll = 0; poll < 3; poll++) {
      h.clock.advance(5_000);
      await h.jobs.drain();
    }
    // Mined, one confirmation of three: COPm is on the way, not delivered.
    expect(await order()).toMatchObject({ status: "ROUTED", fundsStatus: "COPM_ON_DESTINATION" });

    await mine(DESTINATION_CONFIRMATIONS - 1);
    h.clock.advance(5_000);
    await h.jobs.drain();
    expect(await order()).toMatchObject({ status: "DELIVERED", fundsStatus: "DELIVERED_TO_DESTINATION" });
  });
});
