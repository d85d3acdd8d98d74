import { keccak256, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as confirmSwap } from "../../functions/swaps/confirm-swap";
import { type ListSwapsResponse, route as listSwaps } from "../../functions/swaps/list-swaps";
import { route as createApiKey } from "../../functions/tenancy/admin-create-api-key";
import { route as createIntegration } from "../../functions/tenancy/admin-create-integration";
import { newId } from "../../lib/kernel/ids";
import { swapIntents } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import {
  confirmRequest,
  listRequest,
  prepareSwap,
  sendPrepared,
  swapWallet,
  unitsOf,
  withoutRequestId,
} from "../harness/swaps";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ chains: true });
}, 60_000);
afterAll(() => h.close());

async function page(tenant: Tenant, query: Record<string, string | number>): Promise<ListSwapsResponse> {
  const response = await listRequest(h, tenant, { integration_id: tenant.integrationId, ...query });
  return bodyOf(response, listSwaps, 200);
}

/** Every page from `query`, following nextCursor; each page at most `limit` long. */
async function allPages(tenant: Tenant, query: Record<string, string | number>, limit: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const next = await page(tenant, { ...query, limit, ...(cursor ? { cursor } : {}) });
    expect(next.swaps.length).toBeLessThanOrEqual(limit);
    if (next.nextCursor) expect(next.swaps).toHaveLength(limit);
    ids.push(...next.swaps.map((swap) => swap.intentId));
    cursor = next.nextCursor;
    pages++;
  } while (cursor && pages < 1_000);
  return ids;
}

async function refused(response: Response, status: number, code: string) {
  const { status: actual, body } = await errorOf(response);
  expect(actual, JSON.stringify(body)).toBe(status);
  expect(body.error.code, JSON.stringify(body)).toBe(code);
  return body;
}

/** A second integration of the tenant's organization, with its own key. */
async function siblingIntegration(tenant: Tenant): Promise<Tenant> {
  const created = await adminRequest(h, `/admin/organizations/${tenant.organizationId}/integrations`, {
    method: "POST",
    body: { name: "Second app" },
  });
  const { integration } = await bodyOf(created, createIntegration, 201);
  const key = await adminRequest(h, `/admin/integrations/${integration.id}/keys`, {
    method: "POST",
    body: {},
  });
  const { apiKey } = await bodyOf(key, createApiKey, 201);
  return { organizationId: tenant.organizationId, integrationId: integration.id, apiKey };
}

let txCounter = 0;
/** A confirmed (or prepared, with `confirmedAt` null) swap row, written straight to swap_intents. */
function swapRow(owner: Tenant, confirmedAt: Date | null) {
  const createdAt = new Date(h.clock.now().getTime() - 60_000);
  txCounter++;
  return {
    id: newId("si", h.clock),
    organizationId: owner.organizationId,
    integrationId: owner.integrationId,
    wallet: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
    tokenIn: "USDC",
    tokenOut: "COPm",
    amountIn: 10_000_000n,
    expectedAmountOut: 38_000_000_000_000_000_000_000n,
    minAmountOut: 37_000_000_000_000_000_000_000n,
    slippageBps: 50,
    path: [],
    chainId: 31333,
    target: "0xac81E70942DF7b08238Cb09572b74F400AdE24C1",
    calldata: "0x",
    status: confirmedAt ? ("confirmed" as const) : ("prepared" as const),
    txHash: confirmedAt ? keccak256(toHex(`paging-${txCounter}`)) : null,
    amountInSwapped: confirmedAt ? 10_000_000n : null,
    amountOutReceived: confirmedAt ? 38_000_000_000_000_000_000_000n : null,
    blockNumber: confirmedAt ? BigInt(txCounter) : null,
    createdAt,
    expiresAt: new Date(createdAt.getTime() + 300_000),
    confirmedAt,
  };
}

