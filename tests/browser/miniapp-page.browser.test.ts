import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINIAPP_SCRIPT_PATH } from "../../functions/miniapp/page";
import { API_VERSION } from "../../sdk/src";
import { createHarness, type Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { buildWorkerAssets, serveOverHttp } from "../harness/browser";
import { liveEnv, UNUSED_IDENTITY_PROVIDERS, UNUSED_PAYOUT_PROVIDER } from "../harness/identity";
import { rawErrorWithoutRequestId } from "../harness/partner-security";
import { createTenant } from "../harness/tenants";

// GET /miniapp as served, without a browser: where it exists, its language, what it loads, its labels.
// The flow itself runs in Chromium in miniapp.browser.test.ts.

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  const miniapp = await createTenant(h, "Miniapp");
  Object.assign(h.deps.config, { MINIAPP_INTEGRATION_ID: miniapp.integrationId });
});
afterAll(() => h.close());

const page = (path = "/miniapp", headers: Record<string, string> = {}) => h.app.request(path, { headers });

describe("GET /miniapp", () => {
  it("speaks Spanish by default, English with ?lang=en or an English Accept-Language, and ?lang wins", async () => {
    const cases: Array<[string, Record<string, string>, "es" | "en"]> = [
      ["/miniapp", {}, "es"],
      ["/miniapp", { "accept-language": "fr-FR, es;q=0.5" }, "es"],
      ["/miniapp?lang=en", {}, "en"],
      ["/miniapp", { "accept-language": "en-US,en;q=0.9" }, "en"],
      ["/miniapp?lang=es", { "accept-language": "en-US" }, "es"],
    ];
    for (const [path, headers, language] of cases) {
      const response = await page(path, headers);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html; charset=utf-8/i);
      expect(response.headers.get("content-language")).toBe(language);
      const html = await response.text();
      expect(html.startsWith("<!doctype html>")).toBe(true);
      expect(html).toContain(`<html lang="${language}">`);
      expect(html).toContain(
        language === "es" ? "<h1>Envía pesos por BRE-B</h1>" : "<h1>Send pesos through BRE-B</h1>",
      );
      const text = JSON.parse(
        /<script id="miniapp-text" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1] ?? "null",
      ) as Record<string, string>;
      expect(text.status_completed).toBe(
        language === "es"
          ? "Completado: el destinatario recibió los pesos"
          : "Completed: the recipient was paid",
      );
    }
  });

  it("loads one script, from this origin, and nothing from anywhere else", async () => {
    const response = await page();
    const html = await response.text();
    expect([...html.matchAll(/<script\b[^>]*\bsrc="([^"]*)"/g)].map((match) => match[1])).toEqual([
      MINIAPP_SCRIPT_PATH,
    ]);
    expect(html).not.toMatch(/\b(?:src|href)="(?:https?:)?\/\//);
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(response.headers.get("content-security-policy")).toContain("connect-src 'self'");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("names every field with a label and gives every step a heading", async () => {
    const html = await (await page()).text();
    const inputs = [...html.matchAll(/<input\b[^>]*>/g)].map((match) => match[0]);
    expect(inputs.length).toBeGreaterThan(5);
    for (const input of inputs) {
      const id = /\bid="([^"]+)"/.exec(input)?.[1];
      if (/type="radio"/.test(input)) {
        expect(html, input).toMatch(
          new RegExp(`<label><input[^>]*value="${/value="([^"]+)"/.exec(input)?.[1]}"`),
        );
        continue;
      }
      expect(id, input).toBeDefined();
      expect(html, input).toContain(`<label for="${id}">`);
    }
    const sections = [...html.matchAll(/<section id="step-(\w+)"[^>]*aria-labelledby="h-(\w+)"/g)];
    expect(sections.map((match) => match[1])).toEqual([
      "identity",
      "code",
      "kyc",
      "amount",
      "quote",
      "recipient",
      "deposit",
      "status",
    ]);
    for (const [, step, heading] of sections) {
      expect(heading).toBe(step);
      expect(html).toContain(`<h2 id="h-${step}" tabindex="-1">`);
    }
  });

  it("is served its script by the worker's static assets: functions/assets/miniapp/ bundled with the SDK by wrangler's build step", async () => {
    const assets = await buildWorkerAssets();
    const again = await buildWorkerAssets();
    const served = await serveOverHttp(h.app, { assetsDir: assets.dir });
    try {
      const script = await fetch(`${served.url}${MINIAPP_SCRIPT_PATH}`);
      expect(script.status).toBe(200);
      expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
      const text = await script.text();
      // One self-contained classic script (the page loads it without type="module"), made alike each build.
      expect(text).toMatch(/^"use strict";\(\(\)=>\{/);
      expect(text).not.toMatch(/\bimport\s*[{(*"']|\brequire\(/);
      expect(text).toBe(await readFile(join(again.dir, "miniapp/miniapp.js"), "utf8"));
      // It reaches the service through the SDK's miniapp client, at the SDK's pinned version.
      expect(text).toContain('"/api/breb/"');
      expect(text).toContain(JSON.stringify(API_VERSION));
      // The page itself is the worker's, through the same server.
      expect((await fetch(`${served.url}/miniapp`)).status).toBe(200);
    } finally {
      await served.close();
      await assets.remove();
      await again.remove();
    }
  });

  it("answers 404 with the documented error body without MINIAPP_INTEGRATION_ID, like /api/breb", async () => {
    const config = h.deps.config as { MINIAPP_INTEGRATION_ID?: string };
    const saved = config.MINIAPP_INTEGRATION_ID;
    delete config.MINIAPP_INTEGRATION_ID;
    try {
      const response = await page();
      expect(await errorOf(response.clone(), 404)).toMatchObject({
        code: "NOT_FOUND",
        nextAction: expect.any(String),
        retryable: false,
      });
      const api = await h.app.request("/api/breb/kyc?userAddress=0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
      expect(await rawErrorWithoutRequestId(response)).toEqual(await rawErrorWithoutRequestId(api));
    } finally {
      config.MINIAPP_INTEGRATION_ID = saved;
    }
  });

  it("answers 404 with the documented error body in live mode, even with MINIAPP_INTEGRATION_ID set", async () => {
    const live = await createHarness({
      env: {
        ...liveEnv(),
        ...UNUSED_IDENTITY_PROVIDERS,
        ...UNUSED_PAYOUT_PROVIDER,
        MINIAPP_INTEGRATION_ID: "int_01KAZ6XQ4R8N2M5V7B9C1D3F5G",
      },
    });
    try {
      for (const language of ["es", "en"] as const) {
        const response = await live.app.request("/miniapp", { headers: { "accept-language": language } });
        const refusal = await errorOf(response, 404);
        expect(refusal.code).toBe("NOT_FOUND");
        expect(refusal.message).toBe(
          (
            await errorOf(
              await live.app.request("/api/breb/quote", { headers: { "accept-language": language } }),
            )
          ).message,
        );
      }
    } finally {
      await live.close();
    }
  });
});
