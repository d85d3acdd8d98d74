import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../harness/app";

describe("GET /health", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it("answers 200 with the database and queue up and no key", async () => {
    const response = await h.app.request("/health");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      status: "ok",
      mode: "mock",
      checks: { database: { status: "up" }, jobs: { status: "up" }, chains: [] },
    });
  });

  it("puts a request id on every response and in the log line of that request", async () => {
    const response = await h.app.request("/health");
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^req_[0-9A-Z]{26}$/);
    const line = h.logLines.find((l) => l.msg === "request" && l.requestId === requestId);
    expect(line).toMatchObject({ method: "GET", path: "/health", status: 200, level: "info" });
  });

  it("keeps a caller's sane X-Request-Id and replaces an unsafe one", async () => {
    const kept = await h.app.request("/health", { headers: { "x-request-id": "partner-trace-1234" } });
    expect(kept.headers.get("x-request-id")).toBe("partner-trace-1234");
    const replaced = await h.app.request("/health", { headers: { "x-request-id": "bad id\twith spaces" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("answers an unknown route with 404 JSON", async () => {
    const response = await h.app.request("/nope");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
  });
});
