import { type OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import { readsApiVersion } from "./api-version";
import { API_VERSION_HEADER, API_VERSIONS } from "./api-versions";
import type { AppEnv } from "./env";

/**
 * The document's tags, in the order a reader meets them, each with what its operations are for. An
 * operation tagged with anything else is refused when it is registered.
 */
export const TAGS = {
  Service: "The service's own state. No key needed.",
  Settlement:
    "Quotes and settlement orders: USDC burned on the source chain, delivered as COPm to the destination address.",
  Swaps:
    "Wallet swaps on the destination chain through Mento: prepare the transaction, have the wallet send it, confirm it by its hash.",
  "BRE-B identity":
    "What every BRE-B payout needs of its user: a wallet session (Sign-In with Ethereum), an email proven by a one-time code, and KYC.",
  "BRE-B payouts":
    "Peso payouts to a BRE-B key, paid from the user's stablecoins: quote, create, deposit, confirm, follow.",
  Webhooks: "The integration's webhook endpoint, the signed events (Standard Webhooks) and their deliveries.",
  Ledger: "The movements of every receipt: by transaction, and as a statement for a period (JSON or CSV).",
  Sandbox: "Mock mode only: the local chains and a faucet for them.",
  Audit: "Who changed the organization's keys, members, webhook endpoint and settings, and when.",
  Admin:
    "The operator's routes, with ADMIN_TOKEN: organizations, integrations, keys, members, stuck orders, returns, refunds, webhooks and reconciliation.",
  Callbacks: "Called by the providers, not by partners; signed per Standard Webhooks.",
} as const satisfies Record<string, string>;

/** The headers every answer carries, errors included (docs/platform.md, docs/versioning.md). */
const RESPONSE_HEADERS: Record<
  string,
  { description: string; required: true; schema: Record<string, unknown> }
> = {
  [API_VERSION_HEADER]: {
    description:
      "The dated version the answer was rendered at: the one the request asked for in `API-Version`, else the current one (docs/versioning.md).",
    required: true,
    schema: { type: "string", enum: [...API_VERSIONS] },
  },
  "X-Request-Id": {
    description:
      "The request's id, also in an error body's `requestId` and in the service's logs: the caller's own `X-Request-Id` when it is 8 to 128 characters of `A-Za-z0-9_.:-`, else one the service made.",
    required: true,
    schema: { type: "string", pattern: "^[A-Za-z0-9_.:-]{8,128}$" },
  },
};

const headerRefs = Object.fromEntries(
  Object.keys(RESPONSE_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

/**
 * What every operation's entry in the document says without its route file saying it, and what every
 * operation refuses without its route file refusing it:
 *
 * - each response declares `API-Version` and `X-Request-Id` (an error response declares `Retry-After`
 *   itself, from the registry: openapi-errors.ts; a route its own others, as the CSV statement's
 *   `Content-Disposition`);
 * - each operation that reads `API-Version` (all but the providers' callbacks) declares it as an
 *   optional request header, with the known versions;
 * - each operation's tags are among TAGS;
 * - each operation's query is strict: a parameter it does not declare is 400 INVALID_REQUEST naming it,
 *   listed with the other failing parameters, as an unknown body field is. An operation without a
 *   query takes none.
 */
export function declareContract(app: OpenAPIHono<AppEnv>): void {
  const registry = app.openAPIRegistry;
  for (const [name, header] of Object.entries(RESPONSE_HEADERS)) {
    registry.registerComponent("headers", name, header);
  }
  const apiVersion = registry.registerParameter(
    "ApiVersion",
    z
      .enum(API_VERSIONS)
      .optional()
      .openapi({
        param: { name: API_VERSION_HEADER, in: "header" },
        description:
          "The dated version to answer at (YYYY-MM-DD); without it, the current one. An unknown version is 400 API_VERSION_UNKNOWN, before anything else runs.",
      }),
  );
  const registerPath = registry.registerPath.bind(registry);
  registry.registerPath = (route) => registerPath(declared(route, apiVersion));
  const openapi = app.openapi;
  app.openapi = ((route: RouteConfig, ...rest: unknown[]) =>
    (openapi as (...args: unknown[]) => unknown)(withStrictQuery(route), ...rest)) as typeof app.openapi;
}

function declared(route: RouteConfig, apiVersion: z.ZodType): RouteConfig {
  const unknownTags = (route.tags ?? []).filter((tag) => !(tag in TAGS));
  if (unknownTags.length > 0 || (route.tags ?? []).length === 0) {
    throw new Error(`${route.method} ${route.path}: tag it with one of TAGS (lib/http/contract.ts)`);
  }
  const responses = Object.fromEntries(
    Object.entries(route.responses).map(([status, response]) => {
      if ("$ref" in response) return [status, response];
      if (response.headers instanceof z.ZodType) {
        throw new Error(`${route.method} ${route.path}: declare response headers as header objects`);
      }
      return [status, { ...response, headers: { ...headerRefs, ...response.headers } }];
    }),
  );
  if (!readsApiVersion(route.path)) return { ...route, responses };
  const headers = route.request?.headers ?? z.object({});
  if (!(headers instanceof z.ZodObject)) {
    throw new Error(`${route.method} ${route.path}: request headers must be a plain object schema`);
  }
  return {
    ...route,
    responses,
    request: { ...route.request, headers: headers.extend({ [API_VERSION_HEADER]: apiVersion }) },
  };
}

function withStrictQuery<R extends RouteConfig>(route: R): R {
  const query = route.request?.query ?? z.object({});
  if (!(query instanceof z.ZodObject)) {
    throw new Error(
      `${route.method} ${route.path}: a query must be a plain object schema, to refuse unknown parameters`,
    );
  }
  return { ...route, request: { ...route.request, query: query.strict() } };
}
