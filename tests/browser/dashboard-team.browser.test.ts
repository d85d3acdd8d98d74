import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSuite, screenshotBoth, startBrowserSuite } from "../harness/browser";
import { addMember, mailedCode, signInInBrowser } from "../harness/dashboard";
import { partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";
import { appCode } from "../harness/two-factor";

/**
 * Roles and two-factor sign-in in Chromium (issue 37): an owner invites a developer from the Members
 * page, sets up an authenticator app from the Security page, signs in again with the app's code and
 * requires two-factor of everyone; the developer then reaches only the Security page.
 */

let suite: BrowserSuite;
let acme: Tenant;
/** The owner's authenticator secret, set up in the first test and used to sign in in the second. */
let ownerSecret = "";

beforeAll(async () => {
  suite = await startBrowserSuite({ harness: { identity: true } });
  acme = await createTenant(suite.h, "Acme Wallet");
}, 60_000);

afterAll(() => suite?.close());

describe("the dashboard's members and two-factor sign-in in Chromium", () => {
  it("invites a developer, sets up two-factor, signs in with it and requires it of everyone", async () => {
    const ownerEmail = "owner@acme.example";
    const devEmail = "dev@acme.example";
    await addMember(suite.h, acme.organizationId, ownerEmail);
    const { page, problems } = await suite.openPage();
    await signInInBrowser(suite.h, page, suite.baseUrl, ownerEmail);

    // Members: invite a developer by email.
    await page.getByRole("navigation", { name: "Secciones" }).getByRole("link", { name: "Miembros" }).click();
    await page.waitForURL(`${suite.baseUrl}/dashboard/members`);
    await page.getByLabel("Correo", { exact: true }).fill(devEmail);
    await page.getByLabel("Rol", { exact: true }).selectOption("developer");
    await page.getByRole("button", { name: "Invitar" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe(`Invitación enviada a ${devEmail}.`);
    expect(await page.locator('tr[data-role="developer"]').count()).toBe(1);
    await screenshotBoth(page, "dashboard-20-members");

    // Security: set up the authenticator app.
    await page
      .getByRole("navigation", { name: "Secciones" })
      .getByRole("link", { name: "Seguridad" })
      .click();
    await page.getByRole("button", { name: "Configurar" }).click();
    await page.locator("#two-factor-qr").waitFor();
    const secret = (await page.locator("#two-factor-secret").textContent()) ?? "";
    ownerSecret = secret;
    await screenshotBoth(page, "dashboard-21-two-factor-setup");
    await page.getByLabel("Código que muestra la app").fill(appCode(suite.h, secret));
    await page.getByRole("button", { name: "Activar" }).click();
    await page.locator("#recovery-codes").waitFor();
    expect(((await page.locator("#recovery-codes").textContent()) ?? "").split("\n")).toHaveLength(10);

    // Sign out and in again: the emailed code, then the app's.
    await page.getByRole("button", { name: "Cerrar sesión" }).first().click();
    await page.waitForURL(/\/dashboard\/sign-in/);
    // One code per 30 s for an email in one browser.
    suite.h.clock.advance(31_000);
    await page.getByLabel("Correo electrónico").fill(ownerEmail);
    await page.getByRole("button", { name: "Enviar código" }).click();
    await page.getByLabel("Código de 6 dígitos").fill(await mailedCode(suite.h, ownerEmail));
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.waitForURL(`${suite.baseUrl}/dashboard/sign-in/two-factor`);
    await screenshotBoth(page, "dashboard-22-second-step");
    suite.h.clock.advance(30_000);
    await page.getByLabel("Código", { exact: true }).fill(appCode(suite.h, secret));
    await page.getByRole("button", { name: "Verificar" }).click();
    await page.waitForURL(`${suite.baseUrl}/dashboard`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Resumen");

    // Require it of every member.
    await page.goto(`${suite.baseUrl}/dashboard/security`);
    await page.getByRole("button", { name: "Exigirlo" }).click();
    await expect.poll(() => page.locator("#requirement-status").textContent()).toContain("exige");

    // The developer signs in and reaches only the Security page until they set it up.
    const dev = await suite.openPage();
    await dev.page.goto(`${suite.baseUrl}/dashboard/sign-in`);
    await dev.page.getByLabel("Correo electrónico").fill(devEmail);
    await dev.page.getByRole("button", { name: "Enviar código" }).click();
    await dev.page.getByLabel("Código de 6 dígitos").fill(await mailedCode(suite.h, devEmail));
    await dev.page.getByRole("button", { name: "Entrar", exact: true }).click();
    await dev.page.waitForURL(`${suite.baseUrl}/dashboard/security`);
    expect(await dev.page.getByText("Tu organización exige el inicio de sesión en dos pasos").count()).toBe(
      1,
    );
    expect(await dev.page.getByRole("navigation", { name: "Secciones" }).count()).toBe(0);
    await dev.page.goto(`${suite.baseUrl}/dashboard/keys`);
    await dev.page.waitForURL(`${suite.baseUrl}/dashboard/security`);
    expect(dev.problems).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("shows the owner the audit of those changes and the organization's API requests, searched by status", async () => {
    const missing = await partnerRequest(suite.h, acme, "/api/integrations/settlements/orders/ord_missing");
    expect(missing.status).toBe(404);
    const requestId = missing.headers.get("x-request-id") ?? "";
    await suite.h.settled();
    const { page, problems } = await suite.openPage({ viewport: "desktop" });
    await signInInBrowser(suite.h, page, suite.baseUrl, "owner@acme.example", async () => {
      suite.h.clock.advance(30_000);
      return appCode(suite.h, ownerSecret);
    });

    await page
      .getByRole("navigation", { name: "Secciones" })
      .getByRole("link", { name: "Auditoría" })
      .click();
    await page.waitForURL(/\/dashboard\/audit/);
    expect(await page.locator('tr[data-action="member.two_factor_enabled"]').count()).toBeGreaterThan(0);
    expect(await page.locator('tr[data-action="member.added"]').count()).toBeGreaterThan(0);

    await page
      .getByRole("navigation", { name: "Secciones" })
      .getByRole("link", { name: "Solicitudes a la API" })
      .click();
    await page.getByLabel("Estado HTTP").fill("404");
    await page.getByLabel("Estado HTTP").press("Enter");
    await page.waitForURL(/status=404/);
    const rows = page.locator("tr[data-request-id]");
    expect(await rows.count()).toBe(1);
    await page.getByRole("link", { name: requestId }).click();
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe(`Solicitud ${requestId}`);
    expect(await page.getByText("ORDER_NOT_FOUND").count()).toBeGreaterThan(0);
    await screenshotBoth(page, "dashboard-23-request-log");
    expect(problems).toEqual([]);
  });
});
