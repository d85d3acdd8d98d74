import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeServer, listen } from "../../dev/loopback-http";
import { type BrowserSuite, screenshotBoth, startBrowserSuite } from "../harness/browser";
import { addMember, mailedCode, signInInBrowser } from "../harness/dashboard";
import { createTenant, type Tenant } from "../harness/tenants";

let suite: BrowserSuite;
let acme: Tenant;

beforeAll(async () => {
  suite = await startBrowserSuite({ harness: { identity: true } });
  acme = await createTenant(suite.h, "Acme Wallet");
}, 60_000);

afterAll(() => suite?.close());

describe("the partner dashboard's sign-in in Chromium", () => {
  it("signs a member in with the code read from the local mailbox, in Spanish, and signs them out", async () => {
    const email = "ana@acme.example";
    await addMember(suite.h, acme.organizationId, email);
    const { page, problems } = await suite.openPage();
    await page.goto(`${suite.baseUrl}/dashboard`);
    await page.waitForURL(`${suite.baseUrl}/dashboard/sign-in`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Entrar al panel");
    await screenshotBoth(page, "dashboard-01-sign-in");

    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByRole("button", { name: "Enviar código" }).click();
    await page.getByLabel("Código de 6 dígitos").waitFor();
    await screenshotBoth(page, "dashboard-02-code");
    await page.getByLabel("Código de 6 dígitos").fill(await mailedCode(suite.h, email));
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.waitForURL(`${suite.baseUrl}/dashboard`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Resumen");
    expect(await page.getByText(`Sesión de ${email} en Acme Wallet`).count()).toBe(1);
    expect(await page.getByRole("navigation", { name: "Secciones" }).getByRole("link").count()).toBe(12);
    const cookie = (await page.context().cookies()).find((c) => c.name === "copm_dashboard_session");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    expect(await page.evaluate<string>("document.cookie")).not.toContain("copm_dashboard_session");
    await screenshotBoth(page, "dashboard-03-overview");

    await page.getByRole("link", { name: "English" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Overview");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${suite.baseUrl}/dashboard/sign-in?out=1`);
    expect(await page.getByText("You signed out.").count()).toBe(1);
    await page.goto(`${suite.baseUrl}/dashboard`);
    await page.waitForURL(`${suite.baseUrl}/dashboard/sign-in`);
    expect(problems).toEqual([]);
  });

  it("refuses a form whose CSRF token was removed, and a form another site posts, and the session stays", async () => {
    const email = "bruno@acme.example";
    await addMember(suite.h, acme.organizationId, email);
    const { page } = await suite.openPage({ locale: "en-US" });
    await signInInBrowser(suite.h, page, suite.baseUrl, email);

    await page.locator('input[name="_csrf"]').evaluateAll((fields) => {
      for (const field of fields) field.remove();
    });
    const refused = page.waitForResponse((r) => r.url().endsWith("/dashboard/sign-out"));
    await page.getByRole("button", { name: "Sign out" }).click();
    expect((await refused).status()).toBe(403);
    expect(await page.getByRole("alert").textContent()).toContain(
      "The form expired or did not come from this dashboard",
    );
    await screenshotBoth(page, "dashboard-04-csrf-refused");

    // Another origin (another port on loopback) with a form that posts to the dashboard on load.
    const evil = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        `<form id="f" method="post" action="${suite.baseUrl}/dashboard/sign-out"><input name="_csrf" value="guess"></form>` +
          `<script>document.getElementById("f").submit()</script>`,
      );
    });
    const { url: evilUrl } = await listen(evil);
    try {
      const posted = page.waitForResponse((r) => r.url().endsWith("/dashboard/sign-out"));
      await page.goto(evilUrl);
      expect((await posted).status()).toBe(403);
    } finally {
      await closeServer(evil);
    }
    const still = await page.goto(`${suite.baseUrl}/dashboard`);
    expect(still?.url()).toBe(`${suite.baseUrl}/dashboard`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Overview");
  });
});
