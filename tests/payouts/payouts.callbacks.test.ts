import { erc20Abi, type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAILURE_REASON } from "../../dev/breb-provider";
import { CALLBACK_ATTEMPTS } from "../../dev/breb-provider/callbacks";
import { route as confirmPayout } from "../../functions/payouts/confirm-payout";
import { runSweep } from "../../lib/kernel/sweep";
import type { BrebPayoutReport } from "../../lib/payouts/breb-provider";
import { expireUnpaidPayouts, recoverPayouts } from "../../lib/payouts/sweep-hooks";
import type { Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { clientsOn } from "../harness/burns";
import { quietContext } from "../harness/context";
import {
  type approvedUser,
  confirmedPayout,
  confirmRequest,
  createdPayout,
  FAILING_KEY,
  payoutChain,
  payoutEventTypes,
  payoutSuite,
  postCallback,
  readPayout,
  sendDeposit,
  sentRefund,
  signedCallback,
  units,
  withCallbacksRefused,
} from "../harness/payouts";
import type { Tenant } from "../harness/tenants";

let h: Harness;
let tenant: Tenant;
let user: Awaited<ReturnType<typeof approvedUser>>;
beforeAll(async () => {
  ({ h, tenant, user } = await payoutSuite("500"));
}, 60_000);
afterAll(() => h.close());

/** Small payouts (2.6 USDC each): the user pays for many. */
const SMALL = { destinationCop: "10000" };

const statusesOf = async (payoutId: string) =>
  (await readPayout(h, tenant, payoutId)).timeline.map((entry) => entry.status);

const at = (offsetMs: number) => new Date(h.clock.now().getTime() + offsetMs).toISOString();

function report(payoutId: string, change: Partial<BrebPayoutReport> & Pick<BrebPayoutReport, "status">) {
  return {
    payoutId,
    providerPayoutId: "bpo_test",
    updatedAt: h.clock.now().toISOString(),
    ...(change.status === "completed" ? { brebTransactionId: "BREB-000000000001" } : {}),
    ...change,
  } satisfies BrebPayoutReport;
}

async function deliver(callback: { body: string; headers: Record<string, string> }) {
  const response = await postCallback(h, callback);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The outbox's payout.* events for a payout, oldest first. */
const eventsOf = (payoutId: string) => payoutEventTypes(h, tenant, payoutId);

describe("the payout's job and the provider", () => {
  it("recovers a lost callback by polling the provider after the poll interval", async () => {
    const { payoutId } = await confirmedPayout(h, tenant, user, SMALL);
    await h.jobs.drain(); // submitted: processing
    expect((await readPayout(h, tenant, payoutId)).status).toBe("processing");
    const refusals = () =>
      h.logLines.filter((line) => line.path === "/callbacks/breb" && line.status === 401).length;
    const before = refusals();
    await withCallbacksRefused(h, async () => {
      h.clock.advance(2_000);
      await h.breb?.settle(); // completed at the provider; its callback is refused on every attempt
    });
    expect(refusals() - before).toBe(CALLBACK_ATTEMPTS);
    expect((await readPayout(h, tenant, payoutId)).status).toBe("processing");

    await h.jobs.drain(); // nothing due yet
    expect((await readPayout(h, tenant, payoutId)).status).toBe("processing");
    h.clock.advance(10_000);
    await h.jobs.drain(); // the poll
    const read = await readPayout(h, tenant, payoutId);
    expect(read.status).toBe("completed");
    expect(read.brebTransactionId).toMatch(/^BREB-\d{12}$/);
    // Final: the job stops asking.
    h.clock.advance(10_000);
    expect(h.jobs.pending().filter((job) => job.rawBody.includes(payoutId))).toEqual([]);
  });

  it("a 9999 key fails at the provider and is refunded with a real transaction whose hash is on the payout", async () => {
    const chain = payoutChain(h);
    const { reader } = clientsOn(chain, user);
    const usdc = chain.contracts.usdc as Hex;
    const balance = () =>
      reader.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [user.address] });
    const { payoutId, creation } = await confirmedPayout(h, tenant, user, { ...SMALL, breBKey: FAILING_KEY });
    const afterDeposit = await balance();
    await h.jobs.drain();
    expect((await readPayout(h, tenant, payoutId)).status).toBe("processing");
    h.clock.advance(2_000);
    await h.breb?.settle();
    expect(await readPayout(h, tenant, payoutId)).toMatchObject({
      status: "failed",
      failureReason: FAILURE_REASON,
      refundTxHash: null,
    });
    h.clock.advance(2_000);
    await h.breb?.settle(); // the provider sends the refund on chain, then calls back
    const refunded = await readPayout(h, tenant, payoutId);
    expect(refunded.status).toBe("refunded");
    const refundTxHash = refunded.refundTxHash as Hex;
    expect(refundTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(refunded.timeline.map((entry) => [entry.status, entry.txHash])).toEqual([
      ["awaiting_deposit", null],
      ["deposit_confirmed", expect.any(String)],
      ["processing", null],
      ["failed", null],
      ["refunded", refundTxHash],
    ]);
    const receipt = await reader.getTransactionReceipt({ hash: refundTxHash });
    expect(receipt.status).toBe("success");
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs });
    expect(
      transfers.map((log) => [log.address.toLowerCase(), log.args.from, log.args.to, log.args.value]),
    ).toEqual([
      [
        usdc.toLowerCase(),
        creation.deposit.depositAddress,
        user.address,
        units(creation.deposit.providerAmount),
      ],
    ]);
    expect((await balance()) - afterDeposit).toBe(units(creation.deposit.providerAmount));
    expect(await eventsOf(payoutId)).toEqual([
      "payout.awaiting_deposit",
      "payout.deposit_confirmed",
      "payout.processing",
      "payout.failed",
      "payout.refunded",
    ]);
  });

  it("the recovery sweep re-schedules a payout whose job message was lost", async () => {
    const { payoutId } = await confirmedPayout(h, tenant, user, SMALL);
    h.jobs.loseAll();
    h.clock.advance(10_000);
    await h.jobs.drain();
    expect((await readPayout(h, tenant, payoutId)).status).toBe("deposit_confirmed");
    h.clock.advance(21_000); // quiet for three poll intervals
    const reports = await runSweep(quietContext(h), [recoverPayouts]);
    expect(reports[0]?.hook).toBe("recover-payouts");
    expect((reports[0] as { acted: number }).acted).toBeGreaterThanOrEqual(1);
    // The recovered job runs at the next poll boundary, where the payout's own chain would.
    h.clock.advance(10_000);
    await h.jobs.drain();
    expect((await readPayout(h, tenant, payoutId)).status).toBe("processing");
  });
});

