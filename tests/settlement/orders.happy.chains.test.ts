import {
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  parseEventLogs,
  verifyTypedData,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf } from "../../dev/chains";
import { LOCAL_BURN_PLAN_SIGNER_KEY, LOCAL_PLAN_SIGNER, localSettlementVars } from "../../dev/local-defaults";
import { route as createOrderRoute } from "../../functions/settlement/create-order";
import { route as createQuoteRoute } from "../../functions/settlement/create-quote";
import { route as getOrder } from "../../functions/settlement/get-order";
import { FINALITY_STANDARD, tokenMessengerV2Abi } from "../../lib/kernel/chain/abis";
import { addressToBytes32, orderHookData } from "../../lib/kernel/chain/forwarding";
import { viemChainOf } from "../../lib/kernel/chain/viem-chain";
import { parseAmount } from "../../lib/kernel/money";
import { BURN_PLAN_TYPES, type BurnPlan, signBurnPlan } from "../../lib/settlement/burns/plan";
import { verifyBurnPlan } from "../../sdk/src";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { createOrder, createQuote, enableBurnPlan, partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

describe("settlement orders", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
    tenant = await createTenant(h);
  }, 60_000);
  afterAll(() => h.close());

  it("creates an order in CREATED with the quote's terms and a pending burn plan", async () => {
    const quote = await createQuote(h, tenant);
    const response = await createOrder(h, tenant, quote.quoteId, "key-happy-1", { reference: "invoice-77" });
    const order = await bodyOf(response, createOrderRoute, 201);
    expect(order).toMatchObject({
      status: "CREATED",
      health: "HEALTHY",
      fundsStatus: "IN_USER_WALLET",
      reference: "invoice-77",
      quote,
      execution: {
        chain: "Sandbox Source",
        chainId: 31331,
        estimatedUserConfirmations: 1,
        mode: "pending_burn_plan",
      },
    });
    expect(order.orderId).toMatch(/^ord_/);
    expect(order.execution.burnPlan).toBeUndefined();
  });

  it("answers a retry with the same key and quote with the same status and the same bytes", async () => {
    const quote = await createQuote(h, tenant);
    const first = await createOrder(h, tenant, quote.quoteId, "key-retry-1");
    const firstText = await first.text();
    h.clock.advance(10 * 60_000); // long after the quote expired: a replay does not look at expiry
    for (let i = 0; i < 3; i++) {
      const again = await createOrder(h, tenant, quote.quoteId, "key-retry-1");
      expect(again.status).toBe(201);
      expect(await again.text()).toBe(firstText);
    }
  });

  it("reads the order back with its quote and a timeline that starts with its creation", async () => {
    const quote = await createQuote(h, tenant);
    const order = await bodyOf(
      await createOrder(h, tenant, quote.quoteId, "key-read-1"),
      createOrderRoute,
      201,
    );
    const response = await partnerRequest(h, tenant, `/api/integrations/settlements/orders/${order.orderId}`);
    const read = await bodyOf(response, getOrder, 200);
    expect(read).toMatchObject({ orderId: order.orderId, status: "CREATED", quote, burnTxHash: null });
    expect(read.timeline).toEqual([
      expect.objectContaining({
        kind: "ORDER_CREATED",
        status: "CREATED",
        fundsStatus: "IN_USER_WALLET",
        txHash: null,
      }),
    ]);
  });
});

