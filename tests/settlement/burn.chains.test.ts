import { type Hex, keccak256, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  compileSandboxContracts,
  sandboxChainOf,
  sandboxOperator,
  sandboxTokenAbi,
  sandboxTokenMessengerV2Abi,
  sandboxWalletClient,
} from "../../dev/chains";
import { route as createOrderRoute } from "../../functions/settlement/create-order";
import { route as submitBurnRoute } from "../../functions/settlement/submit-burn";
import { FORWARDING_HOOK_DATA, orderHookData } from "../../lib/kernel/chain/forwarding";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { burnWith, clientsOn, placeOrder, sendPlan, sourceOf, submitBurn } from "../harness/burns";
import { copmFor, createOrder, enableBurnPlan, readOrder } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

describe("burn submission", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
  }, 60_000);
  afterAll(() => h.close());

  const expectInvalid = async (response: Response, check: RegExp) => {
    expect(response.status).toBe(400);
    const { body } = await errorOf(response);
    expect(body.error.code).toBe("INVALID_BURN");
    expect(body.error.message).toMatch(check);
  };

  it("verifies the burn of the signed plan, records it and shows it in the timeline", async () => {
    const placed = await placeOrder(h, tenant);
    const hash = await sendPlan(h, placed);
    const response = await submitBurn(h, tenant, placed.orderId, hash);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      orderId: placed.orderId,
      status: "BURNED",
      health: "HEALTHY",
      fundsStatus: "BURNED_ON_SOURCE",
      burnTxHash: hash,
    });
    const again = await submitBurn(h, tenant, placed.orderId, hash.toUpperCase().replace("0X", "0x"));
    expect((await bodyOf(again, submitBurnRoute, 200)).status).toBe("BURNED");

    const read = await readOrder(h, tenant, placed.orderId);
    expect(read.burnTxHash).toBe(hash);
    expect(read.timeline.map((e) => e.kind)).toEqual(["ORDER_CREATED", "BURN_VERIFIED"]);
    expect(read.timeline[1]).toMatchObject({ chainId: sourceOf(h).chainId, txHash: hash });
  });

  it("refuses a hash another order already used, with BURN_ALREADY_USED", async () => {
    const first = await placeOrder(h, tenant);
    const hash = await sendPlan(h, first);
    expect((await submitBurn(h, tenant, first.orderId, hash)).status).toBe(200);
    const second = await placeOrder(h, tenant, first.user);
    const response = await submitBurn(h, tenant, second.orderId, hash);
    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe("BURN_ALREADY_USED");
  });

  it("answers another organization's used burn as it answers a burn nobody used: INVALID_BURN, never BURN_ALREADY_USED (issue 37, finding 1)", async () => {
    const stranger = await createTenant(h, "Stranger");
    await enableBurnPlan(h, stranger);
    const first = await placeOrder(h, tenant);
    const used = await sendPlan(h, first);
    expect((await submitBurn(h, tenant, first.orderId, used)).status).toBe(200);
    // The same kind of burn, of an order of this organization, that nobody reported yet.
    const unused = await placeOrder(h, tenant, first.user);
    const unusedHash = await sendPlan(h, unused);
    const theirs = await placeOrder(h, stranger, first.user);
    const onUsed = await errorOf(await submitBurn(h, stranger, theirs.orderId, used), 400);
    const onUnused = await errorOf(await submitBurn(h, stranger, theirs.orderId, unusedHash), 400);
    expect(onUsed.code).toBe("INVALID_BURN");
    // Indistinguishable: the same code and the same words, the check that failed being the commitment.
    expect(onUsed.message).toBe(onUnused.message);
    expect(onUsed.message).toContain("hookData (it commits to another order)");
    expect((await readOrder(h, stranger, theirs.orderId)).status).toBe("CREATED");
  });

  it("refuses an unknown hash, and a hash from another chain, as not found on the source chain", async () => {
    const placed = await placeOrder(h, tenant);
    await expectInvalid(
      await submitBurn(h, tenant, placed.orderId, keccak256(toHex("nothing"))),
      /no transaction/,
    );
    if (!h.network) throw new Error("no chains");
    const intermediate = sandboxChainOf(h.network, "intermediate");
    const operator = sandboxWalletClient(intermediate, sandboxOperator);
    const elsewhere = await operator.sendTransaction({ to: placed.user.address, value: 1n });
    await expectInvalid(await submitBurn(h, tenant, placed.orderId, elsewhere), /no transaction/);
  });

  it("refuses a reverted transaction", async () => {
    const placed = await placeOrder(h, tenant);
    // maxFee >= amount reverts; an explicit gas limit skips estimation so the transaction is mined.
    const hash = await burnWith(h, placed, { maxFee: placed.totalDebit, gas: 500_000n });
    const { reader } = clientsOn(sourceOf(h), placed.user);
    expect((await reader.getTransactionReceipt({ hash })).status).toBe("reverted");
    await expectInvalid(await submitBurn(h, tenant, placed.orderId, hash), /reverted/);
  });

  it("names the check that failed for each wrong field, and leaves the order as it was", async () => {
    const placed = await placeOrder(h, tenant);
    const stranger = privateKeyToAccount(generatePrivateKey());
    const cases: Array<[string, () => Promise<Hex>, RegExp]> = [
      ["amount", () => burnWith(h, placed, { amount: placed.totalDebit - 1n }), /amount/],
      ["domain", () => burnWith(h, placed, { destinationDomain: 3 }), /destinationDomain/],
      ["recipient", () => burnWith(h, placed, { mintRecipient: placed.user.address }), /mintRecipient/],
      ["maxFee", () => burnWith(h, placed, { maxFee: placed.maxFee + 1n }), /maxFee/],
      // A lower maxFee would leave Circle's fee unpaid and the forward waiting: refused too.
      ["maxFee below the quote's", () => burnWith(h, placed, { maxFee: placed.maxFee - 1n }), /maxFee/],
      ["finality", () => burnWith(h, placed, { minFinalityThreshold: 1000 }), /minFinalityThreshold/],
      ["hook data", () => burnWith(h, placed, { hookData: "0x01" }), /hookData/],
      [
        "hook data without the order's commitment",
        () => burnWith(h, placed, { hookData: FORWARDING_HOOK_DATA }),
        /hookData \(it commits to no order\)/,
      ],
      [
        "hook data committing to another order",
        () => burnWith(h, placed, { hookData: orderHookData("ord_someone_else") }),
        /hookData \(it commits to another order\)/,
      ],
      [
        "depositor",
        async () => {
          const other = await placeOrder(h, tenant, stranger);
          return burnWith(h, { ...other, totalDebit: placed.totalDebit, maxFee: placed.maxFee }, {});
        },
        /depositor/,
      ],
    ];
    for (const [what, burn, check] of cases) {
      const hash = await burn();
      await expectInvalid(await submitBurn(h, tenant, placed.orderId, hash), check);
      const read = await readOrder(h, tenant, placed.orderId);
      expect(read, what).toMatchObject({ status: "CREATED", burnTxHash: null });
    }
  });

  it("refuses another organization's claim on a user's burn made with this order's plan, and this order then proceeds", async () => {
    // User U burns with organization A's signed plan.
    const placed = await placeOrder(h, tenant);
    const hash = await sendPlan(h, placed);
    // Organization B quotes the same amount from U to its own wallet, orders it and submits U's hash first.
    const rival = await createTenant(h);
    await enableBurnPlan(h, rival);
    const rivalWallet = privateKeyToAccount(generatePrivateKey()).address;
    const { data: quote } = await copmFor(h, rival).createSettlementQuote({
      body: { sendAmountUsdc: "50", sourceAddress: placed.user.address, destinationAddress: rivalWallet },
    });
    const rivalOrder = await bodyOf(
      await createOrder(h, rival, quote.quoteId, "rival-claim"),
      createOrderRoute,
      201,
    );
    await expectInvalid(
      await submitBurn(h, rival, rivalOrder.orderId, hash),
      /hookData \(it commits to another order\)/,
    );
    const rivalRead = await readOrder(h, rival, rivalOrder.orderId);
    expect(rivalRead).toMatchObject({ status: "CREATED", fundsStatus: "IN_USER_WALLET", burnTxHash: null });

    // A's order takes its burn and is carried to the user's destination.
    const response = await submitBurn(h, tenant, placed.orderId, hash);
    expect(response.status).toBe(200);
    const read = () => readOrder(h, tenant, placed.orderId);
    for (let poll = 0; poll < 20 && (await read()).status !== "DELIVERED"; poll++) {
      await h.jobs.drain();
      h.clock.advance(5_000);
    }
    const delivered = await read();
    expect(delivered.status).toBe("DELIVERED");
    expect(delivered.timeline.find((entry) => entry.kind === "BURN_VERIFIED")?.txHash).toBe(hash);
  });

  it("refuses any burn for an order created before the burn plan was enabled (pending_burn_plan)", async () => {
    const later = await createTenant(h);
    const placed = await placeOrder(h, later);
    expect(placed.plan).toBeUndefined();
    // The user burns exactly what the order would have asked, commitment included: still refused.
    const hash = await burnWith(h, placed, {});
    await expectInvalid(await submitBurn(h, later, placed.orderId, hash), /no burn plan/);
    const read = await readOrder(h, later, placed.orderId);
    expect(read).toMatchObject({ status: "CREATED", burnTxHash: null });
  });

  it("refuses a burn of another token with the check on burnToken", async () => {
    const placed = await placeOrder(h, tenant);
    const source = sourceOf(h);
    const compiled = await compileSandboxContracts();
    const operator = sandboxWalletClient(source, sandboxOperator);
    const { reader } = clientsOn(source, placed.user);
    const artifact = compiled.SandboxToken;
    if (!artifact) throw new Error("no SandboxToken artifact");
    const deployHash = await operator.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: ["Look-alike USDC", "USDC", 6],
    });
    const fake = (await reader.waitForTransactionReceipt({ hash: deployHash })).contractAddress as Hex;
    await reader.waitForTransactionReceipt({
      hash: await operator.writeContract({
        address: fake,
        abi: sandboxTokenAbi,
        functionName: "mint",
        args: [placed.user.address, placed.totalDebit],
      }),
    });
    await reader.waitForTransactionReceipt({
      hash: await operator.writeContract({
        address: source.contracts.tokenMessenger as Hex,
        abi: sandboxTokenMessengerV2Abi,
        functionName: "setMaxBurnAmountPerMessage",
        args: [fake, 10n ** 15n],
      }),
    });
    const hash = await burnWith(h, placed, { burnToken: fake });
    await expectInvalid(await submitBurn(h, tenant, placed.orderId, hash), /burnToken/);
  });

  it("refuses a malformed hash with INVALID_REQUEST and an unknown order with ORDER_NOT_FOUND", async () => {
    const placed = await placeOrder(h, tenant);
    const malformed = await submitBurn(h, tenant, placed.orderId, "0x1234");
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).code).toBe("INVALID_REQUEST");
    const missing = await submitBurn(h, tenant, "ord_00000000000000000000000000", keccak256(toHex("x")));
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).code).toBe("ORDER_NOT_FOUND");
  });
});

describe("burn confirmations", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true, sourceConfirmations: 3 });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
  }, 60_000);
  afterAll(() => h.close());

  it("answers BURN_PENDING_CONFIRMATIONS (retryable) until the burn has the order's confirmations", async () => {
    const placed = await placeOrder(h, tenant);
    const hash = await sendPlan(h, placed);
    const early = await submitBurn(h, tenant, placed.orderId, hash);
    expect(early.status).toBe(409);
    expect(early.headers.get("retry-after")).toBe("5");
    expect(await errorOf(early)).toMatchObject({
      code: "BURN_PENDING_CONFIRMATIONS",
      retryable: true,
    });
    const { reader } = clientsOn(sourceOf(h), placed.user);
    await reader.request({ method: "hardhat_mine" as never, params: ["0x2"] as never });
    const late = await submitBurn(h, tenant, placed.orderId, hash);
    expect(late.status).toBe(200);
  });
});
