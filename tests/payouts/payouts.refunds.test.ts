import { erc20Abi, type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as adminRefund } from "../../functions/payouts/admin-refund";
import type { Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { clientsOn } from "../harness/burns";
import {
  type approvedUser,
  confirmedPayout,
  confirmRequest,
  createdPayout,
  payoutChain,
  payoutEventTypes,
  payoutSuite,
  readPayout,
  sendDeposit,
  units,
} from "../harness/payouts";
import { adminRequest, type Tenant } from "../harness/tenants";

/**
 * The operator's refund of a payout that will not be paid: the provider sends the user's deposit
 * back on chain, the payout goes failed (refund follows) then refunded with the refund's hash, and
 * each step sends its webhook event.
 */

let h: Harness;
let tenant: Tenant;
let user: Awaited<ReturnType<typeof approvedUser>>;
beforeAll(async () => {
  ({ h, tenant, user } = await payoutSuite("500"));
}, 60_000);
afterAll(() => h.close());

const SMALL = { destinationCop: "10000" };
const refund = (
  payoutId: string,
  body: unknown = { reason: "the deposit came late; the user asked for it back" },
) => adminRequest(h, `/admin/payouts/${payoutId}/refund`, { method: "POST", body });

const eventsOf = (payoutId: string) => payoutEventTypes(h, tenant, payoutId);

describe("payout refunds through the admin API", () => {
  it("sends a late deposit (refund_required) back to the user on chain: failed, then refunded with its hash", async () => {
    const chain = payoutChain(h);
    const { reader } = clientsOn(chain, user);
    const usdc = chain.contracts.usdc as Hex;
    const balance = () =>
      reader.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [user.address] });

    const creation = await createdPayout(h, tenant, user, SMALL);
    const payoutId = creation.payout.payoutId;
    h.clock.set(new Date(Date.parse(creation.payout.depositDeadline) + 1_000));
    const hash = await sendDeposit(h, user, creation);
    expect((await errorOf(await confirmRequest(h, tenant, payoutId, hash))).code).toBe("PAYOUT_EXPIRED");
    expect((await readPayout(h, tenant, payoutId)).status).toBe("refund_required");
    const afterDeposit = await balance();

    expect((await bodyOf(await refund(payoutId), adminRefund, 200)).payout.status).toBe("failed");
    // Asking again while the refund is on its way answers the same, and sends nothing more.
    expect((await refund(payoutId)).status).toBe(200);

    h.clock.advance(1_000);
    await h.breb?.settle(); // the provider sends the refund on chain, then calls back
    await h.jobs.drain();
    const refunded = await readPayout(h, tenant, payoutId);
    expect(refunded.status).toBe("refunded");
    expect(refunded.failureReason).toMatch(/refund requested: the deposit came late/);
    const refundTxHash = refunded.refundTxHash as Hex;
    expect(refunded.timeline.map((entry) => [entry.status, entry.txHash])).toEqual([
      ["awaiting_deposit", null],
      ["refund_required", expect.any(String)],
      ["failed", null],
      ["refunded", refundTxHash],
    ]);
    const receipt = await reader.getTransactionReceipt({ hash: refundTxHash });
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs });
    expect(transfers.map((log) => [log.args.from, log.args.to, log.args.value])).toEqual([
      [creation.deposit.depositAddress, user.address, units(creation.deposit.providerAmount)],
    ]);
    expect((await balance()) - afterDeposit).toBe(units(creation.deposit.providerAmount));
    expect(await eventsOf(payoutId)).toEqual([
      "payout.awaiting_deposit",
      "payout.refund_required",
      "payout.failed",
      "payout.refunded",
    ]);
    // Refunded is final: nothing more to send back.
    expect((await errorOf(await refund(payoutId))).code).toBe("PAYOUT_NOT_REFUNDABLE");
  });

  it("refuses a payout the provider is paying or has paid: its money is not the service's to send back", async () => {
    const { payoutId } = await confirmedPayout(h, tenant, user, SMALL);
    await h.jobs.drain(); // submitted: processing at the provider
    expect((await readPayout(h, tenant, payoutId)).status).toBe("processing");
    // Processing is the provider's: the service asks nothing of it then.
    expect((await errorOf(await refund(payoutId))).code).toBe("PAYOUT_NOT_REFUNDABLE");
    h.clock.advance(2_000);
    await h.breb?.settle();
    expect((await readPayout(h, tenant, payoutId)).status).toBe("completed");
    expect((await errorOf(await refund(payoutId))).code).toBe("PAYOUT_NOT_REFUNDABLE");
  });

  it("refuses what is not a refund request or not refundable, and changes nothing", async () => {
    const waiting = await createdPayout(h, tenant, user, SMALL);
    const id = waiting.payout.payoutId;
    const refused = await errorOf(await refund(id));
    expect([refused.status, refused.code]).toEqual([409, "PAYOUT_NOT_REFUNDABLE"]);
    expect((await errorOf(await refund("po_unknown"))).code).toBe("PAYOUT_NOT_FOUND");
    for (const body of [{}, { reason: " " }, { reason: "x".repeat(501) }, { reason: "ok", more: true }]) {
      expect((await refund(id, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await readPayout(h, tenant, id)).status).toBe("awaiting_deposit");
    const partner = await h.app.request(`/admin/payouts/${id}/refund`, {
      method: "POST",
      headers: { authorization: `Bearer ${tenant.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ reason: "a partner may not" }),
    });
    expect(partner.status).toBe(401);
  });
});
