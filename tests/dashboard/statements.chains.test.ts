import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, HARNESS_CLOCK_START, type Harness } from "../harness/app";
import { type DashboardClient, signedInMember } from "../harness/dashboard";
import { partnerRequest } from "../harness/settlement";
import { confirmedSwap } from "../harness/swaps";
import { createTenant, type Tenant } from "../harness/tenants";

// The Statements page in-process: a day with two confirmed swaps, read by a member of the
// organization (totals, lines, the CSV download) and by a member of another one (nothing).

let h: Harness;
let a: Tenant;
let b: Tenant;
let memberA: DashboardClient;
let memberB: DashboardClient;
const day = HARNESS_CLOCK_START.toISOString().slice(0, 10);
const swaps: string[] = [];

beforeAll(async () => {
  h = await createHarness({ chains: true, identity: true });
  a = await createTenant(h, "Statements A");
  b = await createTenant(h, "Statements B");
  for (const amount of ["3", "4"]) {
    h.clock.advance(1_000);
    swaps.push((await confirmedSwap(h, a, amount)).intentId);
  }
  memberA = await signedInMember(h, a, "statements-a");
  memberB = await signedInMember(h, b, "statements-b");
}, 120_000);
afterAll(() => h?.close());

const statementPath = (query: string) => `/dashboard/statements?${query}`;

describe("the Statements page", () => {
  it("shows the day's movements and totals, and downloads the API's CSV of the period", async () => {
    const html = await memberA.page(statementPath(`from=${day}&to=${day}`));
    for (const intentId of swaps) expect(html).toContain(intentId);
    expect(html).toContain('id="statement-totals"');
    // Two swaps, four movements each.
    expect([...html.matchAll(/<tr>\s*<td><time/g)]).toHaveLength(8);

    const link = html.match(/id="statement-download" href="([^"]+)"/)?.[1]?.replaceAll("&amp;", "&");
    expect(link).toBeDefined();
    const download = await memberA.get(link as string);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="statement-${day}-${day}.csv"`,
    );
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
    const api = await partnerRequest(
      h,
      a,
      `/api/integrations/statements?from=${day}T00:00:00Z&to=${next}&format=csv`,
    );
    expect(await download.text()).toBe(await api.text());
  });

  it("shows another organization's member nothing of it", async () => {
    const html = await memberB.page(statementPath(`from=${day}&to=${day}`));
    for (const intentId of swaps) expect(html).not.toContain(intentId);
    expect(html).toContain("Ningún movimiento en este periodo.");
  });

  it("says what is wrong with a period instead of answering it", async () => {
    for (const query of [
      `from=${day}&to=2020-01-01`,
      `from=2020-01-01&to=${day}`,
      `from=${day}&to=someday`,
    ]) {
      const response = await memberA.get(statementPath(query));
      expect(response.status, query).toBe(400);
      expect(await response.text(), query).toContain('role="alert"');
      const download = await memberA.get(`/dashboard/statements/download?${query}`);
      expect(download.status, query).toBe(400);
      expect(download.headers.get("content-type"), query).toMatch(/^text\/html/);
    }
  });

  it("takes only a calendar date, YYYY-MM-DD, for each end and names the file from the dates it read", async () => {
    // V8's Date.parse reads all of these (a parenthesis opens a comment to the end of the text, day 31
    // of a 30-day month rolls over); each would have reached the file name as it was sent.
    const answers: { path: string; status: number; disposition: string | null; alert: boolean }[] = [];
    for (const [field, value] of [
      ["to", `${day}(";filename*=UTF-8''evil.html;x="`],
      ["to", `${day}(\r\nSet-Cookie: a=b`],
      ["to", "2026-11-31"],
      ["to", "2027-02-29"],
      ["from", `${day}(`],
      ["to", `${day}T00:00:00Z`],
      ["to", "22/11/2026"],
    ] as const) {
      const query = new URLSearchParams({ from: day, to: day, [field]: value }).toString();
      for (const path of [statementPath(query), `/dashboard/statements/download?${query}`]) {
        const response = await memberA.get(path);
        answers.push({
          path,
          status: response.status,
          disposition: response.headers.get("content-disposition"),
          alert: (await response.text()).includes('role="alert"'),
        });
      }
    }
    // Every answer at once, so a failure shows each case.
    expect(answers).toEqual(
      answers.map(({ path }) => ({ path, status: 400, disposition: null, alert: true })),
    );
    const download = await memberA.get(`/dashboard/statements/download?from=${day}&to=2026-11-30`);
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="statement-${day}-2026-11-30.csv"`,
    );
  });
});
