import { eq } from "drizzle-orm";
import { base64url } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GetStatementResponse, route as getStatement } from "../../functions/ledger/get-statement";
import { route as getPayout } from "../../functions/payouts/get-payout";
import { route as getOrder } from "../../functions/settlement/get-order";
import { route as getSwap } from "../../functions/swaps/get-swap";
import { serviceContext } from "../../lib/http/deps";
import { statementPreview } from "../../lib/ledger/statement-views";
import { callerOfIntegration } from "../../lib/tenancy/authenticate";
import { swapIntents } from "../../schema";
import { createHarness, HARNESS_CLOCK_START, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { deliveredOrder } from "../harness/burns";
import { describePartnerRouteSecurity } from "../harness/partner-security";
import { approvedUser, confirmedPayout } from "../harness/payouts";
import { copmFor, enableBurnPlan, partnerRequest } from "../harness/settlement";
import { confirmedSwap } from "../harness/swaps";
import { createTenant, type Tenant } from "../harness/tenants";

type Statement = GetStatementResponse;

let h: Harness;
let tenant: Tenant;
const day = {
  from: HARNESS_CLOCK_START.toISOString(),
  to: new Date(HARNESS_CLOCK_START.getTime() + 86_400_000).toISOString(),
};
const records: { orderId: string; payoutId: string; intentId: string } = {
  orderId: "",
  payoutId: "",
  intentId: "",
};

const statement = (caller: Tenant, query: Record<string, string | number>) =>
  partnerRequest(
    h,
    caller,
    `/api/integrations/statements?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
  );

async function page(caller: Tenant, query: Record<string, string | number>): Promise<Statement> {
  return bodyOf(await statement(caller, query), getStatement, 200);
}

/** A day with a delivered settlement, a completed payout and a confirmed swap, on the harness clock. */
beforeAll(async () => {
  h = await createHarness({ chains: true, payouts: true });
  tenant = await createTenant(h);
  await enableBurnPlan(h, tenant);

  records.orderId = (await deliveredOrder(h, tenant, "80")).orderId;

  const user = await approvedUser(h, tenant, { usdc: "100" });
  const { payoutId } = await confirmedPayout(h, tenant, user);
  await h.jobs.drain();
  h.clock.advance(2_000);
  await h.breb?.settle();
  records.payoutId = payoutId;

  records.intentId = (await confirmedSwap(h, tenant, "5")).intentId;
}, 120_000);
afterAll(() => h.close());

async function callerOf(owner: Tenant) {
  const caller = await callerOfIntegration(
    serviceContext(h.deps, h.database.db, h.deps.logger),
    owner.integrationId,
  );
  if (!caller) throw new Error("no caller");
  return caller;
}

/** A record's receipt, read with its own route. */
const receiptOf = async (path: string, route: typeof getOrder | typeof getPayout | typeof getSwap) =>
  (await bodyOf(await partnerRequest(h, tenant, path), route, 200)).receipt;

describe("GET /api/integrations/statements", () => {
  it("lists a day's movements of settlements, payouts and swaps, and balances per token: each total is what the records hold", async () => {
    const whole = await page(tenant, { ...day, limit: 1000 });
    expect(whole.nextCursor).toBeNull();
    expect(new Set(whole.lines.map((line) => line.type))).toEqual(
      new Set(["settlement_order", "payout", "swap"]),
    );
    expect(new Set(whole.lines.map((line) => line.id))).toEqual(
      new Set([records.orderId, records.payoutId, records.intentId]),
    );
    const times = whole.lines.map((line) => Date.parse(line.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // Each line's running total is the sum of its token's lines up to it; the closing totals are
    // those sums; and they equal what the three records' receipts say they still hold.
    const sums = new Map<string, bigint>();
    for (const line of whole.lines) {
      const key = `${line.token}:${line.chainId}`;
      sums.set(key, (sums.get(key) ?? 0n) + BigInt(line.amount));
      expect(line.runningTotal, `${line.leg} ${key}`).toBe(String(sums.get(key)));
    }
    expect(Object.fromEntries(whole.closingTotals.map((t) => [`${t.token}:${t.chainId}`, t.amount]))).toEqual(
      Object.fromEntries([...sums].map(([key, sum]) => [key, String(sum)])),
    );
    const held = [
      ...(await receiptOf(`/api/integrations/settlements/orders/${records.orderId}`, getOrder)).residue,
      ...(await receiptOf(`/api/integrations/breb/payouts/${records.payoutId}`, getPayout)).residue,
      ...(await receiptOf(`/api/integrations/swaps/${records.intentId}`, getSwap)).residue,
    ];
    const nonZero = whole.closingTotals.filter((total) => total.amount !== "0");
    expect(nonZero).toEqual(held);
    // Only what Circle did not take of the settlement's upfront fee: USDC, held on one chain.
    expect(held.map((entry) => entry.token)).toEqual(["USDC"]);
  });

  it("pages with a cursor: the pages are the statement, each opening where the last closed", async () => {
    const whole = await page(tenant, { ...day, limit: 1000 });
    const pages: Statement[] = [];
    let cursor: string | null = null;
    do {
      const next: Statement = await page(tenant, { ...day, limit: 4, ...(cursor ? { cursor } : {}) });
      pages.push(next);
      cursor = next.nextCursor;
    } while (cursor);
    expect(pages.length).toBe(Math.ceil(whole.lines.length / 4));
    expect(pages.flatMap((p) => p.lines)).toEqual(whole.lines);
    expect(pages[0]?.openingTotals).toEqual([]);
    for (let index = 1; index < pages.length; index++) {
      expect(pages[index]?.openingTotals).toEqual(pages[index - 1]?.closingTotals);
    }
    expect(pages.at(-1)?.closingTotals).toEqual(whole.closingTotals);

    // The SDK iterates the same lines, a page of 3 at a time.
    const copm = copmFor(h, tenant);
    const iterated = [];
    for await (const line of copm.each.statementLines({ ...day, limit: 3 })) iterated.push(line);
    expect(iterated).toEqual(whole.lines);
  });

  it("previews a period for the dashboard: its first lines, and the totals of all of it", async () => {
    const whole = await page(tenant, { ...day, limit: 1000 });
    const preview = await statementPreview(
      { ...serviceContext(h.deps, h.database.db, h.deps.logger), caller: await callerOf(tenant) },
      { from: new Date(day.from), to: new Date(day.to), limit: 2 },
    );
    expect(preview.count).toBe(whole.lines.length);
    expect(preview.lines).toEqual(whole.lines.slice(0, 2));
    expect(preview.totals).toEqual(whole.closingTotals);
  });

  it("streams the same statement as CSV, ending with one total row per token and chain", async () => {
    const whole = await page(tenant, { ...day, limit: 1000 });
    const response = await statement(tenant, { ...day, format: "csv" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="statement-${day.from.slice(0, 10)}-${day.to.slice(0, 10)}.csv"`,
    );
    expect(response.headers.get("api-version")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const rows = (await response.text())
      .trimEnd()
      .split("\r\n")
      .map((row) => row.split(","));
    expect(rows[0]).toEqual([
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
    const body = rows.slice(1, 1 + whole.lines.length);
    expect(body.map((row) => [row[0], row[2], row[3], row[5], row[7], row[9]])).toEqual(
      whole.lines.map((line) => [line.at, line.id, line.leg, line.token, line.amount, line.runningTotal]),
    );
    const totals = rows.slice(1 + whole.lines.length);
    expect(totals.map((row) => [row[1], row[5], Number(row[6]), row[7]])).toEqual(
      whole.closingTotals.map((total) => ["total", total.token, total.chainId, total.amount]),
    );
  });

  it("shows an organization only its own movements", async () => {
    const stranger = await createTenant(h, "Stranger");
    expect(await page(stranger, { ...day })).toEqual({
      from: day.from,
      to: day.to,
      openingTotals: [],
      lines: [],
      closingTotals: [],
      nextCursor: null,
    });
    const csv = await (await statement(stranger, { ...day, format: "csv" })).text();
    expect(csv.trimEnd().split("\r\n")).toHaveLength(1);
  });

  it("refuses a period that ends before it starts or runs past 366 days, and a forged cursor, naming the field", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ from: day.to, to: day.from }, "query.to"],
      [{ from: day.from, to: day.from }, "query.to"],
      [{ from: "2025-01-01T00:00:00Z", to: "2026-01-03T00:00:00Z" }, "query.to"],
      [{ to: day.to }, "query.from"],
      [{ from: "yesterday", to: day.to }, "query.from"],
      // Instants V8's Date.parse would read (a comment, a rolled-over day, no time): the CSV's file
      // name is built from the parsed period, and only a strict ISO 8601 instant gets that far.
      [{ from: day.from, to: `2026-11-23 12:00:00Z(";filename*=UTF-8''evil.html;x="` }, "query.to"],
      [{ from: day.from, to: "2026-11-31T00:00:00Z" }, "query.to"],
      [{ from: "2026-11-22", to: day.to }, "query.from"],
      [{ ...day, cursor: "bm90LWEtY3Vyc29y" }, "query.cursor"],
      [{ ...day, format: "xlsx" }, "query.format"],
      [{ ...day, limit: "1001" }, "query.limit"],
    ];
    for (const [query, field] of cases) {
      const error = await errorOf(await statement(tenant, query), 400);
      expect(error.code, JSON.stringify(query)).toBe("INVALID_REQUEST");
      expect(
        error.problems?.map((problem) => problem.field),
        JSON.stringify(query),
      ).toEqual([field]);
    }
  });
});

