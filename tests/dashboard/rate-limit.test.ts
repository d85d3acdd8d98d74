import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../harness/app";
import { signedInMember } from "../harness/dashboard";
import { createTenant, type Tenant } from "../harness/tenants";

let h: Harness;
let acme: Tenant;

beforeAll(async () => {
  h = await createHarness({
    identity: true,
    env: { RATE_LIMIT_PER_KEY_PER_MINUTE: "3", RATE_LIMIT_PER_IP_PER_MINUTE: "100000" },
  });
  acme = await createTenant(h, "Acme Wallet");
}, 60_000);

afterAll(async () => h?.close());

describe("a dashboard member's actions", () => {
  it("count against the per-key limit: the fourth in a minute is 429 with Retry-After and issues nothing, another member is unaffected, the next minute works", async () => {
    const ana = await signedInMember(h, acme, "ana");
    const bruno = await signedInMember(h, acme, "bruno");
    const keysPage = `/dashboard/keys?integration=${acme.integrationId}`;
    const issue = (client: typeof ana) => client.post(keysPage, { name: "limited" });
    await ana.page(keysPage);
    for (let i = 0; i < 3; i += 1) expect((await issue(ana)).status).toBe(200);
    const limited = await issue(ana);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.text()).toContain('data-code="RATE_LIMITED"');
    const keys = await ana.page(keysPage);
    expect(keys.match(/limited/g)?.length).toBe(3);

    await bruno.page(keysPage);
    expect((await issue(bruno)).status).toBe(200);
    h.clock.advance(60_000);
    expect((await issue(ana)).status).toBe(200);
  });
});
