import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as updateOrganizationRoute } from "../../functions/tenancy/admin-update-organization";
import type { Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { partnerRequest, settlementSuite } from "../harness/settlement";
import { adminRequest, createTenant } from "../harness/tenants";

/**
 * A party on the deny list hears SANCTIONED_ADDRESS before any other refusal, as when the list was
 * read before pricing, though the quote's insert now reads it (lib/compliance/screened-write.ts).
 * Before deniedFirst, this quote was 403 LIMIT_EXCEEDED, telling a listed address its remaining volume.
 */
let h: Harness;
const fresh = () => privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  ({ h } = await settlementSuite());
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe("a listed party is told it is listed first", () => {
  it("a deny-listed party beyond its volume limit is told SANCTIONED_ADDRESS, as before, not LIMIT_EXCEEDED", async () => {
    const limited = await createTenant(h, "Review limited");
    await bodyOf(
      await adminRequest(h, `/admin/organizations/${limited.organizationId}`, {
        method: "PATCH",
        body: { perUserDailyLimitUsd: "50" },
      }),
      updateOrganizationRoute,
      200,
    );
    const source = fresh();
    const denied = await adminRequest(h, "/admin/compliance/denied-addresses", {
      method: "POST",
      body: { address: source, reason: "test" },
    });
    expect(denied.status).toBe(201);
    const refused = await partnerRequest(h, limited, "/api/integrations/settlements/quotes", {
      method: "POST",
      body: { sendAmountUsdc: "100", sourceAddress: source, destinationAddress: fresh() },
    });
    const body = (await refused.json()) as { error?: { code?: string } };
    expect(refused.status, JSON.stringify(body)).toBe(403);
    expect(body.error?.code, JSON.stringify(body)).toBe("SANCTIONED_ADDRESS");
  });
});
