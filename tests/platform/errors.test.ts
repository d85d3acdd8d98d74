import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as listOrganizations } from "../../functions/tenancy/admin-list-organizations";
import { errorBodySchema } from "../../lib/http/openapi-errors";
import { ApiError } from "../../lib/kernel/errors/api-error";
import { errorBody, preferredLanguage } from "../../lib/kernel/errors/error-body";
import { ERROR_CODES, ERRORS } from "../../lib/kernel/errors/registry";
import { createHarness, type Harness, TEST_ADMIN_TOKEN } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";

const SPEC_CODES = [
  "INVALID_REQUEST",
  "RATE_LIMITED",
  "INVALID_AMOUNT",
  "INVALID_SOURCE_ADDRESS",
  "INVALID_DESTINATION_ADDRESS",
  "BELOW_MINIMUM",
  "ABOVE_MAXIMUM",
  "QUOTE_EXPIRED",
  "QUOTE_NOT_FOUND",
  "ROUTE_UNAVAILABLE",
  "SLIPPAGE_LIMIT_EXCEEDED",
  "MENTO_CAPACITY_EXCEEDED",
  "IDEMPOTENCY_CONFLICT",
  "QUOTE_ALREADY_USED",
  "INVALID_BURN",
  "BURN_ALREADY_USED",
  "INVALID_IDEMPOTENCY_KEY",
  "ORDER_NOT_FOUND",
  "PROVIDER_UNAVAILABLE",
  "INTERNAL_ERROR",
  "INTAKE_PAUSED",
  "SETTLEMENT_ACCOUNT_INACTIVE",
];

/** A body as it is, unparsed (a schema would drop extra keys): exactly `error`, carrying the spec's fields. */
function expectSpecShape(body: unknown) {
  expect(body).toBeTypeOf("object");
  expect(Object.keys(Object(body))).toEqual(["error"]);
  expect(body).toHaveProperty(
    "error",
    expect.objectContaining({
      code: expect.any(String),
      message: expect.any(String),
      stage: expect.any(String),
      fundsStatus: expect.any(String),
      fundsMoved: expect.any(Boolean),
      retryable: expect.any(Boolean),
      nextAction: expect.any(String),
    }),
  );
}

describe("error registry", () => {
  it("holds every code of spec section 7", () => {
    for (const code of SPEC_CODES) expect(ERROR_CODES).toContain(code);
  });

  it("renders every code in the spec 2.4 shape, in Spanish and English", () => {
    for (const code of ERROR_CODES) {
      for (const language of ["es", "en"] as const) {
        const body = errorBody(new ApiError(code), language, "req_x");
        expectSpecShape(body);
        expect(body.error).toMatchObject({
          code,
          message: ERRORS[code].message[language],
          retryable: ERRORS[code].retryable,
          nextAction: ERRORS[code].nextAction,
          fundsMoved: false,
          requestId: "req_x",
        });
      }
      expect(ERRORS[code].message.es).not.toBe(ERRORS[code].message.en);
    }
  });

  it("gives QUOTE_EXPIRED the spec's stage, funds status, retryability and next action", () => {
    const body = errorBody(
      new ApiError("QUOTE_EXPIRED", { stage: "CREATED", fundsStatus: "IN_USER_WALLET" }),
      "es",
    );
    expect(body.error).toMatchObject({
      code: "QUOTE_EXPIRED",
      stage: "CREATED",
      fundsStatus: "IN_USER_WALLET",
      fundsMoved: false,
      retryable: true,
      nextAction: "CREATE_NEW_QUOTE",
    });
  });

  it("prefers English only when the caller ranks it above Spanish", () => {
    expect(preferredLanguage(undefined)).toBe("es");
    expect(preferredLanguage("en")).toBe("en");
    expect(preferredLanguage("en-US,en;q=0.9")).toBe("en");
    expect(preferredLanguage("es-CO,en;q=0.5")).toBe("es");
    expect(preferredLanguage("fr, en;q=0.8")).toBe("en");
    expect(preferredLanguage("en;q=0, es")).toBe("es");
    expect(preferredLanguage("de")).toBe("es");
  });
});

