import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "../../dev/webhook-receiver";
import { runSweep } from "../../lib/kernel/sweep";
import { recordEvents } from "../../lib/webhooks/outbox";
import { createHarness, type Harness } from "../harness/app";
import { quietContext } from "../harness/context";
import { createTenant, type Tenant } from "../harness/tenants";
import { deliveriesOf, setEndpoint } from "../harness/webhooks";

let h: Harness;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  await h.jobs.drain();
});
afterAll(() => h.close());

async function subscribed(): Promise<{ tenant: Tenant; inbox: WebhookReceiver }> {
  const tenant = await createTenant(h);
  const inbox = await startWebhookReceiver();
  receivers.push(inbox);
  await setEndpoint(h, tenant, inbox.url);
  return { tenant, inbox };
}

function orderEvent(tenant: Tenant, subjectId: string) {
  return {
    organizationId: tenant.organizationId,
    integrationId: tenant.integrationId,
    type: "settlement.order.stuck" as const,
    subjectId,
    data: { id: subjectId },
  };
}

const deliveryJobs = () => h.jobs.pending().filter((message) => message.kind === "deliver-webhooks");

describe("the outbox, the one way events leave", () => {
  it("sets an event's endpoint sending only when the unit of work ends, once for several events of one integration", async () => {
    const { tenant, inbox } = await subscribed();
    await h.jobs.drain();
    const ctx = quietContext(h);
    await ctx.db.transaction(async (tx) => {
      await recordEvents(ctx, tx, [orderEvent(tenant, "ord_a"), orderEvent(tenant, "ord_b")]);
    });
    await ctx.db.transaction(async (tx) => {
      await recordEvents(ctx, tx, [orderEvent(tenant, "ord_c")]);
    });

    expect(deliveryJobs()).toHaveLength(0);
    expect((await deliveriesOf(h, tenant)).map((delivery) => delivery.status)).toEqual([
      "pending",
      "pending",
      "pending",
    ]);

    await ctx.afterWork.run(ctx);
    expect(deliveryJobs()).toHaveLength(1);
    await h.jobs.drain();
    expect(inbox.received.map((received) => JSON.parse(received.body).data.id)).toEqual([
      "ord_a",
      "ord_b",
      "ord_c",
    ]);
  });

  it("sends nothing for an event whose transaction rolled back", async () => {
    const { tenant, inbox } = await subscribed();
    await h.jobs.drain();
    const ctx = quietContext(h);
    await expect(
      ctx.db.transaction(async (tx) => {
        await recordEvents(ctx, tx, [orderEvent(tenant, "ord_rolled_back")]);
        throw new Error("the change failed after recording its event");
      }),
    ).rejects.toThrow("the change failed");

    await ctx.afterWork.run(ctx);
    await h.jobs.drain();
    expect(await deliveriesOf(h, tenant)).toEqual([]);
    expect(inbox.received).toEqual([]);
  });

  it("the cron sweep's events leave when the sweep ends", async () => {
    const { tenant, inbox } = await subscribed();
    await h.jobs.drain();
    const recording = {
      name: "records-an-event",
      async run(ctx: ReturnType<typeof quietContext>) {
        await ctx.db.transaction((tx) => recordEvents(ctx, tx, [orderEvent(tenant, "ord_swept")]));
        return 1;
      },
    };
    await runSweep(quietContext(h), [recording]);
    expect(deliveryJobs()).toHaveLength(1);
    await h.jobs.drain();
    expect(inbox.received).toHaveLength(1);
  });
});
