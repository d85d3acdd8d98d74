import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as getStatement } from "../../functions/ledger/get-statement";
import { route as updateOrganization } from "../../functions/tenancy/admin-update-organization";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { clientsOn } from "../harness/burns";
import {
  approvedUser,
  confirmRequest,
  createdPayout,
  depositWith,
  payoutChain,
  quoteFor,
  readPayout,
  sendDeposit,
  units,
} from "../harness/payouts";
import { partnerRequest } from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

// An organization's own fee on its payouts: set by the operator, shown in the quote, paid to the
// organization's address in the user's one deposit transaction, required by the confirmation, and
// on the receipt and the statement.

let h: Harness;
let tenant: Tenant;
const partnerWallet = privateKeyToAccount(generatePrivateKey()).address;

const settings = (body: Record<string, unknown>) =>
  adminRequest(h, `/admin/organizations/${tenant.organizationId}`, { method: "PATCH", body });

beforeAll(async () => {
  h = await createHarness({ chains: true, payouts: true });
  tenant = await createTenant(h, "Partner fee");
}, 60_000);
afterAll(() => h.close());

const balanceOf = (token: Hex, holder: Hex) =>
  clientsOn(payoutChain(h), privateKeyToAccount(generatePrivateKey())).reader.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [holder],
  });

describe("an organization's own fee on payouts", () => {
  it("is set by the operator with its address, at most 100 bps; never a fee without an address", async () => {
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ partnerFeeBps: 50 }, "body.partnerFeeAddress"],
      [{ partnerFeeBps: 101, partnerFeeAddress: partnerWallet }, "body.partnerFeeBps"],
      [{ partnerFeeBps: 10, partnerFeeAddress: "0x1234" }, "body.partnerFeeAddress"],
      [{ partnerFeeAddress: null }, "body.partnerFeeBps"],
      [{ partnerFeeBps: 10, partnerFeeAddress: `0x${"0".repeat(40)}` }, "body.partnerFeeAddress"],
      // The service's own addresses: the fee would go back to the service.
      [{ partnerFeeBps: 10, partnerFeeAddress: h.deps.config.BREB_FEE_WALLET }, "body.partnerFeeAddress"],
      [{ partnerFeeBps: 10, partnerFeeAddress: h.deps.settlement.accountAddress }, "body.partnerFeeAddress"],
    ];
    for (const [body, field] of refused) {
      const { problems } = await errorOf(await settings(body), 400);
      expect(
        problems?.map((problem) => problem.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const set = await settings({ partnerFeeBps: 50, partnerFeeAddress: partnerWallet.toLowerCase() });
    expect((await bodyOf(set, updateOrganization, 200)).organization).toMatchObject({
      partnerFeeBps: 50,
      partnerFeeAddress: partnerWallet,
    });
  });

  it("is shown in the quote's fees and paid to the organization's address in the deposit transaction", async () => {
    const quote = await quoteFor(h, tenant, "100000", "USDC");
    const fee = (type: string) => quote.fees.find((entry) => entry.type === type);
    expect(fee("partner")).toMatchObject({ bps: 50, recipient: "partner" });
    const provider = units(quote.providerAmount);
    // Half a percent of the provider's amount, rounded up, like the service's fee.
    expect(units(fee("partner")?.amount ?? "")).toBe((provider * 50n + 9_999n) / 10_000n);
    expect(units(quote.sourceAmount)).toBe(
      provider + units(fee("service")?.amount ?? "") + units(fee("partner")?.amount ?? ""),
    );

    const user = await approvedUser(h, tenant, { usdc: "100" });
    const creation = await createdPayout(h, tenant, user);
    const { deposit } = creation;
    expect(deposit.partnerFeeAddress).toBe(partnerWallet);
    const partnerFee = units(deposit.partnerFee);
    expect(partnerFee).toBeGreaterThan(0n);
    const before = {
      partner: await balanceOf(deposit.tokenAddress, partnerWallet),
      provider: await balanceOf(deposit.tokenAddress, deposit.depositAddress),
      fees: await balanceOf(deposit.tokenAddress, deposit.feeWallet),
    };
    const hash = await sendDeposit(h, user, creation);
    const confirmed = await confirmRequest(h, tenant, creation.payout.payoutId, hash);
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    expect((await balanceOf(deposit.tokenAddress, partnerWallet)) - before.partner).toBe(partnerFee);
    expect((await balanceOf(deposit.tokenAddress, deposit.depositAddress)) - before.provider).toBe(
      units(deposit.providerAmount),
    );
    expect((await balanceOf(deposit.tokenAddress, deposit.feeWallet)) - before.fees).toBe(
      units(deposit.serviceFee),
    );

    // The receipt and the statement show it, paid to the partner.
    const payout = await readPayout(h, tenant, creation.payout.payoutId);
    const [depositLeg] = payout.receipt.legs;
    expect(depositLeg?.fees).toContainEqual({
      type: "partner",
      token: "USDC",
      amount: partnerFee.toString(),
    });
    expect(depositLeg?.movements).toContainEqual(
      expect.objectContaining({ counterparty: "partner", amount: (-partnerFee).toString() }),
    );
    const from = new Date(h.clock.now().getTime() - 3_600_000).toISOString();
    const to = new Date(h.clock.now().getTime() + 60_000).toISOString();
    const statement = await bodyOf(
      await partnerRequest(h, tenant, `/api/integrations/statements?from=${from}&to=${to}`),
      getStatement,
      200,
    );
    expect(statement.lines).toContainEqual(
      expect.objectContaining({
        id: creation.payout.payoutId,
        counterparty: "partner",
        amount: (-partnerFee).toString(),
      }),
    );
  });

  it("is required by the confirmation: a deposit that leaves it out does not confirm the payout", async () => {
    const user = await approvedUser(h, tenant, { usdc: "100" });
    const creation = await createdPayout(h, tenant, user);
    // The depositor's plain deposit: provider and service paid, the organization's fee not.
    const hash = await depositWith(h, user, creation);
    const refused = await confirmRequest(h, tenant, creation.payout.payoutId, hash);
    const error = await errorOf(refused, 400);
    expect(error.code).toBe("INVALID_DEPOSIT");
    expect(error.message).toContain("fee address");
    expect((await readPayout(h, tenant, creation.payout.payoutId)).status).toBe("awaiting_deposit");
  });

  it("stops when the operator sets it back to 0: no partner entry, the plain deposit", async () => {
    expect((await settings({ partnerFeeBps: 0, partnerFeeAddress: null })).status).toBe(200);
    const quote = (await quoteFor(h, tenant, "100000", "USDC")) as unknown as { fees: { type: string }[] };
    expect(quote.fees.map((fee) => fee.type)).toEqual(["service", "provider_developer"]);
  });
});