describe("the signed burn plan", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
  }, 60_000);
  afterAll(() => h.close());

  it("is signed by the service, verifies with viem, and its steps succeed when a funded wallet signs them", async () => {
    const network = h.network;
    if (!network) throw new Error("no chains");
    const source = sandboxChainOf(network, "source");
    const user = privateKeyToAccount(generatePrivateKey());

    // Fund the user's wallet the way a partner would: the faucet.
    const faucet = await partnerRequest(h, tenant, "/api/integrations/sandbox/faucet", {
      method: "POST",
      body: { address: user.address, chainRole: "source", token: "USDC", amount: "150" },
    });
    expect(faucet.status).toBe(200);

    const quoteResponse = await partnerRequest(h, tenant, "/api/integrations/settlements/quotes", {
      method: "POST",
      body: { sendAmountUsdc: "120", sourceAddress: user.address, destinationAddress: user.address },
    });
    const quote = await bodyOf(quoteResponse, createQuoteRoute, 201);
    const order = await bodyOf(
      await createOrder(h, tenant, quote.quoteId, "key-plan-1"),
      createOrderRoute,
      201,
    );
    expect(order.execution.mode).toBe("signed_burn_plan");
    const plan = order.execution.burnPlan as BurnPlan;
    expect(plan.steps.map((s) => s.type)).toEqual(["approve", "depositForBurnWithHook"]);
    expect(plan.signer).toBe(privateKeyToAccount(LOCAL_BURN_PLAN_SIGNER_KEY).address);

    // An integrator's check, with viem alone.
    const message = {
      orderId: order.orderId,
      quoteId: quote.quoteId,
      depositor: user.address,
      steps: plan.steps.map((s) => ({
        stepType: s.type,
        chainId: BigInt(s.chainId),
        to: s.to,
        data: s.data,
        value: BigInt(s.value),
      })),
    };
    expect(
      await verifyTypedData({
        address: plan.signer,
        domain: plan.eip712.domain,
        types: BURN_PLAN_TYPES,
        primaryType: "BurnPlan",
        message,
        signature: plan.signature,
      }),
    ).toBe(true);
    // A plan changed in any way no longer verifies.
    const tampered = { ...plan, steps: [plan.steps[0], { ...plan.steps[1], to: user.address }] } as BurnPlan;
    expect(
      await verifyBurnPlan({
        orderId: order.orderId,
        quoteId: quote.quoteId,
        depositor: user.address,
        expectedSigner: LOCAL_PLAN_SIGNER,
        plan: tampered,
      }),
    ).toBe(false);
    expect(
      await verifyBurnPlan({
        orderId: order.orderId,
        quoteId: quote.quoteId,
        depositor: user.address,
        expectedSigner: LOCAL_PLAN_SIGNER,
        plan,
      }),
    ).toBe(true);
    // A plan signed by anyone else, naming themselves as signer, does not verify either.
    const forger = privateKeyToAccount(generatePrivateKey());
    const forged = await signBurnPlan(forger, {
      orderId: order.orderId,
      quoteId: quote.quoteId,
      depositor: user.address,
      chainId: plan.steps[0]?.chainId ?? 0,
      steps: tampered.steps,
    });
    expect(forged.signer).toBe(forger.address);
    expect(
      await verifyBurnPlan({
        orderId: order.orderId,
        quoteId: quote.quoteId,
        depositor: user.address,
        expectedSigner: LOCAL_PLAN_SIGNER,
        plan: forged,
      }),
    ).toBe(false);

    // The user signs the steps in order on the source chain.
    const chain = viemChainOf(source);
    const wallet = createWalletClient({ account: user, chain, transport: http(source.rpcUrl) });
    const reader = createPublicClient({ chain, transport: http(source.rpcUrl) });
    let burnReceipt: Awaited<ReturnType<typeof reader.waitForTransactionReceipt>> | undefined;
    for (const step of plan.steps) {
      expect(step.chainId).toBe(source.chainId);
      const hash = await wallet.sendTransaction({
        to: step.to,
        data: step.data as Hex,
        value: BigInt(step.value),
      });
      burnReceipt = await reader.waitForTransactionReceipt({ hash });
      expect(burnReceipt.status).toBe("success");
    }
    const usdcUnits = (text: string) => {
      const parsed = parseAmount(text, 6);
      if (!parsed.ok) throw new Error(`not an amount: ${text}`);
      return parsed.units;
    };
    const [burn] = parseEventLogs({
      abi: tokenMessengerV2Abi,
      eventName: "DepositForBurn",
      logs: burnReceipt?.logs ?? [],
    });
    expect(burn?.args).toMatchObject({
      burnToken: source.contracts.usdc,
      amount: usdcUnits(quote.totalDebitUsdc),
      depositor: user.address,
      destinationDomain: 6,
      mintRecipient: addressToBytes32(localSettlementVars().SETTLEMENT_ACCOUNT_ADDRESS as Hex),
      maxFee: usdcUnits(quote.transferUpfrontFeeUsdc),
      minFinalityThreshold: FINALITY_STANDARD,
      hookData: orderHookData(order.orderId),
    });
  });
});