describe("listing real swaps", () => {
  it("lists confirmed swaps by confirmation time (not preparation), pages them by cursor and since, and never lists a prepared intent", async () => {
    const tenant = await createTenant(h);
    const prepared = [];
    for (let i = 0; i < 4; i++) {
      const wallet = await swapWallet(h, { USDT: "10" });
      const swap = await prepareSwap(h, tenant, {
        wallet: wallet.address,
        tokenIn: "USDT",
        tokenOut: "COPm",
        amountIn: unitsOf("USDT", "10").toString(),
      });
      prepared.push({ intentId: swap.intentId, hash: await sendPrepared(h, wallet, swap) });
      h.clock.advance(1_000);
    }
    // Confirmed in the order C, A, B, one second apart; D is sent but never confirmed.
    const [a, b, c] = prepared as [(typeof prepared)[0], (typeof prepared)[0], (typeof prepared)[0]];
    const confirmedAt: Record<string, string> = {};
    for (const { intentId, hash } of [c, a, b]) {
      const response = await confirmRequest(h, tenant, intentId, { txHash: hash });
      const { confirmedAt: at } = await bodyOf(response, confirmSwap, 200);
      if (at === null) throw new Error(`${intentId} answered confirmed without confirmedAt`);
      confirmedAt[intentId] = at;
      h.clock.advance(1_000);
    }
    const order = [c.intentId, a.intentId, b.intentId];

    const everything = await page(tenant, {});
    expect(everything.swaps.map((swap) => swap.intentId)).toEqual(order);
    expect(everything.swaps.every((swap) => swap.status === "confirmed" && swap.txHash !== null)).toBe(true);
    expect(everything.nextCursor).toBeNull();

    // One at a time, then two and one.
    const first = await page(tenant, { limit: 1 });
    expect(first.swaps.map((swap) => swap.intentId)).toEqual([c.intentId]);
    expect(first.nextCursor).not.toBeNull();
    const second = await page(tenant, { limit: 1, cursor: first.nextCursor as string });
    expect(second.swaps.map((swap) => swap.intentId)).toEqual([a.intentId]);
    const third = await page(tenant, { limit: 1, cursor: second.nextCursor as string });
    expect(third.swaps.map((swap) => swap.intentId)).toEqual([b.intentId]);
    expect(third.nextCursor).toBeNull();
    expect(await allPages(tenant, {}, 2)).toEqual(order);
    // A page exactly as long as what is left is the last: no cursor to an empty page.
    expect((await page(tenant, { limit: 3 })).nextCursor).toBeNull();

    // since: confirmed at or after.
    const aAt = confirmedAt[a.intentId] as string;
    expect((await page(tenant, { since: aAt })).swaps.map((swap) => swap.intentId)).toEqual([
      a.intentId,
      b.intentId,
    ]);
    const justAfter = new Date(new Date(aAt).getTime() + 1).toISOString();
    expect((await page(tenant, { since: justAfter })).swaps.map((swap) => swap.intentId)).toEqual([
      b.intentId,
    ]);
    // The same instant with an offset.
    const bogotaAt = new Date(new Date(aAt).getTime() - 5 * 3_600_000).toISOString().replace("Z", "-05:00");
    expect((await page(tenant, { since: bogotaAt })).swaps.map((swap) => swap.intentId)).toEqual([
      a.intentId,
      b.intentId,
    ]);
    expect(await allPages(tenant, { since: aAt }, 1)).toEqual([a.intentId, b.intentId]);
  });
});

