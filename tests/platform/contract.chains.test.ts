import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_KYC_CALLBACK_SECRET } from "../../dev/local-defaults";
import { route as getSandboxNetwork } from "../../functions/sandbox/get-network";
import { route as prepareSwap } from "../../functions/swaps/prepare-swap";
import { operationsApp } from "../../lib/composition/app";
import { API_VERSIONS } from "../../lib/http/api-versions";
import type { RateLimiter } from "../../lib/kernel/rate-limit";
import { signedHeaders } from "../../lib/webhooks/signature";
import { createHarness, type Harness, TEST_ADMIN_TOKEN } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { CONTRACT_HEADERS, type Contract, contractOf, unknownKeys } from "../harness/contract";
import { approvedUser, createdPayout, postCallback, signedCallback } from "../harness/payouts";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

/**
 * The contract says exactly what the service sends (issue 34, item 5): a sample of real requests,
 * success and error, answered with exactly the headers the document declares for their status, and
 * JSON its declared schema accepts with unknown keys refused; every declared status of the callbacks
 * and the payout reads reached. (Every suite's in-process answers are checked the same way by the
 * harness: tests/harness/contract.ts.)
 */
let h: Harness;
let tenant: Tenant;
let contract: Contract;
let payoutId: string;

beforeAll(async () => {
  h = await createHarness({
    chains: true,
    payouts: true,
    env: { KYC_CALLBACK_SECRET: LOCAL_KYC_CALLBACK_SECRET },
    // This suite checks each answer itself, to count what it saw.
    contract: false,
  });
  contract = contractOf(await operationsApp());
  tenant = await createTenant(h);
  const user = await approvedUser(h, tenant, { usdc: "50" });
  payoutId = (await createdPayout(h, tenant, user, { destinationCop: "10000" })).payout.payoutId;
}, 120_000);
afterAll(() => h.close());

/** A request the suite makes, as `app.request` answers it. */
type Call = () => Response | Promise<Response>;

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const partner = () => ({ authorization: `Bearer ${tenant.apiKey}` });