describe("provider callbacks at /callbacks/breb", () => {
  it("a signed report moves the payout forward, through each state between, and answers applied: true", async () => {
    const { payoutId } = await confirmedPayout(h, tenant, user, SMALL);
    const processing = await deliver(signedCallback(h, report(payoutId, { status: "processing" })));
    expect(processing).toEqual({ status: 200, body: { received: true, applied: true } });
    expect(await readPayout(h, tenant, payoutId)).toMatchObject({
      status: "processing",
      providerPayoutId: "bpo_test",
    });
    const completed = await deliver(
      signedCallback(h, report(payoutId, { status: "completed", updatedAt: at(1_000) })),
    );
    expect(completed).toEqual({ status: 200, body: { received: true, applied: true } });
    expect(await readPayout(h, tenant, payoutId)).toMatchObject({
      status: "completed",
      brebTransactionId: "BREB-000000000001",
    });
    expect(await eventsOf(payoutId)).toEqual([
      "payout.awaiting_deposit",
      "payout.deposit_confirmed",
      "payout.processing",
      "payout.completed",
    ]);

    // A `refunded` straight after deposit_confirmed records the states between, once the chain shows it.
    const other = await confirmedPayout(h, tenant, user, SMALL);
    const refundTxHash = await sentRefund(h, user.address, units(other.creation.deposit.providerAmount));
    const refunded = await deliver(
      signedCallback(
        h,
        report(other.payoutId, { status: "refunded", failureReason: "bank said no", refundTxHash }),
      ),
    );
    expect(refunded.body.applied).toBe(true);
    expect(await statusesOf(other.payoutId)).toEqual([
      "awaiting_deposit",
      "deposit_confirmed",
      "processing",
      "failed",
      "refunded",
    ]);
    expect(await readPayout(h, tenant, other.payoutId)).toMatchObject({
      failureReason: "bank said no",
      refundTxHash,
    });
  });

  it("refuses a bad or missing signature with 401 CALLBACK_SIGNATURE_INVALID and changes nothing", async () => {
    const { payoutId } = await confirmedPayout(h, tenant, user, SMALL);
    const good = signedCallback(h, report(payoutId, { status: "completed" }));
    const attempts: Array<[string, Record<string, string>]> = [
      [
        "another secret",
        signedCallback(h, report(payoutId, { status: "completed" }), {
          secret: "whsec_c29tZW9uZS1lbHNlcy1zZWNyZXQtMDAwMDAwMDA=",
        }).headers,
      ],
      ["no signature", { ...good.headers, "webhook-signature": "" }],
      ["a garbled signature", { ...good.headers, "webhook-signature": "v1,AAAA" }],
      ["no webhook-id", { ...good.headers, "webhook-id": "" }],
      ["another webhook-id", { ...good.headers, "webhook-id": "msg_someone_else" }],
      ["no timestamp", { ...good.headers, "webhook-timestamp": "" }],
    ];
    for (const [what, headers] of attempts) {
      const response = await postCallback(h, { body: good.body, headers });
      const error = await errorOf(response);
      expect([error.status, error.code], what).toEqual([401, "CALLBACK_SIGNATURE_INVALID"]);
    }
    expect((await readPayout(h, tenant, payoutId)).status).toBe("deposit_confirmed");
  });

  it("refuses a tampered body (status, payout or time changed after signing) with 401", async () => {
    const { payoutId } = await confirmedPayout(h, tenant, user, SMALL);
    const signed = signedCallback(h, report(payoutId, { status: "processing" }));
    const tampered = [
      signed.body.replace('"processing"', '"completed"'),
      signed.body.replace(payoutId, `${payoutId.slice(0, -1)}${payoutId.endsWith("X") ? "Y" : "X"}`),
      `${signed.body} `,
      signed.body.replace(/"updatedAt":"[^"]+"/, `"updatedAt":"${at(60_000)}"`),
    ];
    for (const body of tampered) {
      expect(body).not.toBe(signed.body);
      const error = await errorOf(await postCallback(h, { body, headers: signed.headers }));
      expect([error.status, error.code], body).toEqual([401, "CALLBACK_SIGNATURE_INVALID"]);
    }
    expect((await readPayout(h, tenant, payoutId)).status).toBe("deposit_confirmed");
  });

  it("refuses a stale or future-dated signature (over 5 minutes off the clock) with 401; within 5 minutes it applies", async () => {
    const { payoutId } = await confirmedPayout(h, tenant, user, SMALL);
    const now = h.clock.now().getTime();
    for (const offset of [-301_000, 301_000, -3_600_000]) {
      const stale = signedCallback(h, report(payoutId, { status: "processing" }), {
        signedAt: new Date(now + offset),
      });
      const error = await errorOf(await postCallback(h, stale));
      expect([error.status, error.code], `${offset} ms`).toEqual([401, "CALLBACK_SIGNATURE_INVALID"]);
    }
    expect((await readPayout(h, tenant, payoutId)).status).toBe("deposit_confirmed");
    const late = signedCallback(h, report(payoutId, { status: "processing" }), {
      signedAt: new Date(now - 290_000),
    });
    expect((await deliver(late)).body).toEqual({ received: true, applied: true });
  });

  it("a replayed callback answers 200 applied: false and changes nothing", async () => {
    const { payoutId } = await confirmedPayout(h, tenant, user, SMALL);
    const processing = report(payoutId, { status: "processing" });
    const callback = signedCallback(h, processing);
    expect((await deliver(callback)).body).toEqual({ received: true, applied: true });
    const before = await readPayout(h, tenant, payoutId);
    h.clock.advance(1_000);
    expect(await deliver(callback)).toEqual({ status: 200, body: { received: true, applied: false } });
    // Re-signed by the provider (a retry: new id and timestamp), the same report changes nothing either.
    expect((await deliver(signedCallback(h, processing))).body.applied).toBe(false);
    expect(await readPayout(h, tenant, payoutId)).toEqual(before);
    expect(await eventsOf(payoutId)).toEqual([
      "payout.awaiting_deposit",
      "payout.deposit_confirmed",
      "payout.processing",
    ]);
  });

  it("out of order: an older processing after completed changes nothing", async () => {
    const { payoutId } = await confirmedPayout(h, tenant, user, SMALL);
    const older = signedCallback(h, report(payoutId, { status: "processing", updatedAt: at(0) }));
    const newer = signedCallback(h, report(payoutId, { status: "completed", updatedAt: at(2_000) }));
    expect((await deliver(newer)).body.applied).toBe(true);
    const completed = await readPayout(h, tenant, payoutId);
    expect(completed.status).toBe("completed");
    expect(await deliver(older)).toEqual({ status: 200, body: { received: true, applied: false } });
    expect(await readPayout(h, tenant, payoutId)).toEqual(completed);
  });

  it("out of order while in flight: a report older than the one held changes nothing", async () => {
    const { payoutId } = await confirmedPayout(h, tenant, user, SMALL);
    expect(
      (await deliver(signedCallback(h, report(payoutId, { status: "processing", updatedAt: at(5_000) }))))
        .body.applied,
    ).toBe(true);
    const older = signedCallback(h, report(payoutId, { status: "failed", updatedAt: at(1_000) }));
    expect((await deliver(older)).body.applied).toBe(false);
    expect((await readPayout(h, tenant, payoutId)).status).toBe("processing");
  });

  it("never moves a failed payout back to processing, even with the same provider time; refunded still follows", async () => {
    const { payoutId, creation } = await confirmedPayout(h, tenant, user, SMALL);
    const time = at(0);
    const failed = signedCallback(h, report(payoutId, { status: "failed", updatedAt: time }));
    expect((await deliver(failed)).body.applied).toBe(true);
    const processing = signedCallback(h, report(payoutId, { status: "processing", updatedAt: time }));
    expect((await deliver(processing)).body.applied).toBe(false);
    const later = signedCallback(h, report(payoutId, { status: "processing", updatedAt: at(1_000) }));
    expect((await deliver(later)).body.applied).toBe(false);
    expect((await readPayout(h, tenant, payoutId)).status).toBe("failed");
    const refundTxHash = await sentRefund(h, user.address, units(creation.deposit.providerAmount));
    const refunded = signedCallback(
      h,
      report(payoutId, { status: "refunded", updatedAt: at(2_000), refundTxHash }),
    );
    expect((await deliver(refunded)).body.applied).toBe(true);
    expect(await statusesOf(payoutId)).toEqual([
      "awaiting_deposit",
      "deposit_confirmed",
      "processing",
      "failed",
      "refunded",
    ]);
  });

  it("answers 200 applied: false for a payout it does not know, and for one not yet paid", async () => {
    const unknown = signedCallback(h, report("po_00000000000000000000000000", { status: "completed" }));
    expect(await deliver(unknown)).toEqual({ status: 200, body: { received: true, applied: false } });
    const unpaid = await createdPayout(h, tenant, user, SMALL);
    const early = signedCallback(h, report(unpaid.payout.payoutId, { status: "completed" }));
    expect((await deliver(early)).body.applied).toBe(false);
    expect((await readPayout(h, tenant, unpaid.payout.payoutId)).status).toBe("awaiting_deposit");
  });
});

