import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GetTransactionResponse, route as getTransaction } from "../../functions/ledger/get-transaction";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { deliveredOrder } from "../harness/burns";
import { describePartnerRouteSecurity } from "../harness/partner-security";
import { approvedUser, confirmedPayout } from "../harness/payouts";
import { enableBurnPlan, partnerRequest, readOrder } from "../harness/settlement";
import { confirmedSwap as confirmedSwapOf } from "../harness/swaps";
import { createTenant, type Tenant } from "../harness/tenants";

type Found = GetTransactionResponse["records"][number];

let h: Harness;
let tenant: Tenant;
beforeAll(async () => {
  h = await createHarness({ chains: true, payouts: true });
  tenant = await createTenant(h);
  await enableBurnPlan(h, tenant);
}, 60_000);
afterAll(() => h.close());

const lookup = (caller: Tenant, hash: string) =>
  partnerRequest(h, caller, `/api/integrations/transactions/${hash}`);

/** The one record a transaction is part of (with the hash as answered). */
async function found(caller: Tenant, hash: string): Promise<Found & { txHash: string }> {
  const answer = await bodyOf(await lookup(caller, hash), getTransaction, 200);
  expect(answer.records).toHaveLength(1);
  const [record] = answer.records;
  if (!record) throw new Error(`no record for ${hash}`);
  return { txHash: answer.txHash, ...record };
}

const confirmedSwap = (owner: Tenant) => confirmedSwapOf(h, owner);

describe("GET /api/integrations/transactions/{txHash}", () => {
  it("names the order and the leg of each of a delivered settlement's transactions", async () => {
    const placed = await deliveredOrder(h, tenant, "60");
    const burnHash = placed.burnHash;
    const order = await readOrder(h, tenant, placed.orderId);
    const hashOf = (leg: string) => order.receipt.legs.find((entry) => entry.leg === leg);

    const burn = await found(tenant, burnHash);
    expect(burn).toMatchObject({ type: "settlement_order", id: placed.orderId, payment: null });
    expect(burn.legs.map((leg) => [leg.leg, leg.role])).toEqual([["burn", "transaction"]]);

    const route = hashOf("route");
    const arrival = route?.relatedTxHashes[0]?.txHash as string;
    expect((await found(tenant, arrival)).legs.map((leg) => [leg.leg, leg.role])).toEqual([
      ["route", "arrival"],
    ]);
    const sent = await found(tenant, route?.txHash as string);
    expect(sent.legs.map((leg) => [leg.leg, leg.role])).toEqual([["route", "transaction"]]);
    expect(sent.payment).toEqual({ purpose: "route", status: "success" });

    const delivery = await found(tenant, hashOf("delivery")?.txHash as string);
    expect(delivery).toMatchObject({ type: "settlement_order", id: placed.orderId });
    expect(delivery.legs.map((leg) => leg.leg)).toEqual(["delivery"]);
    expect(delivery.payment).toEqual({ purpose: "delivery", status: "success" });

    // Hex digits in either case name the same transaction; the answer is in lower case.
    const upper = `0x${burnHash.slice(2).toUpperCase()}`;
    expect((await found(tenant, upper)).txHash).toBe(burnHash.toLowerCase());
  }, 60_000);

  it("names a payout's deposit and a swap's transaction", async () => {
    const user = await approvedUser(h, tenant, { usdc: "100" });
    const { payoutId, depositHash } = await confirmedPayout(h, tenant, user);
    const deposit = await found(tenant, depositHash);
    expect(deposit).toMatchObject({ type: "payout", id: payoutId, payment: null });
    expect(deposit.legs.map((leg) => [leg.leg, leg.role])).toEqual([["deposit", "transaction"]]);

    const swap = await confirmedSwap(tenant);
    const swapped = await found(tenant, swap.hash);
    expect(swapped).toMatchObject({ type: "swap", id: swap.intentId });
    expect(swapped.legs.map((leg) => leg.leg)).toEqual(["swap"]);
  }, 60_000);

  it("answers TRANSACTION_NOT_FOUND for an unknown hash, and for another organization's exactly alike", async () => {
    const swap = await confirmedSwap(tenant);
    const stranger = await createTenant(h, "Stranger");
    const unknown = await lookup(tenant, `0x${"ab".repeat(32)}`);
    const foreign = await lookup(stranger, swap.hash);
    const body = async (response: Response) => {
      const raw: unknown = await response.clone().json();
      const refusal = await errorOf(response, 404);
      // Read as sent, the body is the error schema's and nothing more: no field of the owner's rides along.
      expect(raw).toEqual(refusal.body);
      return { ...refusal.body.error, requestId: undefined };
    };
    const [unknownBody, foreignBody] = [await body(unknown), await body(foreign)];
    expect(unknownBody.code).toBe("TRANSACTION_NOT_FOUND");
    expect(foreignBody).toEqual(unknownBody);
  }, 60_000);

  it("refuses what is not a transaction hash with INVALID_REQUEST, naming the parameter", async () => {
    for (const bad of ["0x1234", `0x${"g".repeat(64)}`, "ab".repeat(33), `0x${"ab".repeat(32)}00`]) {
      const error = await errorOf(await lookup(tenant, bad), 400);
      expect(error.code, bad).toBe("INVALID_REQUEST");
      expect(
        error.problems?.map((problem) => problem.field),
        bad,
      ).toEqual(["path.txHash"]);
    }
    // A NUL in the path is refused before routing, like on every route.
    expect((await lookup(tenant, "%00")).status).toBe(400);
  });
});

describePartnerRouteSecurity("GET /api/integrations/transactions/{txHash}", () => h, {
  method: "GET",
  path: async (owner) => `/api/integrations/transactions/${(await confirmedSwap(owner)).hash}`,
  missingPath: `/api/integrations/transactions/0x${"cd".repeat(32)}`,
});
