import { describe, expect, it } from "vitest";
import { z } from "zod";
import { route as listApiKeys } from "../../functions/tenancy/admin-list-api-keys";
import { UNAUTHORIZED_BODY } from "../../lib/http/errors";
import { apiKeyModeFor, generateApiKey } from "../../lib/tenancy/api-key-format";
import { type Harness, TEST_ADMIN_TOKEN } from "./app";
import { bodyOf, errorOf } from "./bodies";
import { adminRequest, createTenant, type Tenant } from "./tenants";

export interface PartnerRoute {
  method: string;
  /** The path, for the tenant that owns what it names (when it names anything). */
  path: (owner: Tenant) => string | Promise<string>;
  body?: unknown;
  /** For routes that read a tenant's resource: another tenant's key must see it as missing. */
  missingPath?: string;
}

/**
 * An error body's `error` as sent, every field kept (the error schema would drop one it does not
 * declare, and with it a difference between two answers), without the request id that tells them apart.
 */
export async function rawErrorWithoutRequestId(response: Response): Promise<Record<string, unknown>> {
  const { error } = z
    .object({ error: z.record(z.string(), z.unknown()) })
    .strict()
    .parse(await response.json());
  return { ...error, requestId: undefined };
}

/**
 * The security every partner route must have, run against that route: every bad credential gets
 * the same 401 body, admin credentials do not work here, and another tenant's resource is missing.
 */
export function describePartnerRouteSecurity(name: string, harness: () => Harness, route: PartnerRoute) {
  describe(`${name}: partner security`, () => {
    const send = async (tenant: Tenant, authorization: string | undefined, path?: string) => {
      const h = harness();
      return h.app.request(path ?? (await route.path(tenant)), {
        method: route.method,
        headers: {
          "content-type": "application/json",
          ...(authorization === undefined ? {} : { authorization }),
        },
        ...(route.body === undefined ? {} : { body: JSON.stringify(route.body) }),
      });
    };

    it("answers 401 with one identical body for a missing, malformed, unknown or revoked key", async () => {
      const h = harness();
      const owner = await createTenant(h);
      const path = await route.path(owner); // before the owner's key is revoked below
      const unknown = (await generateApiKey(apiKeyModeFor(h.deps.config.MODE))).key;
      const keys = await bodyOf(
        await adminRequest(h, `/admin/integrations/${owner.integrationId}/keys`),
        listApiKeys,
        200,
      );
      const revoke = await adminRequest(
        h,
        `/admin/integrations/${owner.integrationId}/keys/${keys.keys[0]?.id}`,
        {
          method: "DELETE",
        },
      );
      expect(revoke.status).toBe(200);
      const attempts: Array<[string, string | undefined]> = [
        ["no Authorization header", undefined],
        ["an empty bearer", "Bearer "],
        ["a malformed key", "Bearer not-a-key"],
        [
          "a key with a broken checksum",
          `Bearer ${unknown.slice(0, -1)}${unknown.endsWith("a") ? "b" : "a"}`,
        ],
        ["an unknown well-formed key", `Bearer ${unknown}`],
        ["a revoked key", `Bearer ${owner.apiKey}`],
        ["the key without the Bearer scheme", owner.apiKey],
        ["the admin token", `Bearer ${TEST_ADMIN_TOKEN}`],
      ];
      for (const [what, authorization] of attempts) {
        const response = await send(owner, authorization, path);
        expect(response.status, what).toBe(401);
        expect(await response.json(), what).toEqual(UNAUTHORIZED_BODY);
      }
    });

    it("does not let the partner key into the admin API", async () => {
      const h = harness();
      const owner = await createTenant(h);
      const response = await h.app.request("/admin/organizations", {
        headers: { authorization: `Bearer ${owner.apiKey}` },
      });
      expect(response.status).toBe(401);
    });

    if (route.missingPath) {
      const missingPath = route.missingPath;
      it("answers another organization's key exactly as for a missing resource", async () => {
        const h = harness();
        const owner = await createTenant(h);
        const stranger = await createTenant(h, "Stranger");
        const foreign = await send(owner, `Bearer ${stranger.apiKey}`);
        const missing = await send(stranger, `Bearer ${stranger.apiKey}`, missingPath);
        // A documented refusal, and the very body a missing resource gets, field for field.
        await errorOf(foreign.clone(), 404);
        expect(await rawErrorWithoutRequestId(foreign)).toEqual(await rawErrorWithoutRequestId(missing));
      });
    }
  });
}
