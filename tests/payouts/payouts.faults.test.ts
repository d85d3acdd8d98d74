import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import { runSweep } from "../../lib/kernel/sweep";
import { recoverPayouts } from "../../lib/payouts/sweep-hooks";
import { createHarness, type Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { quietContext } from "../harness/context";
import { UNUSED_PAYOUT_PROVIDER } from "../harness/identity";
import {
  confirmedPayout,
  payoutSuite,
  readPayout,
  requestQuote,
  withPayoutProvider,
} from "../harness/payouts";
import { createTenant, type Tenant } from "../harness/tenants";

const SMALL = { destinationCop: "10000" };
const advanceJobsFor = (h: Harness, payoutId: string) =>
  h.jobs.pending().filter((job) => job.kind === "payout.advance" && job.rawBody.includes(payoutId));

describe("payouts when the provider or the sweep misbehave", () => {
  let h: Harness;
  let tenant: Tenant;
  let user: PrivateKeyAccount;
  beforeAll(async () => {
    ({ h, tenant, user } = await payoutSuite("200"));
  }, 60_000);
  afterAll(() => h.close());

  it("moves a payout the provider refuses outright to refund_required, with the reason, and stops polling it", async () => {
    const { payoutId } = await withPayoutProvider(
      h,
      (real) => ({
        ...real,
        submit: () =>
          Promise.reject(
            new ProviderFailure("no_route", "breb", "the provider refused the payout: key closed"),
          ),
      }),
      async () => {
        const confirmed = await confirmedPayout(h, tenant, user, SMALL);
        await h.jobs.drain();
        return confirmed;
      },
    );
    const payout = await readPayout(h, tenant, payoutId);
    expect(payout.status).toBe("refund_required");
    expect(payout.failureReason).toContain("key closed");
    expect(advanceJobsFor(h, payoutId)).toEqual([]);
  });

  it("keeps one polling chain per payout however often the sweep finds it quiet", async () => {
    const { payoutId } = await confirmedPayout(h, tenant, user, SMALL);
    await h.jobs.drain(); // submitted: processing, polled every 10 s until the provider finishes
    expect((await readPayout(h, tenant, payoutId)).status).toBe("processing");
    for (let sweep = 0; sweep < 4; sweep++) {
      // The payout's own chain polls on time; the payout does not move, so the sweep finds it quiet.
      for (let second = 0; second < 31; second += 10) {
        h.clock.advance(10_000);
        await h.jobs.drain();
      }
      expect((await runSweep(quietContext(h), [recoverPayouts]))[0]).toMatchObject({ acted: 1 });
      expect(advanceJobsFor(h, payoutId).length, `after sweep ${sweep + 1}`).toBe(1);
    }
    h.clock.advance(2_000);
    await h.breb?.settle();
    expect((await readPayout(h, tenant, payoutId)).status).toBe("completed");
  });
});

describe("payouts on a deployment that cannot take them", () => {
  it("refuses the quote with PAYOUTS_UNCONFIGURED before the provider is asked anything", async () => {
    // No chains: no payout depositor, no tokens. The provider configured is unreachable, so asking
    // it first would answer PROVIDER_UNAVAILABLE instead.
    const h = await createHarness({ env: UNUSED_PAYOUT_PROVIDER });
    try {
      const tenant = await createTenant(h);
      const error = await errorOf(await requestQuote(h, tenant, "100000", "USDC"));
      expect([error.status, error.code]).toEqual([503, "PAYOUTS_UNCONFIGURED"]);
    } finally {
      await h.close();
    }
  });
});