describe("listing many swaps", () => {
  const TOTAL = 601;
  let tenant: Tenant;
  let sibling: Tenant;
  let stranger: Tenant;
  /** The tenant's confirmed swaps in listing order: confirmation time, then id. */
  let expected: Array<{ id: string; confirmedAt: Date }>;

  beforeAll(async () => {
    tenant = await createTenant(h);
    sibling = await siblingIntegration(tenant);
    stranger = await createTenant(h, "Stranger");
    const base = h.clock.now().getTime();
    // Three swaps share each confirmation time, written in shuffled order, so ties are broken by id
    // and the insertion order tells nothing.
    const rows = Array.from({ length: TOTAL }, (_, i) =>
      swapRow(tenant, new Date(base + Math.floor(i / 3) * 1_000)),
    );
    const shuffled = rows
      .map((row, i) => ({ row, key: (i * 7919) % TOTAL }))
      .sort((x, y) => x.key - y.key)
      .map(({ row }) => row);
    const noise = [
      // Prepared intents of the tenant, and confirmed swaps of its sibling integration and a stranger.
      ...Array.from({ length: 20 }, () => swapRow(tenant, null)),
      ...Array.from({ length: 20 }, (_, i) => swapRow(sibling, new Date(base + i * 1_000))),
      ...Array.from({ length: 20 }, (_, i) => swapRow(stranger, new Date(base + i * 1_000))),
    ];
    await h.database.db.insert(swapIntents).values([...shuffled, ...noise]);
    expected = rows
      .map((row) => ({ id: row.id, confirmedAt: row.confirmedAt as Date }))
      .sort(
        (x, y) =>
          x.confirmedAt.getTime() - y.confirmedAt.getTime() || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0),
      );
  });

  it("answers 100 by default and up to 500 a page, then the rest, in confirmation order without repeats or gaps", async () => {
    const firstDefault = await page(tenant, {});
    expect(firstDefault.swaps.map((swap) => swap.intentId)).toEqual(
      expected.slice(0, 100).map((row) => row.id),
    );
    expect(firstDefault.nextCursor).not.toBeNull();

    const full = await page(tenant, { limit: 500 });
    expect(full.swaps).toHaveLength(500);
    expect(full.nextCursor).not.toBeNull();
    const rest = await page(tenant, { limit: 500, cursor: full.nextCursor as string });
    expect(rest.swaps).toHaveLength(TOTAL - 500);
    expect(rest.nextCursor).toBeNull();
    expect([...full.swaps, ...rest.swaps].map((swap) => swap.intentId)).toEqual(
      expected.map((row) => row.id),
    );
    // A last page exactly as long as the limit carries no cursor.
    const exact = await page(tenant, { limit: TOTAL - 500, cursor: full.nextCursor as string });
    expect(exact.swaps).toHaveLength(TOTAL - 500);
    expect(exact.nextCursor).toBeNull();
    // The default page size from a cursor too.
    expect((await page(tenant, { cursor: full.nextCursor as string })).swaps).toHaveLength(100);
  });

  it("pages through ties of the same confirmation time by id, with small pages, from any since", async () => {
    expect(await allPages(tenant, {}, 7)).toEqual(expected.map((row) => row.id));
    // since at a time three swaps share: all three, and everything after.
    const since = expected[301]?.confirmedAt as Date;
    const from = expected.filter((row) => row.confirmedAt.getTime() >= since.getTime()).map((row) => row.id);
    expect(from[0]).toBe(expected[300]?.id);
    expect(await allPages(tenant, { since: since.toISOString() }, 50)).toEqual(from);
    expect(await allPages(tenant, { since: since.toISOString() }, 2)).toEqual(from);
  });

  it("lists only the integration's own confirmed swaps: not its prepared intents, nor a sibling integration's or another organization's", async () => {
    const listed = await allPages(tenant, {}, 500);
    expect(listed).toHaveLength(TOTAL);
    expect(new Set(listed)).toEqual(new Set(expected.map((row) => row.id)));
    expect(await allPages(sibling, {}, 500)).toHaveLength(20);
    expect(await allPages(stranger, {}, 500)).toHaveLength(20);
    expect((await allPages(sibling, {}, 500)).some((id) => listed.includes(id))).toBe(false);
  });

  it("refuses a limit above 500 or below 1, and a malformed limit, since or integration_id, with INVALID_REQUEST", async () => {
    for (const limit of ["501", "1000", "0", "-1", "1.5", "abc", ""]) {
      const body = await refused(
        await listRequest(h, tenant, { integration_id: tenant.integrationId, limit }),
        400,
        "INVALID_REQUEST",
      );
      expect(body.error.problems?.[0]?.field, limit).toBe("query.limit");
    }
    expect((await page(tenant, { limit: 500 })).swaps).toHaveLength(500);
    expect((await page(tenant, { limit: 1 })).swaps).toHaveLength(1);
    for (const since of ["yesterday", "2026-13-01T00:00:00Z", "1700000000", "0000-01-01T00:00:00Z"]) {
      const body = await refused(
        await listRequest(h, tenant, { integration_id: tenant.integrationId, since }),
        400,
        "INVALID_REQUEST",
      );
      expect(body.error.problems?.[0]?.field, since).toBe("query.since");
    }
    await refused(await listRequest(h, tenant, {}), 400, "INVALID_REQUEST");
  });

  it("refuses a cursor that no page gave with INVALID_REQUEST", async () => {
    const real = (await page(tenant, { limit: 1 })).nextCursor as string;
    const [at, id] = atob(real).split("|") as [string, string];
    const encode = (text: string) => btoa(text).replace(/=+$/, "");
    for (const cursor of [
      "garbage",
      "!!!",
      `${real}!`,
      encode(`${at}|`),
      encode(`${at}|nope`),
      encode(`${at}|${id.toLowerCase()}`),
      encode(`not a date|${id}`),
      encode(at),
      "",
      // Instants JavaScript parses but Postgres cannot store (issue 20, finding 7: each was a 500).
      encode(`0000-01-01T00:00:00.000Z|${id}`),
      encode(`-000001-01-01T00:00:00.000Z|${id}`),
      encode(`+275760-09-13T00:00:00.000Z|${id}`),
      encode(`+010000-01-01T00:00:00.000Z|${id}`),
    ]) {
      const body = await refused(
        await listRequest(h, tenant, { integration_id: tenant.integrationId, cursor }),
        400,
        "INVALID_REQUEST",
      );
      expect(body.error.problems?.[0]?.field, cursor).toBe("query.cursor");
    }
  });

  it("answers a sibling integration's id, another organization's and a missing one with one 404 body", async () => {
    const bodies: Array<ReturnType<typeof withoutRequestId>> = [];
    for (const integrationId of [
      sibling.integrationId,
      stranger.integrationId,
      "int_01KAZ6XQ4R8N2M5V7B9C1D3F5G",
    ]) {
      const body = await refused(
        await listRequest(h, tenant, { integration_id: integrationId }),
        404,
        "INTEGRATION_NOT_FOUND",
      );
      expect(body.error.requestId).toBeDefined();
      bodies.push(withoutRequestId(body));
    }
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
    // The sibling's own key reaches its own list, and not the tenant's.
    expect((await page(sibling, {})).swaps).toHaveLength(20);
    await refused(
      await listRequest(h, sibling, { integration_id: tenant.integrationId }),
      404,
      "INTEGRATION_NOT_FOUND",
    );
  });
});
