import { eq } from "drizzle-orm";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf } from "../../dev/chains";
import { route as adminGetReconciliation } from "../../functions/reconciliation/admin-get-report";
import { serviceContext } from "../../lib/http/deps";
import {
  RECONCILIATION_INTERVAL_MS,
  RECONCILIATION_SETTLE_MS,
  reconcileStep,
} from "../../lib/reconciliation/run";
import { swapIntents } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { deliveredOrder } from "../harness/burns";
import { signedInMember } from "../harness/dashboard";
import { enableBurnPlan } from "../harness/settlement";
import { confirmedSwap } from "../harness/swaps";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

let h: Harness;
let tenant: Tenant;
const ids = { order: "", tampered: "", vanished: "" };

const swap = async () => (await confirmedSwap(h, tenant)).intentId;

beforeAll(async () => {
  h = await createHarness({ chains: true, identity: true });
  tenant = await createTenant(h);
  await enableBurnPlan(h, tenant);

  // A delivered settlement the chains agree with.
  ids.order = (await deliveredOrder(h, tenant, "40")).orderId;

  // A swap whose recorded output is not what its transaction gave (the record was altered).
  ids.tampered = await swap();
  const [row] = await h.database.db.select().from(swapIntents).where(eq(swapIntents.id, ids.tampered));
  await h.database.db
    .update(swapIntents)
    .set({ amountOutReceived: (row?.amountOutReceived ?? 0n) + 1n })
    .where(eq(swapIntents.id, ids.tampered));

  // A swap whose transaction the destination chain no longer has: taken back to a snapshot from
  // before it, as a reorganization would.
  if (!h.network) throw new Error("no chains");
  const destination = createPublicClient({
    transport: http(sandboxChainOf(h.network, "destination").rpcUrl),
  });
  const snapshot = await destination.request({ method: "evm_snapshot" as never });
  ids.vanished = await swap();
  expect(await destination.request({ method: "evm_revert" as never, params: [snapshot] as never })).toBe(
    true,
  );
  // A run covers what completed until a few minutes before it starts.
  h.clock.advance(RECONCILIATION_SETTLE_MS);
}, 120_000);
afterAll(() => h.close());

const context = () => serviceContext(h.deps, h.database.db, h.deps.logger);
const report = async () =>
  bodyOf(await adminRequest(h, "/admin/reconciliation"), adminGetReconciliation, 200);

describe("the daily reconciliation", () => {
  it("re-reads what completed against the chains and catches the planted discrepancies, only those", async () => {
    let checked = 0;
    for (let step = 0; step < 10; step++) {
      const done = await reconcileStep(context());
      checked += done;
      if (done === 0 && (await report()).runs[0]?.status === "finished") break;
    }
    expect(checked).toBe(3);
    const { runs, discrepancies } = await report();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: "finished", recordsChecked: 3, discrepanciesFound: 2 });
    const byRecord = Object.fromEntries(discrepancies.map((d) => [d.recordId, d]));
    expect(Object.keys(byRecord).sort()).toEqual([ids.tampered, ids.vanished].sort());
    expect(byRecord[ids.tampered]).toMatchObject({
      recordType: "swap",
      leg: "swap",
      problem: "amount_not_found",
      token: "COPm",
      organizationId: tenant.organizationId,
    });
    expect(byRecord[ids.vanished]).toMatchObject({
      recordType: "swap",
      leg: "swap",
      problem: "transaction_missing",
    });
    // The operator's event: one error line per discrepancy.
    const alerts = h.logLines.filter((line) => line.msg === "reconciliation discrepancy");
    expect(alerts.map((line) => line.recordId).sort()).toEqual([ids.tampered, ids.vanished].sort());
  });

  it("runs once a day: the next run starts a day after the last, covering from where it ended", async () => {
    expect(await reconcileStep(context())).toBe(0);
    expect((await report()).runs).toHaveLength(1);
    h.clock.advance(RECONCILIATION_INTERVAL_MS);
    expect(await reconcileStep(context())).toBe(0);
    const { runs } = await report();
    expect(runs).toHaveLength(2);
    expect(runs[0]?.coversFrom).toBe(runs[1]?.coversTo);
    // Nothing completed since: opened and finished in the one step.
    expect(runs[0]).toMatchObject({ status: "finished", recordsChecked: 0, discrepanciesFound: 0 });
  });

  it("shows the organization's members its flagged records on the dashboard, and no one else's", async () => {
    const member = await signedInMember(h, tenant, "reconciliation");
    const html = await member.page("/dashboard");
    const start = html.indexOf('aria-labelledby="discrepancies"');
    expect(start).toBeGreaterThan(-1);
    const card = html.slice(start, html.indexOf("</section>", start));
    expect(card).toContain(ids.tampered);
    expect(card).toContain(ids.vanished);
    expect(card).toContain("amount_not_found");
    expect(card).not.toContain(ids.order);
    const other = await createTenant(h, "Other");
    const otherHtml = await (await signedInMember(h, other, "reconciliation-other")).page("/dashboard");
    expect(otherHtml).not.toContain('aria-labelledby="discrepancies"');
    expect(otherHtml).not.toContain(ids.tampered);
  });

  it("is the operator's: partner keys do not read it", async () => {
    const response = await h.app.request("/admin/reconciliation", {
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(response.status).toBe(401);
  });
});
