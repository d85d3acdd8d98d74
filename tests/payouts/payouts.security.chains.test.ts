import { keccak256, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as listPayouts } from "../../functions/payouts/list-payouts";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { OTHER_USER, walletSessionOf } from "../harness/identity";
import { describePartnerRouteSecurity } from "../harness/partner-security";
import {
  approvedUser,
  brebRequest,
  confirmRequest,
  createdPayout,
  fund,
  payoutBody,
  payoutRow,
  quoteFor,
  readPayout,
  requestPayout,
  sendDeposit,
} from "../harness/payouts";
import { createTenant, type Tenant } from "../harness/tenants";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ chains: true, payouts: true });
}, 60_000);
afterAll(() => h.close());

const MISSING_PAYOUT = "po_00000000000000000000000000";
const SOME_HASH = keccak256(toHex("some deposit"));

/** A payout of the owner's, awaiting its deposit: its id. */
async function ownersPayout(owner: Tenant): Promise<string> {
  const user = await approvedUser(h, owner, {});
  return (await createdPayout(h, owner, user)).payout.payoutId;
}

describePartnerRouteSecurity("GET /api/integrations/breb/quote", () => h, {
  method: "GET",
  path: () => "/api/integrations/breb/quote?destinationCop=100000&fromToken=USDC",
});
describePartnerRouteSecurity("POST /api/integrations/breb/payouts", () => h, {
  method: "POST",
  path: () => "/api/integrations/breb/payouts",
  body: {
    quoteId: "bq_00000000000000000000000000",
    userAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    breBKey: "3001234567",
    accountOwnerName: "Ana Pérez",
  },
});
describePartnerRouteSecurity("POST /api/integrations/breb/payouts/{payoutId}/confirm", () => h, {
  method: "POST",
  path: async (owner) => `/api/integrations/breb/payouts/${await ownersPayout(owner)}/confirm`,
  body: { txHash: SOME_HASH },
  missingPath: `/api/integrations/breb/payouts/${MISSING_PAYOUT}/confirm`,
});
describePartnerRouteSecurity("GET /api/integrations/breb/payouts/{payoutId}", () => h, {
  method: "GET",
  path: async (owner) => `/api/integrations/breb/payouts/${await ownersPayout(owner)}`,
  missingPath: `/api/integrations/breb/payouts/${MISSING_PAYOUT}`,
});
describePartnerRouteSecurity("GET /api/integrations/breb/payouts", () => h, {
  method: "GET",
  path: () => "/api/integrations/breb/payouts",
});

async function listOf(caller: Tenant | "miniapp", query = "", headers: Record<string, string> = {}) {
  const response = await brebRequest(h, caller, `/payouts${query}`, { headers });
  return bodyOf(response, listPayouts, 200);
}

describe("payouts across organizations", () => {
  it("another organization reads, lists and confirms the owner's payout exactly as a missing one, and moves nothing", async () => {
    const owner = await createTenant(h);
    const stranger = await createTenant(h, "Stranger");
    const user = await approvedUser(h, owner);
    const creation = await createdPayout(h, owner, user);
    const payoutId = creation.payout.payoutId;
    const hash = await sendDeposit(h, user, creation);

    const strip = (error: Awaited<ReturnType<typeof errorOf>>) => ({
      ...error.body.error,
      requestId: undefined,
    });
    const missingRead = await errorOf(await brebRequest(h, stranger, `/payouts/${MISSING_PAYOUT}`));
    const foreignRead = await errorOf(await brebRequest(h, stranger, `/payouts/${payoutId}`));
    expect([foreignRead.status, foreignRead.code]).toEqual([404, "PAYOUT_NOT_FOUND"]);
    expect(strip(foreignRead)).toEqual(strip(missingRead));

    const missingConfirm = await errorOf(await confirmRequest(h, stranger, MISSING_PAYOUT, hash));
    const foreignConfirm = await errorOf(await confirmRequest(h, stranger, payoutId, hash));
    expect([foreignConfirm.status, foreignConfirm.code]).toEqual([404, "PAYOUT_NOT_FOUND"]);
    expect(strip(foreignConfirm)).toEqual(strip(missingConfirm));
    expect((await readPayout(h, owner, payoutId)).status).toBe("awaiting_deposit");

    expect((await listOf(stranger)).payouts).toEqual([]);
    expect((await listOf(stranger, `?userAddress=${user.address}`)).payouts).toEqual([]);
    expect((await listOf(stranger, "?status=awaiting_deposit")).payouts).toEqual([]);
    expect((await listOf(owner)).payouts.map((payout) => payout.payoutId)).toEqual([payoutId]);

    // The owner still confirms its own deposit.
    const confirmed = await confirmRequest(h, owner, payoutId, hash);
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  });

  it("another organization cannot create a payout on the owner's quote (QUOTE_NOT_FOUND) nor replay the owner's Idempotency-Key", async () => {
    const owner = await createTenant(h);
    const stranger = await createTenant(h, "Stranger");
    const ownerUser = await approvedUser(h, owner, {});
    const strangerUser = await approvedUser(h, stranger, {});
    const quote = await quoteFor(h, owner);
    const created = await requestPayout(h, owner, "shared-key", payoutBody(quote.quoteId, ownerUser));
    expect(created.status).toBe(201);
    const stolen = await errorOf(
      await requestPayout(h, stranger, "shared-key", payoutBody(quote.quoteId, ownerUser)),
    );
    expect([stolen.status, stolen.code]).toEqual([404, "QUOTE_NOT_FOUND"]);
    // The same key is the stranger's own: it creates the stranger's payout on the stranger's quote.
    const own = await quoteFor(h, stranger);
    const mine = await requestPayout(h, stranger, "shared-key", payoutBody(own.quoteId, strangerUser));
    expect(mine.status, await mine.clone().text()).toBe(201);
  });
});

