import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Config } from "../kernel/config";
import { configurationFingerprints, differingVariables } from "../kernel/config/fingerprint";
import { withinDeadline } from "../kernel/deadline";
import { ApiError } from "../kernel/errors/api-error";
import { randomToken } from "../kernel/secret-token";
import { clientAddressOf } from "./auth";
import type { ClientAddressOf } from "./client-address";
import type { PagesWorker } from "./deps";
import type { AppEnv } from "./env";

/** The partner dashboard's pages, server-rendered for organization members (functions/dashboard). */
export const DASHBOARD_PATH = "/dashboard";
/** The end user's BRE-B payout page (functions/miniapp). */
export const MINIAPP_PATH = "/miniapp";

/** The paths the pages worker serves: everything under the dashboard, and the miniapp's page. */
const PAGE_PATHS = [DASHBOARD_PATH, `${DASHBOARD_PATH}/*`, MINIAPP_PATH] as const;

/**
 * The client's address as the API worker's runtime vouches for it (CF-Connecting-IP on Workers, the
 * socket in Node), for the pages' per-IP limits. The pages worker has no route of its own, so this
 * header only ever comes from the API worker, which replaces whatever a client sent under the name.
 */
const CLIENT_ADDRESS_HEADER = "x-copm-client-address";

/** The pages worker's way to know its client: what the API worker said (forwardPages). */
export const forwardedClientAddress: ClientAddressOf = (request) =>
  request.headers.get(CLIENT_ADDRESS_HEADER) ?? undefined;

/**
 * The API worker hands the pages' paths to the pages worker (functions/pages.ts), same origin, so
 * partner API isolates never load the dashboard's and miniapp's code (docs/architecture.md, "Two
 * workers"). The request goes as it came, with this request's id (both workers log one id) and the
 * client's address.
 */
export function forwardPages(app: OpenAPIHono<AppEnv>, pages: PagesWorker | undefined): void {
  for (const path of PAGE_PATHS) {
    app.all(path, async (c) => {
      // A deployment whose API worker lacks the binding (wrangler.toml's [[services]]): its pages say so.
      if (!pages) throw new ApiError("PAGES_UNCONFIGURED");
      const headers = new Headers(c.req.raw.headers);
      headers.set("x-request-id", c.get("requestId"));
      headers.delete(CLIENT_ADDRESS_HEADER);
      // The body is re-read whole below: its length is the new body's, not the one sent.
      headers.delete("content-length");
      const address = clientAddressOf(c);
      if (address !== null) headers.set(CLIENT_ADDRESS_HEADER, address);
      const method = c.req.method;
      // Read through Hono: a guard before may have read the body already (the text is kept).
      const body = method === "GET" || method === "HEAD" ? undefined : await c.req.arrayBuffer();
      return pages.fetch(new Request(c.req.url, { method, headers, body, redirect: "manual" }));
    });
  }
}

/**
 * Where the pages worker answers the API worker's configuration check. Reachable over the binding
 * only: the pages worker has no public entry, and the API worker forwards the page paths alone.
 */
const CONFIGURATION_CHECK_PATH = "/internal/pages/configuration";

/** The pages worker's side of the check: its variables' fingerprints under the API worker's nonce. */
export function answerConfigurationCheck(app: OpenAPIHono<AppEnv>): void {
  app.post(CONFIGURATION_CHECK_PATH, async (c) => {
    const { nonce } = (await c.req.json().catch(() => ({}))) as { nonce?: unknown };
    if (typeof nonce !== "string" || !/^[A-Za-z0-9_-]{32,128}$/.test(nonce)) {
      throw new ApiError("INVALID_REQUEST", { detail: "(nonce: 32 to 128 base64url characters)" });
    }
    return c.json({ fingerprints: await configurationFingerprints(c.get("deps").config, nonce) });
  });
}

/**
 * Whether the pages worker runs on this worker's values (docs/operations.md: the two must be the
 * same, or webhook secrets and jobs the dashboard makes break): `same`, `differs` naming the
 * variables (never their values), `unreachable`, or `unbound` (no PAGES binding).
 */
export type PagesConfiguration =
  | { status: "same" | "unreachable" | "unbound"; differing: [] }
  | { status: "differs"; differing: string[] };

export async function pagesConfiguration(
  pages: PagesWorker | undefined,
  config: Config,
): Promise<PagesConfiguration> {
  if (!pages) return { status: "unbound", differing: [] };
  const nonce = randomToken();
  try {
    // Within the providers' deadline: a pages worker that hangs must not hold the operator's health.
    const fingerprints = await withinDeadline("pages", config.PROVIDER_TIMEOUT_MS, async (signal) => {
      const response = await pages.fetch(
        new Request(new URL(CONFIGURATION_CHECK_PATH, config.PUBLIC_URL), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ nonce }),
          signal,
        }),
      );
      if (!response.ok) return undefined;
      return ((await response.json()) as { fingerprints?: Record<string, string> }).fingerprints;
    });
    if (!fingerprints) return { status: "unreachable", differing: [] };
    const differing = differingVariables(await configurationFingerprints(config, nonce), fingerprints);
    return differing.length > 0 ? { status: "differs", differing } : { status: "same", differing: [] };
  } catch {
    return { status: "unreachable", differing: [] };
  }
}