describe("statement cursors (issue 37, finding 3)", () => {
  it("refuse an offset, a tampered cursor, and one of another period or organization, with 400 naming query.cursor", async () => {
    const { nextCursor } = await page(tenant, { ...day, limit: 2 });
    if (!nextCursor) throw new Error("the day has more than two lines");
    // The last character carries only part of its six bits: change one in the middle.
    const at = Math.floor(nextCursor.length / 2);
    const tampered = `${nextCursor.slice(0, at)}${nextCursor[at] === "A" ? "B" : "A"}${nextCursor.slice(at + 1)}`;
    const stranger = await createTenant(h, "Cursor thief");
    const cases: Array<[Tenant, Record<string, string>]> = [
      // The whole period read to skip nothing: an offset is no cursor.
      [tenant, { ...day, cursor: base64url.encode(JSON.stringify({ skip: Number.MAX_SAFE_INTEGER })) }],
      [tenant, { ...day, cursor: base64url.encode(JSON.stringify({ skip: 2 })) }],
      [tenant, { ...day, cursor: tampered }],
      [tenant, { ...day, to: new Date(Date.parse(day.to) + 3_600_000).toISOString(), cursor: nextCursor }],
      [stranger, { ...day, cursor: nextCursor }],
    ];
    for (const [caller, query] of cases) {
      const error = await errorOf(await statement(caller, query), 400);
      expect(error.code, JSON.stringify(query)).toBe("INVALID_REQUEST");
      expect(
        error.problems?.map((problem) => problem.field),
        JSON.stringify(query),
      ).toEqual(["query.cursor"]);
    }
    // The untouched cursor still opens its page.
    expect((await page(tenant, { ...day, limit: 2, cursor: nextCursor })).lines.length).toBeGreaterThan(0);
  });

  it("name the last line they saw: a record dated before the cursor later does not shift the next page", async () => {
    const owner = await createTenant(h, "Keyset");
    const first = (await confirmedSwap(h, owner, "1")).intentId;
    const second = (await confirmedSwap(h, owner, "2")).intentId;
    const before = await page(owner, { ...day, limit: 1000 });
    const firstLines = before.lines.filter((line) => line.id === first);
    const one = await page(owner, { ...day, limit: firstLines.length });
    expect(one.lines).toEqual(firstLines);
    expect(one.nextCursor).not.toBeNull();

    // A third swap, dated before the first: the statement now opens with its lines.
    const third = (await confirmedSwap(h, owner, "3")).intentId;
    const firstAt = Date.parse(firstLines[0]?.at ?? "");
    await h.database.db
      .update(swapIntents)
      .set({ confirmedAt: new Date(firstAt - 1_000) })
      .where(eq(swapIntents.id, third));

    const two = await page(owner, { ...day, limit: 1000, cursor: one.nextCursor as string });
    expect(new Set(two.lines.map((line) => line.id))).toEqual(new Set([second]));
    expect(two.lines).toEqual(before.lines.filter((line) => line.id === second));
    expect(two.openingTotals).toEqual(one.closingTotals);
  });
});

describePartnerRouteSecurity("GET /api/integrations/statements", () => h, {
  method: "GET",
  path: () => `/api/integrations/statements?from=${day.from}&to=${day.to}`,
});