describe("the expiry sweep", () => {
  it("expires a payout with no deposit 30 minutes after creation, not before", async () => {
    const { payout } = await createdPayout(h, tenant, user, SMALL);
    const deadline = Date.parse(payout.depositDeadline);
    expect(deadline - h.clock.now().getTime()).toBe(30 * 60_000);
    h.clock.set(new Date(deadline));
    await runSweep(quietContext(h), [expireUnpaidPayouts]);
    expect((await readPayout(h, tenant, payout.payoutId)).status).toBe("awaiting_deposit");
    h.clock.advance(1_000);
    await runSweep(quietContext(h), [expireUnpaidPayouts]);
    const expired = await readPayout(h, tenant, payout.payoutId);
    expect(expired.status).toBe("expired");
    expect(expired.timeline.at(-1)).toMatchObject({
      status: "expired",
      detail: "no deposit by the deadline",
    });
    expect(await eventsOf(payout.payoutId)).toEqual(["payout.awaiting_deposit", "payout.expired"]);
    // A second sweep changes nothing.
    await runSweep(quietContext(h), [expireUnpaidPayouts]);
    expect(await statusesOf(payout.payoutId)).toEqual(["awaiting_deposit", "expired"]);
  });

  it("a payout the sweep expired still confirms with a deposit mined before its deadline, and goes on", async () => {
    const creation = await createdPayout(h, tenant, user, SMALL);
    const hash = await sendDeposit(h, user, creation); // in time
    h.clock.set(new Date(Date.parse(creation.payout.depositDeadline) + 60_000));
    await runSweep(quietContext(h), [expireUnpaidPayouts]);
    expect((await readPayout(h, tenant, creation.payout.payoutId)).status).toBe("expired");
    const confirmed = await confirmRequest(h, tenant, creation.payout.payoutId, hash);
    expect((await bodyOf(confirmed, confirmPayout, 200)).status).toBe("deposit_confirmed");
    await h.jobs.drain();
    expect(await statusesOf(creation.payout.payoutId)).toEqual([
      "awaiting_deposit",
      "expired",
      "deposit_confirmed",
      "processing",
    ]);
  });
});
