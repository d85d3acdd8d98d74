import { type Hex, isHex, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf } from "../../dev/chains";
import { LOCAL_BREB_FEE_WALLET, LOCAL_PLAN_SIGNER } from "../../dev/local-defaults";
import { route as confirmPayout } from "../../functions/payouts/confirm-payout";
import { route as createPayout } from "../../functions/payouts/create-payout";
import { route as getPayout } from "../../functions/payouts/get-payout";
import { route as getQuote } from "../../functions/payouts/get-quote";
import { route as listPayouts } from "../../functions/payouts/list-payouts";
import { route as listEvents } from "../../functions/webhooks/list-events";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { parseAmount } from "../../lib/kernel/money";
import { signPayoutPlan } from "../../lib/payouts/payout-plan";
import { planTransactions, verifyPayoutPlan } from "../../sdk/src";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { clientsOn } from "../harness/burns";
import { rememberWallet, sendCode, verifyCode } from "../harness/identity";
import { requestPayout } from "../harness/payouts";
import { partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

/** A hex string the answer carries, checked as such (its schema types it as a plain string). */
function hex(value: string): Hex {
  if (!isHex(value)) throw new Error(`not hex: ${value}`);
  return value;
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ chains: true, payouts: true });
}, 60_000);
afterAll(() => h.close());

const destination = () => {
  if (!h.network) throw new Error("no chains");
  return sandboxChainOf(h.network, "destination");
};

/** A tenant whose user proved an email and is KYC-approved (mock mode), with USDC and gas on the payout chain. */
async function approvedUser(tenant: Tenant) {
  const user = rememberWallet(privateKeyToAccount(generatePrivateKey()));
  await sendCode(h, tenant, "payer@example.com", user.address);
  expect((await verifyCode(h, tenant, "payer@example.com", "123456", user.address)).status).toBe(200);
  const faucet = await partnerRequest(h, tenant, "/api/integrations/sandbox/faucet", {
    method: "POST",
    body: { address: user.address, chainRole: "destination", token: "USDC", amount: "100" },
  });
  expect(faucet.status, await faucet.clone().text()).toBe(200);
  return user;
}

async function quote(tenant: Tenant, destinationCop = "100000", fromToken = "USDC") {
  const response = await partnerRequest(
    h,
    tenant,
    `/api/integrations/breb/quote?destinationCop=${destinationCop}&fromToken=${fromToken}`,
  );
  return bodyOf(response, getQuote, 200);
}

function create(tenant: Tenant, key: string, body: Record<string, unknown>) {
  return requestPayout(h, tenant, key, body);
}

const balanceOf = (token: Hex, holder: Hex) =>
  clientsOn(destination(), privateKeyToAccount(generatePrivateKey())).reader.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [holder],
  });

