import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../harness/app";
import { type DashboardClient, signedInMember } from "../harness/dashboard";
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

const keysPage = (tenant: Tenant) => `/dashboard/keys?integration=${tenant.integrationId}`;
const issue = (client: DashboardClient, tenant: Tenant, name: string) =>
  client.post(keysPage(tenant), { name });

describe("a dashboard member's requests", () => {
  it("count against the per-key limit, pages included: the fourth in a minute is 429 with Retry-After and does nothing, another member is unaffected, the next minute works", async () => {
    const ana = await signedInMember(h, acme, "ana");
    const bruno = await signedInMember(h, acme, "bruno");
    // A window of its own: signing in read a page.
    h.clock.advance(60_000);
    await ana.page(keysPage(acme));
    for (let i = 0; i < 2; i += 1) expect((await issue(ana, acme, "by-ana")).status).toBe(200);
    const limited = await issue(ana, acme, "by-ana");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.text()).toContain('data-code="RATE_LIMITED"');
    // Reading is limited too (issue 37, finding 3): a page costs the service as a form does.
    const read = await ana.get(keysPage(acme));
    expect(read.status).toBe(429);
    expect(read.headers.get("retry-after")).toBe("60");
    expect(await read.text()).toContain('data-code="RATE_LIMITED"');

    await bruno.page(keysPage(acme));
    expect((await issue(bruno, acme, "by-bruno")).status).toBe(200);
    h.clock.advance(60_000);
    const keys = await ana.page(keysPage(acme));
    expect(keys.match(/by-ana/g)?.length).toBe(2);
    expect((await issue(ana, acme, "by-ana")).status).toBe(200);
  });
});

describe("issuing API keys from the dashboard (issue 37, finding 3)", () => {
  it("stops at 20 keys an hour per organization, the operator's counted: the next is 429 with Retry-After until the oldest is an hour old, and issues nothing", async () => {
    const start = h.clock.now();
    const minter = await createTenant(h, "Mint Co"); // the operator issues its first key
    const other = await createTenant(h, "Other Co");
    const carla = await signedInMember(h, minter, "carla");
    const dora = await signedInMember(h, other, "dora");
    // Two requests a minute at most, under the per-member limit of three.
    const step = () => h.clock.advance(30_000);
    step();
    await carla.page(keysPage(minter));
    for (let i = 0; i < 19; i += 1) {
      step();
      const issued = await issue(carla, minter, `mint-${i}`);
      expect(issued.status, `key ${i + 2}`).toBe(200);
    }
    step();
    const refused = await issue(carla, minter, "one-too-many");
    expect(refused.status).toBe(429);
    const waitMs = start.getTime() + 3_600_000 - h.clock.now().getTime();
    expect(refused.headers.get("retry-after")).toBe(String(Math.ceil(waitMs / 1000)));
    expect(await refused.text()).toContain('data-code="RATE_LIMITED"');
    step();
    expect(await carla.page(keysPage(minter))).not.toContain("one-too-many");

    // Another organization's member is not held back.
    step();
    await dora.page(keysPage(other));
    expect((await issue(dora, other, "dora's")).status).toBe(200);

    // Once the operator's key is an hour old, one more may be issued.
    h.clock.set(new Date(start.getTime() + 3_600_000));
    await carla.page(keysPage(minter));
    expect((await issue(carla, minter, "next-hour")).status).toBe(200);
    step();
    expect((await issue(carla, minter, "and-no-more")).status).toBe(429);
  });
});

describe("dashboard requests without a session (issue 37, finding 3)", () => {
  let anonymous: Harness;
  beforeAll(async () => {
    anonymous = await createHarness({ env: { RATE_LIMIT_PER_IP_PER_MINUTE: "3" } });
  }, 60_000);
  afterAll(async () => anonymous?.close());

  it("count per client address: the sign-in page's fourth view in a minute is 429 with Retry-After, another address is unaffected", async () => {
    const from = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
    const view = (address: string) => anonymous.app.request("/dashboard/sign-in", {}, from(address));
    for (let i = 0; i < 3; i += 1) expect((await view("198.51.100.7")).status).toBe(200);
    const limited = await view("198.51.100.7");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.text()).toContain('data-code="RATE_LIMITED"');
    expect((await view("198.51.100.8")).status).toBe(200);
  });
});
