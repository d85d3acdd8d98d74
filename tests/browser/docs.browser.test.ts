import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_PUBLIC_URL } from "../harness/app";
import { type BrowserSuite, screenshotBoth, startBrowserSuite } from "../harness/browser";

// /docs, the API reference (Scalar), in headless Chromium against the in-process app served with the
// worker's static assets: its Content-Security-Policy (issue 37, finding 5) lets the page render,
// and the page asks for nothing the policy refuses and nothing from another origin.

let suite: BrowserSuite;
beforeAll(async () => {
  suite = await startBrowserSuite({ harness: {} });
}, 60_000);
afterAll(() => suite?.close());

describe("the API reference in Chromium", () => {
  it("renders the operations under its Content-Security-Policy, which the page never breaks, loading nothing from elsewhere", async () => {
    const { page, problems } = await suite.openPage({ locale: "en-US", viewport: "desktop" });
    const foreign: string[] = [];
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith(`${suite.baseUrl}/`) && !url.startsWith("data:")) foreign.push(url);
    });
    // Every refusal of the policy, as the page meets it.
    await page.addInitScript({
      content: `window.cspViolations = [];
        document.addEventListener("securitypolicyviolation", (event) => {
          window.cspViolations.push(event.effectiveDirective + " " + event.blockedURI);
        });`,
    });

    const response = await page.goto(`${suite.baseUrl}/docs`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    await page.getByRole("heading", { name: "COPm settlement integrations API", level: 1 }).waitFor();
    // The document was fetched and rendered (an operation's description), and the page still runs:
    // a closed group of the sidebar opens on a click.
    await page.getByText("The state of the database, the job queue and each configured chain").waitFor();
    await page.getByRole("button", { name: "Open Group - Admin" }).click();
    await page.getByText("Issue an API key for an integration").first().waitFor();
    await screenshotBoth(page, "docs-reference", "desktop");

    // The one refusal: Zod, inside Scalar's bundle, tries `Function("")` once to learn whether it may
    // compile its parsers, and parses without compiling when refused (no 'unsafe-eval' for that).
    const violations = await page.evaluate<string[]>("window.cspViolations");
    expect(violations.filter((violation) => violation !== "script-src eval")).toEqual([]);
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);

    // "Test Request" sends to the document's server (PUBLIC_URL, http://api.test here, which does not
    // resolve): the policy lets it go, and nothing else, Scalar's request proxy included.
    const sent = (url: string) =>
      page.evaluate<string>(`fetch(${JSON.stringify(url)}).then(() => "answered", (error) => String(error))`);
    const proxied = "https://proxy.scalar.com/?scalar_url=http%3A%2F%2Fapi.test%2Fhealth";
    await sent(`${TEST_PUBLIC_URL}/health`);
    await sent(proxied);
    expect((await page.evaluate<string[]>("window.cspViolations")).slice(violations.length)).toEqual([
      `connect-src ${proxied}`,
    ]);
  });
});
