import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOB_RECEIPT_RETENTION_MS, pruneJobReceipts, runSweep } from "../../lib/kernel/sweep";
import { jobDeliveries } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { quietContext } from "../harness/context";

describe("cron sweep", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it("prunes job receipts past retention and keeps the recent ones", async () => {
    const now = h.clock.now().getTime();
    await h.database.db.insert(jobDeliveries).values([
      { deliveryId: "old", kind: "k", claimedAt: new Date(now - JOB_RECEIPT_RETENTION_MS - 1) },
      { deliveryId: "recent", kind: "k", claimedAt: new Date(now - 1_000) },
    ]);
    const ctx = quietContext(h);
    const reports = await runSweep(ctx, [pruneJobReceipts]);
    expect(reports).toEqual([{ hook: "prune-job-receipts", acted: 1 }]);
    const left = await h.database.db.select({ id: jobDeliveries.deliveryId }).from(jobDeliveries);
    expect(left.map((r) => r.id)).toEqual(["recent"]);
  });

  it("reports a failing hook and still runs the others", async () => {
    const ctx = quietContext(h);
    const broken = {
      name: "broken",
      run: async () => {
        throw new Error("boom");
      },
    };
    const reports = await runSweep(ctx, [broken, pruneJobReceipts]);
    expect(reports).toEqual([
      { hook: "broken", failed: "boom" },
      { hook: "prune-job-receipts", acted: 0 },
    ]);
  });
});
