import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { deliveredOrder } from "../harness/burns";
import { settlementSuite } from "../harness/settlement";
import { adminRequest, type Tenant } from "../harness/tenants";

/**
 * The operator's movements report (issue 38): an organization's statement lines of a month, of the
 * records worth at least an amount, in the statement's CSV format with totals of the rows shown.
 */

let h: Harness;
let tenant: Tenant;
let big: string;
let small: string;

function report(query: string, organizationId = tenant.organizationId) {
  return adminRequest(h, `/admin/organizations/${organizationId}/compliance/movements?${query}`);
}

/** The CSV's rows as field lists (no field here holds a comma). */
async function rows(response: Response): Promise<string[][]> {
  expect(response.status).toBe(200);
  return (await response.text())
    .trim()
    .split("\r\n")
    .map((line) => line.split(","));
}

beforeAll(async () => {
  ({ h, tenant } = await settlementSuite());
  big = (await deliveredOrder(h, tenant, "60")).orderId;
  small = (await deliveredOrder(h, tenant, "20")).orderId;
}, 180_000);

afterAll(async () => {
  await h?.close();
});

describe("the movements report", () => {
  it("lists the month's movements of the records worth at least the amount, in the statement's format", async () => {
    const month = h.clock.now().toISOString().slice(0, 7);
    const response = await report(`month=${month}&minUsd=50`);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="movements-${tenant.organizationId}-${month}.csv"`,
    );
    const [header, ...body] = await rows(response);
    expect(header).toEqual([
      "at",
      "type",
      "id",
      "leg",
      "tx_hash",
      "token",
      "chain_id",
      "amount",
      "counterparty",
      "running_total",
    ]);
    const movements = body.filter((row) => row[1] !== "total");
    expect(movements.length).toBeGreaterThan(2);
    expect(new Set(movements.map((row) => row[2]))).toEqual(new Set([big]));
    expect(body.some((row) => row[1] === "total")).toBe(true);

    const both = (await rows(await report(`month=${month}&minUsd=10`))).filter((row) => row[1] !== "total");
    expect(new Set(both.slice(1).map((row) => row[2]))).toEqual(new Set([big, small]));
  });

  it("is empty for another month, and refuses a month that is not YYYY-MM", async () => {
    const [, ...body] = await rows(await report("month=2001-01&minUsd=1"));
    expect(body).toEqual([]);
    expect((await errorOf(await report("month=2026-13&minUsd=1"), 400)).code).toBe("INVALID_REQUEST");
    expect((await errorOf(await report("month=2026-11&minUsd=abc"), 400)).code).toBe("INVALID_REQUEST");
    expect((await errorOf(await report("month=2026-11&minUsd=1", "org_missing"), 404)).code).toBe(
      "ORGANIZATION_NOT_FOUND",
    );
  });
});
