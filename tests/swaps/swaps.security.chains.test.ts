import { type Hex, keccak256, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as confirmSwap } from "../../functions/swaps/confirm-swap";
import { route as getSwap } from "../../functions/swaps/get-swap";
import { route as listSwaps } from "../../functions/swaps/list-swaps";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { describePartnerRouteSecurity } from "../harness/partner-security";
import {
  confirmRequest,
  getSwapRequest,
  listRequest,
  minedSwap,
  prepareSwap,
  sendPrepared,
  swapWallet,
  unitsOf,
  withoutRequestId,
} from "../harness/swaps";
import { createTenant, type Tenant } from "../harness/tenants";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ chains: true });
}, 60_000);
afterAll(() => h.close());

const WALLET = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const PREPARE_BODY = { wallet: WALLET, tokenIn: "USDC", tokenOut: "COPm", amountIn: "10000000" };
const MISSING_INTENT = "si_01KAZ6XQ4R8N2M5V7B9C1D3F5G";
const MISSING_INTEGRATION = "int_01KAZ6XQ4R8N2M5V7B9C1D3F5G";
const SOME_HASH: Hex = keccak256(toHex("some transaction"));

/** An intent the owner prepared (no funds needed to prepare). */
async function ownedIntent(owner: Tenant): Promise<string> {
  return (await prepareSwap(h, owner, PREPARE_BODY)).intentId;
}

describePartnerRouteSecurity("POST /api/integrations/swaps/prepare", () => h, {
  method: "POST",
  path: () => "/api/integrations/swaps/prepare",
  body: PREPARE_BODY,
});

describePartnerRouteSecurity("POST /api/integrations/swaps/{intentId}/confirm", () => h, {
  method: "POST",
  path: async (owner) => `/api/integrations/swaps/${await ownedIntent(owner)}/confirm`,
  body: { txHash: SOME_HASH },
  missingPath: `/api/integrations/swaps/${MISSING_INTENT}/confirm`,
});

describePartnerRouteSecurity("GET /api/integrations/swaps/{intentId}", () => h, {
  method: "GET",
  path: async (owner) => `/api/integrations/swaps/${await ownedIntent(owner)}`,
  missingPath: `/api/integrations/swaps/${MISSING_INTENT}`,
});

describePartnerRouteSecurity("GET /api/integrations/swaps", () => h, {
  method: "GET",
  path: (owner) => `/api/integrations/swaps?integration_id=${owner.integrationId}`,
  missingPath: `/api/integrations/swaps?integration_id=${MISSING_INTEGRATION}`,
});

describe("another organization's swaps", () => {
  it("are SWAP_NOT_FOUND for get and confirm, with exactly a missing intent's body, and the stranger's attempt changes nothing", async () => {
    const owner = await createTenant(h);
    const stranger = await createTenant(h, "Stranger");
    // One swap confirmed, one sent on chain but not yet confirmed: a real hash for each.
    const swaps = [];
    for (let i = 0; i < 2; i++) {
      const wallet = await swapWallet(h, { USDC: "10" });
      const prepared = await prepareSwap(h, owner, {
        wallet: wallet.address,
        tokenIn: "USDC",
        tokenOut: "COPm",
        amountIn: unitsOf("USDC", "10").toString(),
      });
      swaps.push({ intentId: prepared.intentId, hash: await sendPrepared(h, wallet, prepared) });
    }
    const [done, sent] = swaps as [(typeof swaps)[0], (typeof swaps)[0]];
    expect((await confirmRequest(h, owner, done.intentId, { txHash: done.hash })).status).toBe(200);

    const missing = async (response: Response) => {
      const { status, body } = await errorOf(response);
      expect(status).toBe(404);
      expect(body.error.code).toBe("SWAP_NOT_FOUND");
      return withoutRequestId(body);
    };
    const notFound = await missing(await getSwapRequest(h, stranger, MISSING_INTENT));
    for (const { intentId, hash } of [done, sent]) {
      expect(await missing(await getSwapRequest(h, stranger, intentId))).toEqual(notFound);
      // Its own hash, another one, or the other swap's: the answer never reads the chain or the hash.
      for (const txHash of [hash, SOME_HASH, done.hash]) {
        expect(await missing(await confirmRequest(h, stranger, intentId, { txHash }))).toEqual(
          await missing(await confirmRequest(h, stranger, MISSING_INTENT, { txHash })),
        );
      }
    }
    expect(notFound).toEqual(
      await missing(await confirmRequest(h, stranger, MISSING_INTENT, { txHash: SOME_HASH })),
    );

    // The owner still sees both as they were, and confirms the pending one with its hash.
    const view = async (intentId: string) => bodyOf(await getSwapRequest(h, owner, intentId), getSwap, 200);
    expect(await view(done.intentId)).toMatchObject({ status: "confirmed", txHash: done.hash.toLowerCase() });
    expect(await view(sent.intentId)).toMatchObject({ status: "prepared", txHash: null });
    const confirmed = await confirmRequest(h, owner, sent.intentId, { txHash: sent.hash });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);

    // Nor does the stranger's own listing show them.
    const strangerList = await bodyOf(
      await listRequest(h, stranger, { integration_id: stranger.integrationId }),
      listSwaps,
      200,
    );
    expect(strangerList.swaps).toEqual([]);
    // And the owner's integration id, from the stranger's key, is a missing integration.
    const foreignList = await errorOf(
      await listRequest(h, stranger, { integration_id: owner.integrationId }),
    );
    expect(foreignList.status).toBe(404);
    const missingList = await errorOf(
      await listRequest(h, stranger, { integration_id: MISSING_INTEGRATION }),
    );
    expect(withoutRequestId(foreignList.body)).toEqual(withoutRequestId(missingList.body));
    expect(foreignList.body.error.code).toBe("INTEGRATION_NOT_FOUND");
  });
});

describe("a swap transaction proves which intent it executes (issue 20, finding 2)", () => {
  it("refuses the owner's mined hash to a look-alike intent prepared afterwards, by another organization or the owner's own, and the owner then confirms it", async () => {
    const owner = await createTenant(h);
    const stranger = await createTenant(h, "Look-alike");
    const { body, prepared, hash } = await minedSwap(h, owner);
    // After the swap was mined, anyone can prepare the very same swap for the same wallet.
    for (const claimant of [stranger, owner]) {
      const lookAlike = await prepareSwap(h, claimant, body);
      const { status, body: error } = await errorOf(
        await confirmRequest(h, claimant, lookAlike.intentId, { txHash: hash }),
      );
      expect(status, JSON.stringify(error)).toBe(400);
      expect(error.error.code).toBe("INVALID_SWAP");
      expect(error.error.message).toContain("it does not carry this intent's commitment");
      const still = await bodyOf(await getSwapRequest(h, claimant, lookAlike.intentId), getSwap, 200);
      expect(still).toMatchObject({ status: "prepared", txHash: null });
    }
    const confirmed = await confirmRequest(h, owner, prepared.intentId, { txHash: hash });
    expect((await bodyOf(confirmed, confirmSwap, 200)).txHash).toBe(hash.toLowerCase());
  });
});
