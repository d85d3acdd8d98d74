import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "../../dev/webhook-receiver";
import { type BrowserSuite, screenshotBoth, startBrowserSuite, VIEWPORTS } from "../harness/browser";
import { addMember, signInInBrowser } from "../harness/dashboard";
import { createTenant, type Tenant } from "../harness/tenants";
import { verifyWebhook } from "../harness/webhooks";

let suite: BrowserSuite;
let inbox: WebhookReceiver | undefined;
let acme: Tenant;

beforeAll(async () => {
  suite = await startBrowserSuite({ harness: { identity: true } });
  acme = await createTenant(suite.h, "Acme Wallet");
  inbox = await startWebhookReceiver();
}, 60_000);

afterAll(async () => {
  await suite?.close();
  await inbox?.close();
});

function receiver(): WebhookReceiver {
  if (!inbox) throw new Error("the webhook receiver did not start");
  return inbox;
}

/** What the API answers a call made with `apiKey`, over HTTP to the same server. */
async function apiStatus(apiKey: string): Promise<number> {
  const response = await fetch(`${suite.baseUrl}/api/integrations/settlements/orders`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  await response.arrayBuffer();
  return response.status;
}

/** Nothing sticks out sideways at phone width: tables scroll inside their wrapper. */
async function fitsPhoneWidth(page: Page): Promise<boolean> {
  await page.setViewportSize(VIEWPORTS.phone);
  return page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth");
}

describe("the dashboard's API keys and webhooks pages in Chromium", () => {
  it("issues a key in the page, copies it, uses it with the API, revokes it after the confirmation and gets 401", async () => {
    const email = "keys@acme.example";
    await addMember(suite.h, acme.organizationId, email);
    const { page, problems, confirmations } = await suite.openPage();
    await signInInBrowser(suite.h, page, suite.baseUrl, email);

    await page
      .getByRole("navigation", { name: "Secciones" })
      .getByRole("link", { name: "Llaves de API" })
      .click();
    // From the overview, the section opens on the organization's first integration.
    await page.waitForURL(`${suite.baseUrl}/dashboard/keys`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Llaves de API");
    // The organization's first key, made with it, is listed by its start only.
    expect(await page.locator("tbody tr").count()).toBe(1);
    expect(await fitsPhoneWidth(page)).toBe(true);
    await screenshotBoth(page, "dashboard-keys-01-list");

    await page.getByLabel("Nombre (opcional)").fill("Servidor de pruebas");
    await page.getByRole("button", { name: "Emitir llave" }).click();
    const secretBox = page.locator(".secret");
    await secretBox.waitFor();
    const apiKey = ((await secretBox.locator("code").textContent()) ?? "").trim();
    expect(apiKey).toMatch(/^copm_test_[0-9A-Za-z]{49}$/);
    expect(await secretBox.textContent()).toContain("no se volverá a mostrar");
    await secretBox.getByRole("button", { name: "Copiar" }).click();
    await expect.poll(() => secretBox.getByRole("button", { name: "Copiado" }).count()).toBe(1);
    expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(apiKey);
    // The secret never went into the address bar.
    expect(page.url()).not.toContain(apiKey);
    expect(await fitsPhoneWidth(page)).toBe(true);
    await screenshotBoth(page, "dashboard-keys-02-issued");

    expect(await apiStatus(apiKey)).toBe(200);

    // Opened again, the list shows the key by name and start, and never the secret.
    await page.goto(`${suite.baseUrl}/dashboard/keys?integration=${acme.integrationId}`);
    expect(await page.locator(".secret").count()).toBe(0);
    expect(await page.content()).not.toContain(apiKey);
    const row = page.locator("tbody tr", { hasText: "Servidor de pruebas" });
    expect(await row.textContent()).toContain(`${apiKey.slice(0, 14)}…`);
    expect(await row.getByText("Activa").count()).toBe(1);

    await row.getByRole("button", { name: /^Revocar la llave copm_test_/ }).click();
    await page.waitForURL(`${suite.baseUrl}/dashboard/keys?integration=${acme.integrationId}&done=revoked`);
    expect(confirmations).toEqual([expect.stringContaining(`¿Revocar la llave ${apiKey.slice(0, 14)}…?`)]);
    expect(await page.getByRole("status").textContent()).toContain("La llave quedó revocada");
    expect(
      await page.locator("tbody tr", { hasText: "Servidor de pruebas" }).getByText("Revocada").count(),
    ).toBe(1);
    await screenshotBoth(page, "dashboard-keys-03-revoked");

    expect(await apiStatus(apiKey)).toBe(401);
    expect(problems).toEqual([]);
  });

  it("issues a restricted key from the form (scopes, allow list, expiry in UTC), shows a bad range beside its field, and gives a key an expiry from its row", async () => {
    const email = "restricted@acme.example";
    await addMember(suite.h, acme.organizationId, email);
    const { page, problems } = await suite.openPage();
    await signInInBrowser(suite.h, page, suite.baseUrl, email);
    await page.goto(`${suite.baseUrl}/dashboard/keys?integration=${acme.integrationId}`);

    const expiry = new Date(Math.floor(suite.h.clock.now().getTime() / 60_000) * 60_000 + 3_600_000);
    const typed = expiry.toISOString().slice(0, 16);
    await page.getByLabel("Nombre (opcional)").fill("Reportes");
    await page.getByLabel("settlements:read").check();
    await page.getByLabel("Direcciones permitidas (opcional)").fill("127.0.0.1\n::1\n10.0.0.0/33");
    await page.getByLabel("Vence (opcional, en UTC)").fill(typed);
    await page.getByRole("button", { name: "Emitir llave" }).click();
    // Refused beside the field, everything typed still there.
    const fieldError = page.locator("#key-allowed-ips-error");
    await fieldError.waitFor();
    expect(await fieldError.textContent()).toContain("«10.0.0.0/33» no es una dirección IPv4 o IPv6");
    expect(await page.getByLabel("settlements:read").isChecked()).toBe(true);
    expect(await page.getByLabel("Vence (opcional, en UTC)").inputValue()).toBe(typed);
    expect(await page.getByLabel("Nombre (opcional)").inputValue()).toBe("Reportes");
    expect(await fitsPhoneWidth(page)).toBe(true);
    await screenshotBoth(page, "dashboard-keys-04-refused-range");

    await page.getByLabel("Direcciones permitidas (opcional)").fill("127.0.0.1\n::1");
    await page.getByRole("button", { name: "Emitir llave" }).click();
    const secretBox = page.locator(".secret");
    await secretBox.waitFor();
    const apiKey = ((await secretBox.locator("code").textContent()) ?? "").trim();
    expect(await apiStatus(apiKey)).toBe(200);
    const quote = await fetch(`${suite.baseUrl}/api/integrations/settlements/quotes`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ sendAmountUsdc: "10" }),
    });
    expect(quote.status).toBe(403);
    expect(((await quote.json()) as { error: { code: string } }).error.code).toBe("INSUFFICIENT_SCOPE");
    const row = page.locator("tbody tr", { hasText: "Reportes" });
    const rowText = (await row.textContent()) ?? "";
    for (const shown of [
      "settlements:read",
      "127.0.0.1/32",
      "::1/128",
      `${typed.replace("T", " ")}:00 UTC`,
    ]) {
      expect(rowText).toContain(shown);
    }
    await screenshotBoth(page, "dashboard-keys-05-restricted");

    // Its expiry moved sooner from its row (a rotation's overlap ending): it works until then, 401 after.
    const soon = new Date(Math.floor(suite.h.clock.now().getTime() / 60_000) * 60_000 + 120_000);
    await row.getByLabel(/^Vencimiento de la llave/).fill(soon.toISOString().slice(0, 16));
    await row.getByRole("button", { name: /^Fijar el vencimiento de la llave/ }).click();
    await page.waitForURL(`${suite.baseUrl}/dashboard/keys?integration=${acme.integrationId}&done=expiry`);
    expect(await page.getByRole("status").textContent()).toContain("Vencimiento fijado");
    expect(await apiStatus(apiKey)).toBe(200);
    suite.h.clock.set(soon);
    expect(await apiStatus(apiKey)).toBe(401);
    await page.reload();
    expect(await page.locator("tbody tr", { hasText: "Reportes" }).getByText("Vencida").count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it("sets the webhook URL to a local receiver, sends a test event, and after the queue runs lists it as delivered", async () => {
    const email = "hooks@acme.example";
    await addMember(suite.h, acme.organizationId, email);
    const { page, problems, confirmations } = await suite.openPage({ locale: "en-US" });
    await signInInBrowser(suite.h, page, suite.baseUrl, email);

    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Webhooks" }).click();
    await page.waitForURL(`${suite.baseUrl}/dashboard/webhooks`);
    expect(await page.getByText("This integration has no endpoint yet").count()).toBe(1);
    await screenshotBoth(page, "dashboard-webhooks-01-empty");

    // A private address is refused by the service: the form comes back with the error and the URL.
    await page.getByLabel("URL", { exact: true }).fill("https://10.0.0.1/hook");
    await page.getByRole("button", { name: "Save endpoint" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("The webhook URL is not acceptable");
    expect(await page.getByLabel("URL", { exact: true }).inputValue()).toBe("https://10.0.0.1/hook");
    await screenshotBoth(page, "dashboard-webhooks-02-refused");

    await page.getByLabel("URL", { exact: true }).fill(receiver().url);
    await page.getByRole("button", { name: "Save endpoint" }).click();
    const secretBox = page.locator(".secret");
    await secretBox.waitFor();
    const secret = ((await secretBox.locator("code").textContent()) ?? "").trim();
    expect(secret).toMatch(/^whsec_/);
    expect(await secretBox.textContent()).toContain("it will not be shown again");
    expect(await page.locator(".facts").textContent()).toContain(receiver().url);
    expect(await fitsPhoneWidth(page)).toBe(true);
    await screenshotBoth(page, "dashboard-webhooks-03-secret");

    await page.getByRole("button", { name: "Send a test event" }).click();
    await page.waitForURL(`${suite.baseUrl}/dashboard/webhooks?integration=${acme.integrationId}&done=test`);
    expect(await page.locator("tbody tr[data-status=pending]").count()).toBe(1);
    await suite.h.jobs.drain();
    expect(receiver().received).toHaveLength(1);
    const [request] = receiver().received;
    if (!request) throw new Error("the receiver got nothing");
    const event = verifyWebhook(request, secret, suite.h.clock.now());
    expect(event.type).toBe("webhook.test");

    await page.reload();
    const delivered = page.locator("tbody tr", { hasText: event.id });
    expect(await delivered.getAttribute("data-status")).toBe("delivered");
    expect(await delivered.locator(".pill").textContent()).toBe("delivered");
    expect(await page.content()).not.toContain(secret);
    expect(await fitsPhoneWidth(page)).toBe(true);
    await screenshotBoth(page, "dashboard-webhooks-04-delivered");

    await delivered.getByRole("button", { name: `Replay event ${event.id}` }).click();
    await page.waitForURL(
      `${suite.baseUrl}/dashboard/webhooks?integration=${acme.integrationId}&done=replayed`,
    );
    await suite.h.jobs.drain();
    await page.reload();
    expect(await page.locator("tbody tr[data-status=delivered]", { hasText: event.id }).count()).toBe(2);
    expect(receiver().received.map((r) => r.headers["webhook-id"])).toEqual([event.id, event.id]);

    await page.getByRole("button", { name: "Rotate the secret" }).click();
    await secretBox.waitFor();
    const rotated = ((await secretBox.locator("code").textContent()) ?? "").trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect(await secretBox.textContent()).toContain("for 24 hours");
    expect(confirmations).toEqual([expect.stringContaining("Rotate the signing secret?")]);
    await screenshotBoth(page, "dashboard-webhooks-05-rotated");
    expect(problems).toEqual([]);
  });
});
