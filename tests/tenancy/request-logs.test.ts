import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ListRequestLogsResponse,
  route as listRequestLogs,
} from "../../functions/audit/list-request-logs";
import { pruneRequestLogs } from "../../lib/audit/request-logs";
import { runSweep } from "../../lib/kernel/sweep";
import { requestLogs } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { quietContext } from "../harness/context";
import { partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

/**
 * Request logs (issue 37): each API request of an organization's keys, kept 7 days, bodies redacted,
 * written after the response and never failing it, shown to its own organization only.
 */
describe("request logs", () => {
  let h: Harness;
  let tenant: Tenant;
  let stranger: Tenant;
  beforeAll(async () => {
    h = await createHarness();
    tenant = await createTenant(h);
    stranger = await createTenant(h, "Stranger");
  });
  afterAll(() => h.close());

  const logs = async (who: Tenant, query = "") => {
    await h.settled();
    return bodyOf(
      await partnerRequest(h, who, `/api/integrations/request-logs${query}`),
      listRequestLogs,
      200,
    );
  };

  it("logs what a key asked and was answered, with secrets, keys and emails redacted", async () => {
    const put = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint", {
      method: "PUT",
      body: { url: "https://hooks.example.com/copm?owner=ana@example.com" },
      headers: { "idempotency-key": "put-1" },
    });
    expect(put.status).toBe(201);
    const { secret } = (await put.json()) as { secret: string };
    const requestId = put.headers.get("x-request-id") ?? "";
    const [logged] = (await logs(tenant, `?requestId=${requestId}`)).data;
    expect(logged).toMatchObject({
      requestId,
      method: "PUT",
      path: "/api/integrations/webhooks/endpoint",
      status: 201,
      errorCode: null,
      idempotencyKey: "put-1",
      integrationId: tenant.integrationId,
    });
    expect(logged?.requestBody).toContain("https://hooks.example.com/copm?owner=[redacted]");
    expect(logged?.responseBody).toContain('"secret":"[redacted]"');
    const text = JSON.stringify(logged);
    expect(text).not.toContain("ana@example.com");
    expect(text).not.toContain(secret);
    expect(text).not.toContain(tenant.apiKey);
  });

  it("keeps an error's code in the logged answer, while a one-time code a request sends is redacted", async () => {
    const refused = await partnerRequest(h, tenant, "/api/integrations/swaps?limit=many");
    expect(refused.status).toBe(400);
    const [logged] = (await logs(tenant, `?requestId=${refused.headers.get("x-request-id")}`)).data;
    expect(logged?.responseBody).toContain('"code":"INVALID_REQUEST"');
    const otp = await partnerRequest(h, tenant, "/api/integrations/breb/kyc/otp/verify", {
      method: "POST",
      body: { email: "ana@example.com", code: "123456" },
    });
    const [otpLog] = (await logs(tenant, `?requestId=${otp.headers.get("x-request-id")}`)).data;
    expect(otpLog?.requestBody).toContain('"code":"[redacted]"');
    expect(otpLog?.requestBody).not.toContain("123456");
  });

  it("filters by request id, status and path, pages newest first, and shows an organization its own requests only", async () => {
    await partnerRequest(h, tenant, "/api/integrations/settlements/orders/ord_missing");
    await partnerRequest(h, tenant, "/api/integrations/settlements/orders");
    const notFound = (await logs(tenant, "?status=404")).data;
    expect(notFound.map((log) => [log.path, log.errorCode])).toEqual([
      ["/api/integrations/settlements/orders/ord_missing", "ORDER_NOT_FOUND"],
    ]);
    const settlements = (await logs(tenant, "?path=/api/integrations/settlements")).data;
    expect(settlements.every((log) => log.path.startsWith("/api/integrations/settlements"))).toBe(true);
    expect(settlements).toHaveLength(2);

    const all = (await logs(tenant)).data.map((log) => log.requestId);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      // Each page's own request is logged too, after the list was read: the pages see the log as it was.
      const page: ListRequestLogsResponse = await bodyOf(
        await partnerRequest(
          h,
          tenant,
          `/api/integrations/request-logs?limit=1${cursor ? `&cursor=${cursor}` : ""}`,
        ),
        listRequestLogs,
        200,
      );
      paged.push(...page.data.map((log) => log.requestId));
      cursor = page.nextCursor;
    } while (cursor && paged.length < 50);
    // Every entry listed before, in the same order; the first page may add the list's own request.
    expect(all.every((id) => paged.includes(id))).toBe(true);
    expect(paged.filter((id) => all.includes(id))).toEqual(all);

    const theirs = (await logs(stranger)).data;
    expect(theirs.every((log) => log.integrationId === stranger.integrationId)).toBe(true);
    expect(JSON.stringify(theirs)).not.toContain("hooks.example.com");
    const forged = await errorOf(
      await partnerRequest(h, tenant, "/api/integrations/request-logs?cursor=nope"),
      400,
    );
    expect(forged.problems?.map((problem) => problem.field)).toContain("query.cursor");
    // Year 0 parses as a date, but Postgres cannot hold it: refused, never a 500.
    const yearZero = await errorOf(
      await partnerRequest(h, tenant, "/api/integrations/request-logs?from=0000-01-01T00:00:00Z"),
      400,
    );
    expect(yearZero.problems?.map((problem) => problem.field)).toContain("query.from");
  });

  it("never fails or changes a request when its log cannot be written", async () => {
    // Every insert into the table fails from now on (a constraint no row meets; rows already there are
    // not checked), whatever statement, prepared or not, writes it.
    await h.database.db.execute(
      sql.raw("alter table request_logs add constraint request_logs_refuse check (false) not valid"),
    );
    try {
      const response = await partnerRequest(h, tenant, "/api/integrations/settlements/orders");
      expect(response.status).toBe(200);
      await h.settled();
      const requestId = response.headers.get("x-request-id") ?? "";
      expect(requestId).not.toBe("");
      const written = await h.database.db.select().from(requestLogs).where(eq(requestLogs.id, requestId));
      expect(written).toEqual([]);
      // The insert was tried, failed and was dropped with a warning naming the request.
      expect(h.logLines).toContainEqual(
        expect.objectContaining({ msg: "request log not written", requestId }),
      );
    } finally {
      await h.database.db.execute(sql.raw("alter table request_logs drop constraint request_logs_refuse"));
    }
  });

  it("keeps 7 days: older requests are neither listed nor kept once the sweep runs", async () => {
    const [before] = await h.database.db.select({ n: count() }).from(requestLogs);
    expect(before?.n).toBeGreaterThan(0);
    h.clock.advance(7 * 24 * 3_600_000 + 1_000);
    // This list's own request is the only one of the last 7 days when it is read.
    expect((await logs(tenant)).data).toEqual([]);
    await h.settled();
    const report = await runSweep(quietContext(h), [pruneRequestLogs]);
    expect(report[0]?.acted).toBe(before?.n);
    const [after] = await h.database.db.select({ n: count() }).from(requestLogs);
    expect(after?.n).toBe(1);
  });
});
