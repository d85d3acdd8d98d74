import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

describe("listing events: bad queries", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness();
    tenant = await createTenant(h);
  });
  afterAll(() => h.close());

  it.each([
    ["limit=0", "limit"],
    ["limit=501", "limit"],
    ["limit=1.5", "limit"],
    ["limit=ten", "limit"],
    ["type=settlement.order.lost", "type"],
    ["type=", "type"],
    ["since=yesterday", "since"],
    ["since=2026-11-22", "since"],
    ["since=0000-01-01T00:00:00Z", "since"],
    ["cursor=ord_01KAZ6XQ4R0000000000000000", "cursor"],
    ["cursor=evt_short", "cursor"],
  ])("refuses %s with 400 INVALID_REQUEST naming the %s field", async (query, field) => {
    const response = await partnerRequest(h, tenant, `/api/integrations/webhooks/events?${query}`);
    const error = await errorOf(response, 400);
    expect(error.code).toBe("INVALID_REQUEST");
    expect(error.problems?.map((problem) => problem.field)).toEqual([`query.${field}`]);
  });
});