/** A key of the tenant's restricted to reading swaps: every payout read is 403 INSUFFICIENT_SCOPE with it. */
let swapsOnly: Promise<string> | undefined;
function swapsOnlyKey(): Promise<string> {
  swapsOnly ??= (async () => {
    const response = await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys`, {
      method: "POST",
      body: { scopes: ["swaps:read"] },
    });
    return ((await response.json()) as { apiKey: string }).apiKey;
  })();
  return swapsOnly;
}

/** Runs `work` with every per-key (and per-IP) limit refusing, as a caller over its limit meets it. */
async function overTheLimit(work: Call): Promise<Response> {
  const limits = h.deps.rateLimits as { perKey: RateLimiter; perIp: RateLimiter };
  const real = { perKey: limits.perKey, perIp: limits.perIp };
  const refusing: RateLimiter = { limit: async () => ({ success: false }) };
  limits.perKey = refusing;
  limits.perIp = refusing;
  try {
    return await work();
  } finally {
    Object.assign(limits, real);
  }
}

/** Runs `work` with `table` gone, so the operation meets a fault it cannot answer but with 500. */
async function withTableGone(table: string, work: Call): Promise<Response> {
  await h.database.db.execute(sql.raw(`alter table ${table} rename to ${table}_gone`));
  try {
    return await work();
  } finally {
    await h.database.db.execute(sql.raw(`alter table ${table}_gone rename to ${table}`));
  }
}

function kycCallback(body: string, secret = LOCAL_KYC_CALLBACK_SECRET) {
  return h.app.request("/callbacks/kyc", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...signedHeaders([secret], `msg_${randomBytes(6).toString("hex")}`, h.clock.now(), body),
    },
    body,
  });
}

const kycReport = () =>
  JSON.stringify({
    type: "kyc.status",
    data: {
      customerId: "cus_unknown",
      externalId: "kyc_unknown",
      status: "approved",
      updatedAt: h.clock.now().toISOString(),
    },
  });

const payoutReport = (id: string) =>
  signedCallback(h, {
    payoutId: id,
    providerPayoutId: "bpo_unknown",
    status: "processing",
    updatedAt: h.clock.now().toISOString(),
  });

/** A sample of requests, success and error, named by what they show. */
function sample(): Array<[string, Call]> {
  const get =
    (path: string, headers: Record<string, string> = partner()) =>
    () =>
      h.app.request(path, { headers });
  const post =
    (path: string, body: unknown, headers: Record<string, string> = partner()) =>
    () =>
      h.app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
  const today = h.clock.now().toISOString();
  const period = `from=2026-01-01T00:00:00Z&to=${encodeURIComponent(today)}`;
  return [
    ["health", get("/health", {})],
    ["the sandbox network", get("/api/integrations/sandbox/network")],
    [
      "a settlement quote (201)",
      post("/api/integrations/settlements/quotes", {
        sendAmountUsdc: "100",
        sourceAddress: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
        destinationAddress: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
      }),
    ],
    ["a page of orders", get("/api/integrations/settlements/orders?limit=5")],
    ["a missing order (404)", get("/api/integrations/settlements/orders/ord_missing")],
    ["a page of payouts", get("/api/integrations/breb/payouts")],
    ["a payout", get(`/api/integrations/breb/payouts/${payoutId}`)],
    ["a payout quote", get("/api/integrations/breb/quote?destinationCop=10000&fromToken=USDC")],
    ["a page of webhook events", get("/api/integrations/webhooks/events")],
    ["no webhook endpoint (404)", get("/api/integrations/webhooks/endpoint")],
    ["a statement page", get(`/api/integrations/statements?${period}`)],
    ["a CSV statement (Content-Disposition)", get(`/api/integrations/statements?${period}&format=csv`)],
    ["an unknown transaction (404)", get(`/api/integrations/transactions/0x${"ab".repeat(32)}`)],
    [
      "a swap whose transaction the chain does not know yet (409, Retry-After)",
      async () => {
        const prepared = await post("/api/integrations/swaps/prepare", {
          wallet: privateKeyToAccount(generatePrivateKey()).address,
          tokenIn: "USDC",
          tokenOut: "COPm",
          amountIn: "1000000",
        })();
        const { intentId } = await bodyOf(prepared, prepareSwap, 201);
        return post(`/api/integrations/swaps/${intentId}/confirm`, { txHash: `0x${"cd".repeat(32)}` })();
      },
    ],
    ["a misspelt filter (400)", get("/api/integrations/settlements/orders?stauts=DELIVERED")],
    [
      "an unknown API-Version (400)",
      get("/api/integrations/webhooks/events", { ...partner(), "API-Version": "1999-01-01" }),
    ],
    ["no key (401)", get("/api/integrations/webhooks/events", {})],
    ["over the key's limit (429, Retry-After)", () => overTheLimit(get("/api/integrations/webhooks/events"))],
    [
      "a body that is not JSON (415)",
      post("/api/integrations/settlements/quotes", "x", { ...partner(), "content-type": "text/plain" }),
    ],
    ["the admin's organizations", get("/admin/organizations", admin)],
    ["no admin token (401)", get("/admin/organizations", {})],
    [
      "an unsigned KYC callback (401)",
      () => kycCallback(kycReport(), `whsec_${btoa("not the callback secret at all!!")}`),
    ],
    ["a signed KYC callback (200)", () => kycCallback(kycReport())],
    ["a signed payout callback (200)", () => postCallback(h, payoutReport("po_unknown"))],
  ];
}

describe("the headers the service sends are the headers the document declares", () => {
  it("declares API-Version and X-Request-Id on every response, and API-Version as an optional request header on every operation but the callbacks, with the known versions", () => {
    const { document } = contract;
    const parameters = document as unknown as {
      components: {
        parameters: Record<string, { name: string; in: string; required: boolean; schema: unknown }>;
      };
      paths: Record<string, Record<string, { parameters?: Array<{ $ref?: string }> }>>;
    };
    expect(parameters.components.parameters.ApiVersion).toMatchObject({
      name: "API-Version",
      in: "header",
      required: false,
    });
    let operations = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        operations += 1;
        for (const [status, response] of Object.entries(operation.responses)) {
          expect(Object.keys(response.headers ?? {}), `${method} ${path} ${status}`).toEqual(
            expect.arrayContaining(["API-Version", "X-Request-Id"]),
          );
        }
        const pins = (parameters.paths[path]?.[method]?.parameters ?? []).some(
          (parameter) => parameter.$ref === "#/components/parameters/ApiVersion",
        );
        expect(pins, `${method} ${path} declares the API-Version request header`).toBe(
          !path.startsWith("/callbacks/"),
        );
      }
    }
    expect(operations).toBeGreaterThan(55);
    const schemas = (document as unknown as { components: { schemas: Record<string, { enum?: string[] }> } })
      .components.schemas;
    expect(schemas.ApiVersion?.enum).toEqual([...API_VERSIONS]);
  });

  it("answers a sample of requests, success and error, with each of API-Version, X-Request-Id, Retry-After and Content-Disposition exactly where its status declares it, and JSON its schema accepts with unknown keys refused", async () => {
    const violations: string[] = [];
    const seen = new Set<string>();
    const statuses = new Set<number>();
    for (const [name, request] of sample()) {
      const response = await request();
      statuses.add(response.status);
      for (const header of CONTRACT_HEADERS) if (response.headers.has(header)) seen.add(header);
      const { method, path } = lastRequest(name, response);
      violations.push(...(await contract.violations(method, path, response)).map((v) => `${name}: ${v}`));
      expect(contract.operationOf(method, path), `${name} reaches a documented operation`).toBeDefined();
    }
    expect(violations).toEqual([]);
    expect([...seen].sort()).toEqual([...CONTRACT_HEADERS].sort());
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 201, 400, 401, 404, 409, 415, 429]));
  }, 60_000);

  it("answers the sandbox network with exactly the fields its schema declares: the four contracts it always sent among them", async () => {
    const response = await h.app.request("/api/integrations/sandbox/network", { headers: partner() });
    // The body as sent, for its unknown keys below; read with its schema, the fields both declare and send.
    const body: unknown = await response.clone().json();
    const network = await bodyOf(response, getSandboxNetwork, 200);
    const sent = new Set(network.chains.flatMap((chain) => Object.keys(chain.contracts)));
    for (const field of ["messageTransmitter", "relayReceiver", "mentoRouter", "payoutDepositor"]) {
      expect(sent, field).toContain(field);
    }
    const operation = contract.operationOf("GET", "/api/integrations/sandbox/network");
    const answer = operation?.route.responses[200] as
      | { content: { "application/json": { schema: never } } }
      | undefined;
    const schema = answer?.content["application/json"].schema;
    if (!schema) throw new Error("the sandbox network declares no JSON answer");
    expect(unknownKeys(schema, body, "body")).toEqual([]);
  });
});

/** Every status an operation declares is one a request can meet: the callbacks and the payout reads. */
describe("declared statuses are reachable", () => {
  const reachable: Record<string, Record<string, Call>> = {
    getBrebPayout: {
      200: () => h.app.request(`/api/integrations/breb/payouts/${payoutId}`, { headers: partner() }),
      400: () =>
        h.app.request(`/api/integrations/breb/payouts/${payoutId}?expand=all`, { headers: partner() }),
      401: () => h.app.request(`/api/integrations/breb/payouts/${payoutId}`),
      403: async () =>
        h.app.request(`/api/integrations/breb/payouts/${payoutId}`, {
          headers: { authorization: `Bearer ${await swapsOnlyKey()}` },
        }),
      404: () => h.app.request("/api/integrations/breb/payouts/po_missing", { headers: partner() }),
      429: () =>
        overTheLimit(() =>
          h.app.request(`/api/integrations/breb/payouts/${payoutId}`, { headers: partner() }),
        ),
      500: () =>
        withTableGone("breb_payouts", () =>
          h.app.request(`/api/integrations/breb/payouts/${payoutId}`, { headers: partner() }),
        ),
    },
    listBrebPayouts: {
      200: () => h.app.request("/api/integrations/breb/payouts", { headers: partner() }),
      400: () => h.app.request("/api/integrations/breb/payouts?userAddress=0xnot", { headers: partner() }),
      401: () => h.app.request("/api/integrations/breb/payouts"),
      403: async () =>
        h.app.request("/api/integrations/breb/payouts", {
          headers: { authorization: `Bearer ${await swapsOnlyKey()}` },
        }),
      429: () => overTheLimit(() => h.app.request("/api/integrations/breb/payouts", { headers: partner() })),
      500: () =>
        withTableGone("breb_payouts", () =>
          h.app.request("/api/integrations/breb/payouts", { headers: partner() }),
        ),
    },
    brebPayoutCallback: {
      200: () => postCallback(h, payoutReport("po_unknown")),
      400: () => {
        const signed = signedCallback(h, { payoutId: "po_x" } as never);
        return postCallback(h, signed);
      },
      401: () =>
        postCallback(h, { ...payoutReport("po_unknown"), headers: { "content-type": "application/json" } }),
      413: () =>
        h.app.request("/callbacks/breb", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ padding: "x".repeat(70_000) }),
        }),
      415: () => {
        const signed = payoutReport("po_unknown");
        return postCallback(h, { ...signed, headers: { ...signed.headers, "content-type": "text/plain" } });
      },
      500: () => withTableGone("breb_payouts", () => postCallback(h, payoutReport("po_unknown"))),
    },
    kycCallback: {
      200: () => kycCallback(kycReport()),
      400: () => kycCallback(JSON.stringify({ type: "kyc.status", data: { status: "maybe" } })),
      401: () => kycCallback(kycReport(), `whsec_${btoa("not the callback secret at all!!")}`),
      413: () =>
        h.app.request("/callbacks/kyc", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ padding: "x".repeat(70_000) }),
        }),
      415: () =>
        h.app.request("/callbacks/kyc", {
          method: "POST",
          headers: { "content-type": "application/json; charset=latin1" },
          body: kycReport(),
        }),
      500: () => withTableGone("kyc_records", () => kycCallback(kycReport())),
    },
  };

  it.each(Object.keys(reachable))(
    "%s: every declared status is reached, and no other is declared",
    async (operationId) => {
      const declared = Object.entries(contract.document.paths).flatMap(([path, methods]) =>
        Object.entries(methods)
          .filter(([, operation]) => (operation as { operationId?: string }).operationId === operationId)
          .map(([method, operation]) => ({
            method,
            path,
            statuses: Object.keys(operation.responses).sort(),
          })),
      )[0];
      expect(declared, operationId).toBeDefined();
      const makers = reachable[operationId] ?? {};
      expect(declared?.statuses).toEqual(Object.keys(makers).sort());
      for (const [status, make] of Object.entries(makers)) {
        const response = await make();
        expect(response.status, `${operationId} ${status}: ${await response.clone().text()}`).toBe(
          Number(status),
        );
        const { method, path } = lastRequest(operationId, response);
        expect(await contract.violations(method, path, response)).toEqual([]);
      }
    },
    60_000,
  );
});

// What each sample request was, read back from the log line the request context writes for it.
function lastRequest(name: string, response: Response): { method: string; path: string } {
  const requestId = response.headers.get("x-request-id");
  const line = [...h.logLines]
    .reverse()
    .find((entry) => entry.msg === "request" && entry.requestId === requestId);
  if (!line) throw new Error(`${name}: no request log line for ${requestId}`);
  return { method: String(line.method), path: String(line.path) };
}
