import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCS_SCRIPT_PATH } from "../../functions/platform/docs";
import { operationsApp } from "../../lib/composition/app";
import { TAGS } from "../../lib/http/contract";
import { createHarness, type Harness } from "../harness/app";
import type { OpenApiDocument } from "../harness/openapi-document";

const run = promisify(execFile);

describe("OpenAPI document and reference", () => {
  let h: Harness;
  let document: OpenApiDocument;
  beforeAll(async () => {
    h = await createHarness();
    document = (await (await h.app.request("/openapi.json")).json()) as OpenApiDocument;
  });
  afterAll(() => h.close());

  it("is OpenAPI 3.1.0 at interface version 0.1.0 with the Bearer scheme", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("0.1.0");
    expect(document.components.securitySchemes.bearerAuth).toEqual(
      expect.objectContaining({ type: "http", scheme: "bearer" }),
    );
    expect(document.security).toEqual([{ bearerAuth: [] }]);
  });

  it("is generated once per app: later requests answer the same bytes without generating it again", async () => {
    const app = (await operationsApp()) as unknown as {
      getOpenAPI31Document: (...args: unknown[]) => unknown;
    };
    const generate = app.getOpenAPI31Document.bind(app);
    let generated = 0;
    app.getOpenAPI31Document = (...args) => {
      generated += 1;
      return generate(...args);
    };
    try {
      const first = await (await h.app.request("/openapi.json")).text();
      const second = await h.app.request("/openapi.json");
      expect(second.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await second.text()).toBe(first);
      expect(JSON.parse(first)).toEqual(document);
      expect(generated).toBe(0);
    } finally {
      app.getOpenAPI31Document = generate;
    }
  });

  it("has no version segment in any path and leaves internal job endpoints out", () => {
    const paths = Object.keys(document.paths);
    expect(paths).toContain("/health");
    for (const path of paths) {
      expect(path).not.toMatch(/\/v\d+(\/|$)/);
      expect(path).not.toMatch(/^\/internal\//);
    }
  });

  it("documents 413 and 415 on every operation that takes a body, where the app answers them", () => {
    const withBody = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(
        operations as Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>,
      )
        .filter(([, operation]) => operation.requestBody !== undefined)
        .map(([method, operation]) => ({
          at: `${method.toUpperCase()} ${path}`,
          statuses: Object.keys(operation.responses),
        })),
    );
    expect(withBody.length).toBeGreaterThan(5);
    for (const { at, statuses } of withBody) {
      expect(statuses, at).toContain("413");
      expect(statuses, at).toContain("415");
    }
  });

  it("lists its tags at the top, in a stable order with a description each, naming exactly the operations' tags", () => {
    const tags = (document as unknown as { tags?: Array<{ name: string; description?: string }> }).tags;
    expect(tags?.map((tag) => tag.name)).toEqual(Object.keys(TAGS));
    for (const tag of tags ?? []) expect(tag.description, tag.name).toMatch(/\w{3,}.*\./);
    const used = new Set(
      Object.values(document.paths).flatMap((operations) =>
        Object.values(operations as Record<string, { tags?: string[] }>).flatMap(
          (operation) => operation.tags ?? [],
        ),
      ),
    );
    expect([...used].sort()).toEqual(Object.keys(TAGS).sort());
  });

  it("has no array schema without `items`, a tuple's included (valid for OpenAPI 3.1 linters)", () => {
    const bare: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (Array.isArray(value)) {
        for (const [index, item] of value.entries()) walk(item, `${at}/${index}`);
      } else if (value && typeof value === "object") {
        const schema = value as Record<string, unknown>;
        if (schema.type === "array" && !("items" in schema)) bare.push(at);
        for (const [key, item] of Object.entries(schema)) walk(item, `${at}/${key}`);
      }
    };
    walk(document, "#");
    expect(bare).toEqual([]);
  });

  it("passes Redocly's recommended lint with no problem, warnings included", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openapi-"));
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(document));
    const result = await run(
      "node_modules/.bin/redocly",
      ["lint", file, "--format=json", "--extends=recommended"],
      { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
    ).catch((error: { stdout: string; code: number }) => ({ stdout: error.stdout, code: error.code }));
    const report = JSON.parse(result.stdout) as {
      problems: Array<{ severity: string; ruleId: string; message: string }>;
    };
    expect(report.problems).toEqual([]);
  }, 60_000);

  it("serves the interactive reference with its script from this origin, not a CDN", async () => {
    const response = await h.app.request("/docs");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(DOCS_SCRIPT_PATH);
    expect(html).toContain("/openapi.json");
    expect(html).not.toMatch(/cdn\.jsdelivr|unpkg\.com/);
  });

  it("answers /docs with a Content-Security-Policy: framed nowhere, running only this origin's script and the page's own nonced start-up (issue 37, finding 5)", async () => {
    const nonces: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const response = await h.app.request("/docs");
      const policy = response.headers.get("content-security-policy");
      if (!policy) throw new Error("/docs answers no Content-Security-Policy");
      const directives = Object.fromEntries(
        policy.split(";").map((part) => {
          const [name = "", ...values] = part.trim().split(/\s+/);
          return [name, values];
        }),
      );
      const html = await response.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1] ?? "");
      const nonce = directives["script-src"]?.find((value) => value.startsWith("'nonce-"))?.slice(7, -1);
      expect(nonce, policy).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      nonces.push(nonce as string);
      // Both of Scalar's scripts, the bundle and its start-up, carry this answer's nonce.
      expect(scripts).toHaveLength(2);
      for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
      expect(directives).toMatchObject({
        "default-src": ["'none'"],
        "script-src": ["'self'", `'nonce-${nonce}'`],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'none'"],
      });
      expect(policy).not.toMatch(/unsafe-eval|\*|https?:(?!\/\/api\.test)/);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("turns off Scalar's hosted-service buttons (agent, MCP, share and deploy tools), which do nothing offline", async () => {
    const html = await (await h.app.request("/docs")).text();
    const configuration = html.match(
      /data-configuration="([^"]*)"|Scalar\.createApiReference\([^,]+,\s*(\{.*?\})\)/s,
    );
    expect(configuration, "the page carries Scalar's configuration").not.toBeNull();
    const json = JSON.parse((configuration?.[1] ?? configuration?.[2] ?? "").replaceAll("&quot;", '"'));
    expect(json).toMatchObject({
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: "never",
      telemetry: false,
    });
  });
});
