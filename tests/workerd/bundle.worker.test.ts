import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDemoSettlement } from "../../dev/demo-flow";
import { runDemoPayout } from "../../dev/demo-payout-flow";
import { LOCAL_PACE_VARS } from "../../dev/local-defaults";
import type { StoredEmail } from "../../dev/mailbox";
import { LOCAL_QSTASH, type LocalStack, startLocalStack } from "../../dev/stack";
import { startWranglerDev, type WranglerDev } from "../../dev/wrangler";
import { route as adminGetHealth } from "../../functions/settlement/admin-health";
import { route as adminCreateOrganization } from "../../functions/tenancy/admin-create-organization";
import { signQStashDelivery } from "../../lib/kernel/jobs/signature";
import { parseAmount } from "../../lib/kernel/money";
import { bodyOf } from "../harness/bodies";
import { freePort } from "../harness/free-port";
import type { OpenApiDocument } from "../harness/openapi-document";

/**
 * The deployed bundle, in workerd under `wrangler dev`, reaching the embedded Postgres through the
 * production Neon driver and the local relay, and verifying job signatures with QStash's Receiver.
 */
const ADMIN_TOKEN = "workerd-suite-admin-token-0123456789";

describe("worker bundle in workerd", () => {
  let stack: LocalStack;
  let worker: WranglerDev;
  const output: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    stack = await startLocalStack({ publicUrl });
    worker = await startWranglerDev({
      port,
      vars: { ...stack.workerVars, MODE: "mock", ADMIN_TOKEN, ...LOCAL_PACE_VARS },
      output: (chunk) => output.push(chunk),
      readyTimeoutMs: 90_000,
    });
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await stack?.close();
  });

  it("answers /health with the database reached through the Neon driver", async () => {
    const response = await fetch(`${worker.url}/health`);
    const body = await response.json();
    expect(body, output.join("")).toMatchObject({
      status: "ok",
      checks: { database: { status: "up" }, jobs: { status: "up" } },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("creates an organization in one transaction and reads it back, through the Neon driver", async () => {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
    const created = await fetch(`${worker.url}/admin/organizations`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Workerd wallet" }),
    });
    expect(created.status, output.join("")).toBe(201);
    const { organization, apiKey } = await bodyOf(created, adminCreateOrganization, 201);
    expect(apiKey).toMatch(/^copm_test_/);
    const read = await fetch(`${worker.url}/admin/organizations/${organization.id}`, { headers });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({
      organization: { id: organization.id, name: "Workerd wallet" },
    });
  });

  it("runs the pages worker on the API worker's values, as the operator's health compares them over the binding", async () => {
    const response = await fetch(`${worker.url}/admin/health`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.status, output.join("")).toBe(200);
    expect((await bodyOf(response, adminGetHealth, 200)).pages).toEqual({ status: "same", differing: [] });
  });

  it("serves the OpenAPI document and the reference's script from its own assets", async () => {
    const document = (await (await fetch(`${worker.url}/openapi.json`)).json()) as OpenApiDocument;
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("0.1.0");
    const script = await fetch(`${worker.url}/docs/scalar-api-reference.js`);
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });

  it("signs a dashboard member in through the worker with the code the local mailbox received, and serves the dashboard's script", async () => {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
    const created = await fetch(`${worker.url}/admin/organizations`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Workerd dashboard" }),
    });
    const { organization } = await bodyOf(created, adminCreateOrganization, 201);
    const email = "member@workerd.example";
    const added = await fetch(`${worker.url}/admin/organizations/${organization.id}/members`, {
      method: "POST",
      headers,
      body: JSON.stringify({ email }),
    });
    expect(added.status).toBe(201);

    const signInPage = await fetch(`${worker.url}/dashboard/sign-in`);
    expect(signInPage.status, output.join("")).toBe(200);
    const csrfCookie = signInPage.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await signInPage.text())?.[1] ?? "";
    const post = (path: string, form: Record<string, string>) =>
      fetch(`${worker.url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: worker.url,
          cookie: csrfCookie,
        },
        body: new URLSearchParams({ ...form, _csrf: csrf }).toString(),
      });
    expect((await post("/dashboard/sign-in", { email })).status).toBe(200);
    // The code email leaves after the answer (waitUntil): wait for it as a person would.
    let code = "";
    for (let tries = 0; !code && tries < 100; tries++) {
      // The local mailbox's inbox (dev/mailbox/http-api.ts): its stored emails, newest first.
      const inbox = (await (await fetch(`${stack.mailboxUrl}/api/emails`)).json()) as { data: StoredEmail[] };
      code = inbox.data.find((message) => message.to.includes(email))?.text.match(/\b(\d{6})\b/)?.[1] ?? "";
      if (!code) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(code).toMatch(/^\d{6}$/);
    const verified = await post("/dashboard/sign-in/code", { email, code });
    expect(verified.status).toBe(303);
    const session = verified.headers
      .getSetCookie()
      .find((line) => line.startsWith("copm_dashboard_session="));
    expect(session).toMatch(/HttpOnly/);
    const overview = await fetch(`${worker.url}/dashboard`, {
      headers: { cookie: session?.split(";")[0] ?? "" },
    });
    expect(overview.status).toBe(200);
    expect(await overview.text()).toContain("Workerd dashboard");
    const script = await fetch(`${worker.url}/dashboard/dashboard.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain("data-copy-target");
  });

  it("refuses a job call signed with a key that is not the configured one", async () => {
    const url = `${worker.url}/internal/jobs/any.kind`;
    const forged = await signQStashDelivery({
      signingKey: "not-the-key",
      url,
      rawBody: "{}",
      messageId: "m1",
    });
    const refused = await fetch(url, {
      method: "POST",
      body: "{}",
      headers: { "upstash-signature": forged, "upstash-message-id": "m1" },
    });
    expect(refused.status).toBe(401);
    const genuine = await signQStashDelivery({
      signingKey: LOCAL_QSTASH.currentSigningKey,
      url,
      rawBody: "{}",
      messageId: "m2",
    });
    const accepted = await fetch(url, {
      method: "POST",
      body: "{}",
      headers: { "upstash-signature": genuine, "upstash-message-id": "m2" },
    });
    // Signed correctly, so it gets past the signature check to the catalog, which has no such kind.
    expect(accepted.status).toBe(404);
  });

  it("settles a whole order to DELIVERED through QStash-style jobs, the Neon driver and the local chains", async () => {
    const result = await runDemoSettlement({
      apiUrl: worker.url,
      adminToken: ADMIN_TOKEN,
      deadlineMs: 45_000,
    });
    const floor = parseAmount(result.copAmountMin, 18);
    if (!floor.ok) throw new Error("floor");
    expect(result.copmDelivered >= floor.units, output.join("").slice(-2000)).toBe(true);
    // How fast is for a benchmark to measure, not a timed assertion; runDemoSettlement's deadline bounds it.
    // Delivered by the worker's jobs to the demo's loopback receiver, each verified by standardwebhooks.
    expect(result.webhookEvents).toEqual([
      "settlement.order.burned",
      "settlement.order.attested",
      "settlement.order.minted",
      "settlement.order.routing",
      "settlement.order.routed",
      "settlement.order.delivered",
    ]);
    // The list at the first dated version reads each order's events with one array parameter
    // (`= any($1)`), here through the Neon driver as in production.
    const listed = await fetch(`${worker.url}/api/integrations/settlements/orders`, {
      headers: { authorization: `Bearer ${result.apiKey}`, "api-version": "2026-11-25" },
    });
    expect(listed.status, output.join("").slice(-2000)).toBe(200);
    const { orders } = (await listed.json()) as {
      orders: Array<{ orderId: string; timeline: Array<{ kind: string; status: string }> }>;
    };
    const order = orders.find((one) => one.orderId === result.orderId);
    expect(order?.timeline.map((entry) => entry.status)).toContain("DELIVERED");
  }, 75_000);

  it("pays out a BRE-B payout to completed through the worker, the local provider and its signed callback, after one destination_mismatch", async () => {
    const result = await runDemoPayout({ apiUrl: worker.url, adminToken: ADMIN_TOKEN, deadlineMs: 30_000 });
    expect(result.mismatchCode, output.join("").slice(-2000)).toBe("destination_mismatch");
    expect(result.status).toBe("completed");
    expect(result.brebTransactionId).toMatch(/^BREB-\d+$/);
    // 100,000 COP at the sandbox rate: 25.687873 USDC to the provider, 0.256879 USDC of service fee.
    expect(result.depositAddressReceived).toBe(25_687_873n);
    expect(result.feeWalletReceived).toBe(256_879n);
  }, 60_000);

  it("runs the cron sweep against the database", async () => {
    const response = await fetch(`${worker.url}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
    expect(response.status).toBe(200);
    await expect.poll(() => output.join(""), { timeout: 10_000 }).toContain('"msg":"sweep finished"');
    expect(output.join("")).toContain('"hook":"prune-job-receipts","acted":0');
  });
});