describe("the miniapp prefix /api/breb (mock mode)", () => {
  it("lets nobody without the user's wallet read, list or confirm a payout there, where anyone may call (issue 20, finding 1)", async () => {
    const miniapp = await createTenant(h, "Miniapp");
    const config = h.deps.config as { MINIAPP_INTEGRATION_ID?: string };
    config.MINIAPP_INTEGRATION_ID = miniapp.integrationId;
    try {
      const user = await approvedUser(h, "miniapp", {});
      await fund(h, miniapp, user.address, { usdc: "100" });
      const creation = await createdPayout(h, "miniapp", user);
      const { payoutId } = creation.payout;
      const hash = await sendDeposit(h, user, creation);
      const stranger = { "wallet-session": await walletSessionOf(h, "miniapp", OTHER_USER) };
      for (const headers of [{}, stranger]) {
        for (const [path, init] of [
          [`/payouts/${payoutId}`, {}],
          [`/payouts?userAddress=${user.address}`, {}],
          ["/payouts", {}],
          [`/payouts/${payoutId}/confirm`, { method: "POST", body: { txHash: hash } }],
        ] as const) {
          const refused = await errorOf(await brebRequest(h, "miniapp", path, { ...init, headers }));
          expect([refused.status, refused.code], path).toEqual([403, "WALLET_SESSION_REQUIRED"]);
        }
      }
      expect((await payoutRow(h, payoutId))?.status).toBe("awaiting_deposit");
      // The partner's key reads its own integration's payouts as before; the user's wallet reads them here.
      expect((await brebRequest(h, miniapp, `/payouts?userAddress=${user.address}`)).status).toBe(200);
      const own = { "wallet-session": await walletSessionOf(h, "miniapp", user.address) };
      const listed = await brebRequest(h, "miniapp", `/payouts?userAddress=${user.address}`, {
        headers: own,
      });
      expect(listed.status, await listed.clone().text()).toBe(200);
    } finally {
      delete config.MINIAPP_INTEGRATION_ID;
    }
  });

  it("answers 404 for the payout routes without MINIAPP_INTEGRATION_ID", async () => {
    for (const [method, path] of [
      ["GET", "/quote?destinationCop=100000&fromToken=USDC"],
      ["POST", "/payouts"],
      ["GET", "/payouts"],
      ["GET", `/payouts/${MISSING_PAYOUT}`],
      ["POST", `/payouts/${MISSING_PAYOUT}/confirm`],
    ] as const) {
      const response = await brebRequest(h, "miniapp", path, {
        method,
        ...(method === "POST" ? { body: {} } : {}),
      });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
  });

  it("serves quote, create, confirm, read and list without a key, as the configured integration only", async () => {
    const miniapp = await createTenant(h, "Miniapp");
    const partner = await createTenant(h, "Partner");
    const config = h.deps.config as { MINIAPP_INTEGRATION_ID?: string };
    config.MINIAPP_INTEGRATION_ID = miniapp.integrationId; // what `npm run dev` sets
    try {
      const user = await approvedUser(h, "miniapp", {});
      await fund(h, miniapp, user.address, { usdc: "100" });
      const creation = await createdPayout(h, "miniapp", user);
      const payoutId = creation.payout.payoutId;
      expect(creation.payout.status).toBe("awaiting_deposit");
      const hash = await sendDeposit(h, user, creation);
      // Without a key, anyone may call: the user's wallet session says who asks.
      const wallet = { "wallet-session": await walletSessionOf(h, "miniapp", user.address) };
      const confirmed = await confirmRequest(h, "miniapp", payoutId, hash, wallet);
      expect(confirmed.status, await confirmed.clone().text()).toBe(200);
      expect((await readPayout(h, "miniapp", payoutId, wallet)).status).toBe("deposit_confirmed");
      const mine = `?userAddress=${user.address}`;
      expect((await listOf("miniapp", mine, wallet)).payouts.map((payout) => payout.payoutId)).toEqual([
        payoutId,
      ]);
      // The miniapp's integration sees the same payout with its key; another organization does not.
      expect((await readPayout(h, miniapp, payoutId)).status).toBe("deposit_confirmed");
      expect((await brebRequest(h, partner, `/payouts/${payoutId}`)).status).toBe(404);

      // And the miniapp sees nothing of another organization's.
      const partnerUser = await approvedUser(h, partner, {});
      const partners = await createdPayout(h, partner, partnerUser);
      const foreign = await errorOf(
        await brebRequest(h, "miniapp", `/payouts/${partners.payout.payoutId}`, { headers: wallet }),
      );
      expect([foreign.status, foreign.code]).toEqual([404, "PAYOUT_NOT_FOUND"]);
      expect((await listOf("miniapp", mine, wallet)).payouts.map((payout) => payout.payoutId)).toEqual([
        payoutId,
      ]);
    } finally {
      delete config.MINIAPP_INTEGRATION_ID;
    }
  });
});