describe("a BRE-B payout from quote to completed", () => {
  it("quotes with the provider's rate, fetched once and then cached", async () => {
    const tenant = await createTenant(h);
    const first = await quote(tenant);
    expect(first).toMatchObject({
      sourceAmount: "25.944752",
      providerAmount: "25.687873",
      display: "1 USD = 3,912.45 COP",
      cached: false,
    });
    expect(first.fees.map((fee) => [fee.type, fee.amount])).toEqual([
      ["service", "0.256879"],
      ["provider_developer", "0.12844"],
    ]);
    expect((await quote(tenant)).cached).toBe(true);
    h.clock.advance(61_000);
    expect((await quote(tenant)).cached).toBe(false);
  });

  it("creates the payout with a signed deposit plan, replays it byte for byte, and completes it once the user deposits", async () => {
    const tenant = await createTenant(h);
    const user = await approvedUser(tenant);
    const priced = await quote(tenant);
    const body = {
      quoteId: priced.quoteId,
      userAddress: user.address,
      breBKey: "3001234567",
      accountOwnerName: "Ana  Pérez",
    };
    const created = await create(tenant, `payout-${priced.quoteId}`, body);
    const creation = await bodyOf(created.clone(), createPayout, 201);
    const text = await created.text();
    expect(creation.payout).toMatchObject({
      status: "awaiting_deposit",
      destination: { breBKey: "30••••••67" },
    });
    expect(creation.deposit.steps.map((step) => step.type)).toEqual(["approve", "deposit"]);
    expect(
      await verifyPayoutPlan({
        payoutId: creation.payout.payoutId,
        quoteId: priced.quoteId,
        depositor: user.address,
        expectedSigner: LOCAL_PLAN_SIGNER,
        plan: creation.deposit,
      }),
    ).toBe(true);
    // Steps rebuilt to pay someone else and signed by another key, naming itself, do not verify.
    const forger = privateKeyToAccount(generatePrivateKey());
    const forged = await signPayoutPlan(forger, {
      payoutId: creation.payout.payoutId,
      quoteId: priced.quoteId,
      depositor: user.address,
      chainId: destination().chainId,
      steps: creation.deposit.steps.map((step) => ({ ...step, to: forger.address, data: hex(step.data) })),
    });
    expect(
      await verifyPayoutPlan({
        payoutId: creation.payout.payoutId,
        quoteId: priced.quoteId,
        depositor: user.address,
        expectedSigner: LOCAL_PLAN_SIGNER,
        plan: forged,
      }),
    ).toBe(false);
    expect(creation.deposit.feeWallet).toBe(LOCAL_BREB_FEE_WALLET);
    expect(creation.deposit.depositAddress).toBe(h.breb?.depositAddress);

    const replay = await create(tenant, `payout-${priced.quoteId}`, body);
    expect(replay.status).toBe(201);
    expect(await replay.text()).toBe(text);

    // The user sends the two steps as given.
    const { reader, wallet } = clientsOn(destination(), user);
    const token = hex(creation.deposit.tokenAddress);
    const depositAddress = hex(creation.deposit.depositAddress);
    const feeWallet = hex(creation.deposit.feeWallet);
    const before = {
      provider: await balanceOf(token, depositAddress),
      fees: await balanceOf(token, feeWallet),
    };
    let depositHash: Hex = "0x";
    for (const step of planTransactions(creation.deposit)) {
      depositHash = await wallet.sendTransaction({ to: step.to, data: step.data, value: step.value });
      expect((await reader.waitForTransactionReceipt({ hash: depositHash })).status).toBe("success");
    }
    const units = (text: string) => {
      const parsed = parseAmount(text, 6);
      if (!parsed.ok) throw new Error(text);
      return parsed.units;
    };
    expect((await balanceOf(token, depositAddress)) - before.provider).toBe(units(priced.providerAmount));
    expect((await balanceOf(token, feeWallet)) - before.fees).toBe(units(priced.fees[0]?.amount ?? "0"));
    const receipt = await reader.getTransactionReceipt({ hash: depositHash });
    expect(parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs })).toHaveLength(2);

    const payoutId = creation.payout.payoutId;
    const confirmed = await partnerRequest(h, tenant, `/api/integrations/breb/payouts/${payoutId}/confirm`, {
      method: "POST",
      body: { txHash: depositHash },
    });
    expect((await bodyOf(confirmed, confirmPayout, 200)).status).toBe("deposit_confirmed");
    // The same hash again answers the payout as it is.
    const again = await partnerRequest(h, tenant, `/api/integrations/breb/payouts/${payoutId}/confirm`, {
      method: "POST",
      body: { txHash: depositHash },
    });
    expect(again.status).toBe(200);

    await h.jobs.drain(); // the job hands the payout to the provider
    const read = async () =>
      bodyOf(await partnerRequest(h, tenant, `/api/integrations/breb/payouts/${payoutId}`), getPayout, 200);
    expect((await read()).status).toBe("processing");
    h.clock.advance(2_000);
    await h.breb?.settle(); // the provider completes and calls back, signed
    const completed = await read();
    expect(completed.status).toBe("completed");
    expect(completed.brebTransactionId).toMatch(/^BREB-/);
    expect(completed.timeline.map((entry) => entry.status)).toEqual([
      "awaiting_deposit",
      "deposit_confirmed",
      "processing",
      "completed",
    ]);

    const events = await bodyOf(
      await partnerRequest(h, tenant, "/api/integrations/webhooks/events?limit=50"),
      listEvents,
      200,
    );
    expect(
      events.events.filter((e) => "payoutId" in e.data && e.data.payoutId === payoutId).map((e) => e.type),
    ).toEqual([
      "payout.awaiting_deposit",
      "payout.deposit_confirmed",
      "payout.processing",
      "payout.completed",
    ]);
  });
});

describe("listing payouts", () => {
  it("lists the organization's payouts oldest first, filtered by userAddress, status and since, a page at a time", async () => {
    const tenant = await createTenant(h);
    const ana = await approvedUser(tenant);
    const bea = rememberWallet(privateKeyToAccount(generatePrivateKey()));
    await sendCode(h, tenant, "bea@example.com", bea.address);
    expect((await verifyCode(h, tenant, "bea@example.com", "123456", bea.address)).status).toBe(200);
    const ids: string[] = [];
    for (const user of [ana, bea, ana]) {
      const priced = await quote(tenant);
      const created = await create(tenant, `list-${priced.quoteId}`, {
        quoteId: priced.quoteId,
        userAddress: user.address,
        breBKey: "3001234567",
        accountOwnerName: "Ana Pérez",
      });
      ids.push((await bodyOf(created, createPayout, 201)).payout.payoutId);
      h.clock.advance(1_000);
    }
    const list = async (query: string) => {
      const response = await partnerRequest(h, tenant, `/api/integrations/breb/payouts${query}`);
      const page = await bodyOf(response, listPayouts, 200);
      return { ids: page.payouts.map((payout) => payout.payoutId), nextCursor: page.nextCursor };
    };
    expect(await list("")).toEqual({ ids, nextCursor: null });
    expect((await list(`?userAddress=${ana.address}`)).ids).toEqual([ids[0], ids[2]]);
    expect((await list("?status=awaiting_deposit")).ids).toEqual(ids);
    expect((await list("?status=completed")).ids).toEqual([]);
    const second = await bodyOf(
      await partnerRequest(h, tenant, `/api/integrations/breb/payouts/${ids[1]}`),
      getPayout,
      200,
    );
    expect((await list(`?since=${encodeURIComponent(second.createdAt)}`)).ids).toEqual(ids.slice(1));

    const first = await list("?limit=2");
    expect(first).toEqual({ ids: ids.slice(0, 2), nextCursor: ids[1] });
    expect(await list(`?limit=2&cursor=${first.nextCursor}`)).toEqual({
      ids: ids.slice(2),
      nextCursor: null,
    });
    expect((await list("?limit=500")).ids).toEqual(ids);

    for (const query of ["?limit=501", "?limit=0", "?cursor=ord_1", "?status=done", "?since=yesterday"]) {
      const refused = await partnerRequest(h, tenant, `/api/integrations/breb/payouts${query}`);
      expect(refused.status, query).toBe(400);
    }
    const lower = await partnerRequest(
      h,
      tenant,
      `/api/integrations/breb/payouts?userAddress=${ana.address.toLowerCase()}`,
    );
    expect((await errorOf(lower)).code).toBe("INVALID_USER_ADDRESS");
  });
});