describe("errors over HTTP", () => {
  let h: Harness;
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
  beforeAll(async () => {
    h = await createHarness();
    h.app.get("/test/boom", () => {
      throw new Error("connection string postgres://user:hunter2@db/prod failed");
    });
    // A Response made without Hono's context helpers, as a library's handler may answer.
    h.app.get("/test/raw", () => new Response("raw", { headers: { "content-type": "text/plain" } }));
  });
  afterAll(() => h.close());

  it("answers an unknown route with 404 NOT_FOUND in the error shape", async () => {
    const response = await h.app.request("/no/such/route");
    expectSpecShape(await response.clone().json());
    expect(await errorOf(response, 404)).toMatchObject({
      code: "NOT_FOUND",
      requestId: response.headers.get("x-request-id"),
    });
  });

  it("answers a known path with the wrong method with 405 and Allow", async () => {
    const response = await h.app.request("/health", { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
    expect((await errorOf(response)).code).toBe("METHOD_NOT_ALLOWED");
    const withParam = await h.app.request("/admin/organizations/org_x", { method: "PUT", headers: admin });
    expect(withParam.status).toBe(405);
    expect(withParam.headers.get("allow")).toBe("GET, PATCH");
  });

  it("answers malformed JSON with 400 INVALID_REQUEST", async () => {
    const response = await h.app.request("/admin/organizations", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: '{"name": "unterminated',
    });
    expectSpecShape(await response.clone().json());
    expect((await errorOf(response, 400)).code).toBe("INVALID_REQUEST");
  });

  it("answers a body over 64 KiB with 413 and creates nothing", async () => {
    const before = await bodyOf(
      await h.app.request("/admin/organizations", { headers: admin }),
      listOrganizations,
      200,
    );
    const response = await h.app.request("/admin/organizations", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(70 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe("PAYLOAD_TOO_LARGE");
    const after = await bodyOf(
      await h.app.request("/admin/organizations", { headers: admin }),
      listOrganizations,
      200,
    );
    expect(after.organizations.length).toBe(before.organizations.length);
  });

  it("answers a body that is not JSON with 415", async () => {
    const response = await h.app.request("/admin/organizations", {
      method: "POST",
      headers: { ...admin, "content-type": "text/plain" },
      body: "name=x",
    });
    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("answers anything unexpected with 500 INTERNAL_ERROR, no internals, logged with the request id", async () => {
    const response = await h.app.request("/test/boom");
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("at ");
    const body: unknown = JSON.parse(text);
    expectSpecShape(body);
    expect(errorBodySchema.parse(body).error.code).toBe("INTERNAL_ERROR");
    const requestId = response.headers.get("x-request-id");
    const logged = h.logLines.find((l) => l.msg === "unhandled error" && l.requestId === requestId);
    expect(logged).toMatchObject({ level: "error", errorName: "Error" });
  });

  it("logs a database failure with the driver's message and SQLSTATE under the ORM's error, never the request's values or a secret", async () => {
    const organizationsTable = "organizations";
    await h.database.db.execute(sql.raw(`alter table ${organizationsTable} rename to organizations_gone`));
    try {
      const response = await h.app.request("/admin/organizations", {
        method: "POST",
        headers: { ...admin, "content-type": "application/json" },
        body: JSON.stringify({ name: "someone@example.com copm_live_abcdef0123456789" }),
      });
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).not.toMatch(/organizations|relation|42P01/);
      const requestId = response.headers.get("x-request-id");
      const logged = h.logLines.find((l) => l.msg === "unhandled error" && l.requestId === requestId);
      const causes = (logged?.causes ?? []) as Array<{ message: string; code?: string }>;
      expect(causes).toContainEqual(
        expect.objectContaining({
          code: "42P01",
          message: expect.stringContaining('relation "organizations" does not exist'),
        }),
      );
      const line = JSON.stringify(logged);
      expect(line).not.toContain("someone@example.com");
      expect(line).not.toContain("copm_live_abcdef0123456789");
    } finally {
      await h.database.db.execute(sql.raw("alter table organizations_gone rename to organizations"));
    }
  });

  it("sends X-Content-Type-Options: nosniff on every answer: success, each kind of error, the pages (issue 37, finding 5)", async () => {
    const json = { ...admin, "content-type": "application/json" };
    const requests: Array<[string, RequestInit?]> = [
      ["/health"],
      ["/openapi.json"],
      ["/docs"],
      ["/admin/organizations", { headers: admin }],
      ["/admin/organizations", { method: "POST", headers: json, body: "{" }],
      ["/admin/organizations"],
      ["/api/integrations/webhooks/events"],
      ["/no/such/route"],
      ["/health", { method: "DELETE" }],
      ["/callbacks/kyc", { method: "POST" }],
      ["/dashboard/sign-in"],
      ["/test/boom"],
      ["/test/raw"],
    ];
    const sniffable: string[] = [];
    for (const [path, init] of requests) {
      const response = await h.app.request(path, init);
      const header = response.headers.get("x-content-type-options");
      if (header !== "nosniff")
        sniffable.push(`${init?.method ?? "GET"} ${path} ${response.status}: ${header}`);
    }
    expect(sniffable).toEqual([]);
  });

  it("speaks English when asked", async () => {
    const response = await h.app.request("/nope", { headers: { "accept-language": "en-US" } });
    expect((await errorOf(response)).message).toBe(ERRORS.NOT_FOUND.message.en);
    const spanish = await h.app.request("/nope");
    expect((await errorOf(spanish)).message).toBe(ERRORS.NOT_FOUND.message.es);
  });
});
