import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { equalBytes } from "../kernel/constant-time";
import { ApiError } from "../kernel/errors/api-error";
import { inRanges } from "../kernel/ip-ranges";
import { API_KEY_PREFIXES, type ApiKeyMode, apiKeyModeFor, apiKeyModeOf } from "../tenancy/api-key-format";
import { authenticateApiKey, bearerToken } from "../tenancy/authenticate";
import type { KeyRestrictions } from "../tenancy/caller";
import { allows } from "../tenancy/scopes";
import { afterResponse } from "./after-response";
import type { AppEnv } from "./env";
import { respondWithError, unauthorized } from "./errors";
import { scopeOfRoute } from "./operation-scopes";

/**
 * Partner routes: the API key decides the caller; then the per-key rate limit. A key of the other
 * mode (a test key in live mode, a live key in mock mode) is refused before anything is looked up,
 * with a 401 that says which kind is expected. The last-use write, when due, runs after the response.
 */
export function partnerAuth(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const services = c.get("services");
    const presented = bearerToken(c.req.header("authorization"));
    const expected = apiKeyModeFor(services.config.MODE);
    const presentedMode = presented === undefined ? undefined : apiKeyModeOf(presented);
    const otherMode = presentedMode !== undefined && presentedMode !== expected;
    const authenticated = otherMode ? undefined : await authenticateApiKey(services, presented, expected);
    const { rateLimits } = c.get("deps");
    if (!authenticated) {
      // Failed attempts count against the caller's IP, so guessing keys is throttled too.
      const { success } = await rateLimits.perIp.limit({ key: clientIp(c) });
      if (!success) {
        return respondWithError(
          c,
          new ApiError("RATE_LIMITED", { retryAfterSeconds: rateLimits.periodSeconds }),
        );
      }
      return otherMode ? c.json({ error: otherModeMessage(presentedMode, expected) }, 401) : unauthorized(c);
    }
    // Per key, then per organization over all its keys (minting keys buys no budget).
    const withinKey = await rateLimits.perKey.limit({ key: authenticated.caller.keyId });
    const success =
      withinKey.success &&
      (await rateLimits.perOrganization.limit({ key: authenticated.caller.organizationId })).success;
    if (!success) {
      return respondWithError(
        c,
        new ApiError("RATE_LIMITED", { retryAfterSeconds: rateLimits.periodSeconds }),
      );
    }
    const refusal = keyRefusal(c, authenticated.caller.restrictions);
    // The key was used (its last use is written) even when its limits refuse this request.
    if (authenticated.touch) afterResponse(c, authenticated.touch());
    if (refusal) return respondWithError(c, refusal);
    c.set("caller", authenticated.caller);
    c.get("services").actor = { type: "api_key", id: authenticated.caller.keyId, ip: clientAddressOf(c) };
    await next();
  };
}

/**
 * What a restricted key may not do here: a client address outside its allow list (IP_NOT_ALLOWED),
 * or an operation outside its scopes (INSUFFICIENT_SCOPE, naming the scope). The operation is the
 * route the request matched, by its operationId (OPERATION_SCOPES).
 */
function keyRefusal(c: Context<AppEnv>, restrictions: KeyRestrictions | undefined): ApiError | undefined {
  if (!restrictions) return undefined;
  if (
    restrictions.allowedIps &&
    !inRanges(c.get("deps").clientAddress(c.req.raw, c.env) ?? "", restrictions.allowedIps)
  ) {
    return new ApiError("IP_NOT_ALLOWED");
  }
  if (restrictions.scopes === null) return undefined;
  const needed = scopeOfRoute(c.req.method, routePath(c, -1));
  if (allows(restrictions.scopes, needed)) return undefined;
  return new ApiError("INSUFFICIENT_SCOPE", {
    ...(needed ? { detail: `(${needed})`, extras: { requiredScope: needed } } : {}),
  });
}

function otherModeMessage(presented: ApiKeyMode, expected: ApiKeyMode): string {
  const service = expected === "live" ? "live mode" : "test mode";
  return `This is a ${presented} key (${API_KEY_PREFIXES[presented]}…); this service runs in ${service} and accepts ${expected} keys (${API_KEY_PREFIXES[expected]}…) only.`;
}

/** Admin routes: the operator's ADMIN_TOKEN, compared in constant time; partner keys never pass. */
export function adminAuth(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const expected = c.get("deps").config.ADMIN_TOKEN;
    const presented = bearerToken(c.req.header("authorization"));
    if (!expected || !presented || !(await sameSecret(presented, expected))) {
      return c.json({ error: "Missing or invalid admin token" }, 401);
    }
    c.get("services").actor = { type: "operator", id: "operator", ip: clientAddressOf(c) };
    await next();
  };
}

/** Compares digests, so neither the length nor a common prefix of the secret leaks through timing. */
async function sameSecret(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([digest(a), digest(b)]);
  return equalBytes(da, db);
}

async function digest(value: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value)));
}

/** Routes without a partner key are limited per client IP, as the runtime knows it (client-address.ts). */
export function ipRateLimit(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { rateLimits } = c.get("deps");
    const { success } = await rateLimits.perIp.limit({ key: clientIp(c) });
    if (!success) {
      return respondWithError(
        c,
        new ApiError("RATE_LIMITED", { retryAfterSeconds: rateLimits.periodSeconds }),
      );
    }
    await next();
  };
}

/** The client's address as the runtime vouches for it, or null when it cannot place the caller. */
export function clientAddressOf(c: Context<AppEnv>): string | null {
  return c.get("deps").clientAddress(c.req.raw, c.env) ?? null;
}

/** The client's address as the runtime vouches for it; callers it cannot place share one bucket. */
export function clientIp(c: Context<AppEnv>): string {
  return c.get("deps").clientAddress(c.req.raw, c.env) ?? "unknown";
}
