import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as updateOrganizationRoute } from "../../functions/tenancy/admin-update-organization";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { approvedUser, payoutBody, quoteFor, requestPayout } from "../harness/payouts";
import { createOrder, DESTINATION_ADDRESS, enableBurnPlan, partnerRequest } from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

/**
 * Volume limits (issue 38): per end-user address over 24 hours and 30 days, and the organization's
 * over 24 hours, counted across settlements (principal) and payouts (US dollar value) in rolling
 * windows; a quote, order or payout that would pass one is 403 LIMIT_EXCEEDED with what remains and
 * when the window frees. The race of two orders is tests/compliance/limits.concurrency.postgres.
 */

let h: Harness;

const fresh = () => privateKeyToAccount(generatePrivateKey()).address;

async function tenantWithLimits(limits: Record<string, string | null>): Promise<Tenant> {
  const tenant = await createTenant(h, "Limited");
  await enableBurnPlan(h, tenant);
  const patched = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
    method: "PATCH",
    body: limits,
  });
  await bodyOf(patched, updateOrganizationRoute, 200);
  return tenant;
}

function quote(tenant: Tenant, sourceAddress: string, sendAmountUsdc: string) {
  return partnerRequest(h, tenant, "/api/integrations/settlements/quotes", {
    method: "POST",
    body: { sendAmountUsdc, sourceAddress, destinationAddress: DESTINATION_ADDRESS },
  });
}

/** A quote and its order for `amount` USDC from `source`: the order's answer. */
async function order(tenant: Tenant, source: string, amount: string): Promise<Response> {
  const quoted = await quote(tenant, source, amount);
  expect(quoted.status, await quoted.clone().text()).toBe(201);
  const { quoteId } = (await quoted.json()) as { quoteId: string };
  return createOrder(h, tenant, quoteId, `limit-${quoteId}`);
}

beforeAll(async () => {
  h = await createHarness({ chains: true, payouts: true });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe("the limits as settings", () => {
  it("takes decimal US dollars or null, shows them, and refuses anything else", async () => {
    const tenant = await createTenant(h, "Settings");
    const path = `/admin/organizations/${tenant.organizationId}`;
    const set = await adminRequest(h, path, {
      method: "PATCH",
      body: { perUserDailyLimitUsd: "50", perUserMonthlyLimitUsd: "1000.5", organizationDailyLimitUsd: null },
    });
    expect((await bodyOf(set, updateOrganizationRoute, 200)).organization).toMatchObject({
      perUserDailyLimitUsd: "50",
      perUserMonthlyLimitUsd: "1000.5",
      organizationDailyLimitUsd: null,
    });
    for (const bad of ["-1", "0", "abc", "1.0000001", 50]) {
      const refused = await adminRequest(h, path, { method: "PATCH", body: { perUserDailyLimitUsd: bad } });
      expect(refused.status, String(bad)).toBe(400);
    }
  });
});

describe("a per-user daily limit of 50 US dollars", () => {
  it("refuses a second quote that would pass it, saying what remains and when it frees, and frees in the next window", async () => {
    const tenant = await tenantWithLimits({ perUserDailyLimitUsd: "50" });
    const user = fresh();
    const first = await order(tenant, user, "30");
    expect(first.status).toBe(201);
    const firstAt = h.clock.now().getTime();
    h.clock.advance(60 * 60_000);

    const second = await quote(tenant, user, "30");
    const refused = await errorOf(second, 403);
    expect(refused).toMatchObject({
      code: "LIMIT_EXCEEDED",
      limit: "perUserDaily",
      limitUsd: "50",
      remainingUsd: "20",
      resetsAt: new Date(firstAt + 24 * 60 * 60_000).toISOString(),
    });
    // What remains still goes, and another user is not this one.
    expect((await quote(tenant, user, "20")).status).toBe(201);
    expect((await quote(tenant, fresh(), "30")).status).toBe(201);
    // The next window: the first order has left it.
    h.clock.advance(23 * 60 * 60_000 + 1);
    expect((await quote(tenant, user, "30")).status).toBe(201);
  });

  it("refuses at the order too, when the quote was made before the limit was reached", async () => {
    const tenant = await tenantWithLimits({ perUserDailyLimitUsd: "50" });
    const user = fresh();
    const early = await quote(tenant, user, "30");
    const { quoteId } = (await early.json()) as { quoteId: string };
    expect((await order(tenant, user, "30")).status).toBe(201);
    const late = await createOrder(h, tenant, quoteId, "limit-late");
    expect((await errorOf(late, 403)).code).toBe("LIMIT_EXCEEDED");
  });

  it("counts a payout's dollar value for the same address", async () => {
    const tenant = await tenantWithLimits({ perUserDailyLimitUsd: "50" });
    const user = await approvedUser(h, tenant, { usdc: "100" });
    expect((await order(tenant, user.address, "30")).status).toBe(201);
    // 100,000 pesos are worth more than the 20 dollars left at the sandbox's rate.
    const payoutQuote = await quoteFor(h, tenant, "100000");
    const payout = await requestPayout(
      h,
      tenant,
      `limit-payout-${payoutQuote.quoteId}`,
      payoutBody(payoutQuote.quoteId, user),
    );
    expect(await errorOf(payout, 403)).toMatchObject({ code: "LIMIT_EXCEEDED", limit: "perUserDaily" });
  });
});

describe("the organization's daily limit", () => {
  it("counts every user of the organization together", async () => {
    const tenant = await tenantWithLimits({ organizationDailyLimitUsd: "50" });
    expect((await order(tenant, fresh(), "30")).status).toBe(201);
    expect(await errorOf(await quote(tenant, fresh(), "30"), 403)).toMatchObject({
      code: "LIMIT_EXCEEDED",
      limit: "organizationDaily",
      remainingUsd: "20",
    });
  });
});
