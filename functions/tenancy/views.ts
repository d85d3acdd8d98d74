import { z } from "@hono/zod-openapi";
import { formatAmount } from "../../lib/kernel/money";
import { type KeyRequest, MAX_ALLOWED_IPS } from "../../lib/tenancy/integrations";
import type { ApiKeyRecord, Integration, Organization } from "../../lib/tenancy/organizations";
import { API_SCOPE_NAMES, type ApiScope } from "../../lib/tenancy/scopes";

/** How the admin API shows tenancy records: ISO timestamps, never a key's hash. */
export const organizationSchema = z
  .object({
    id: z.string().openapi({ example: "org_01KAZ6XQ4R0000000000000000" }),
    name: z.string(),
    intakePaused: z.boolean(),
    burnPlanEnabled: z.boolean(),
    serviceFeeBps: z.number().int(),
    fastTransfer: z.boolean(),
    settlementAccountActive: z.boolean(),
    partnerFeeBps: z.number().int(),
    partnerFeeAddress: z.string().nullable(),
    defaultSourceChainId: z.number().int().nullable().openapi({
      description:
        "The chain id quotes burn on when they name no `sourceChain`; null: the service's default.",
    }),
    perUserDailyLimitUsd: z
      .string()
      .nullable()
      .openapi({ description: "US dollars per end-user address in 24 hours; null: none." }),
    perUserMonthlyLimitUsd: z
      .string()
      .nullable()
      .openapi({ description: "US dollars per end-user address in 30 days; null: none." }),
    organizationDailyLimitUsd: z
      .string()
      .nullable()
      .openapi({ description: "US dollars for the whole organization in 24 hours; null: none." }),
    requireTwoFactor: z.boolean().openapi({
      description: "Every dashboard member must sign in with a second factor (docs/roles.md).",
    }),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi("Organization");

export const integrationSchema = z
  .object({
    id: z.string().openapi({ example: "int_01KAZ6XQ4R0000000000000000" }),
    organizationId: z.string(),
    name: z.string(),
    createdAt: z.string().datetime(),
  })
  .openapi("Integration");

export const apiKeySchema = z
  .object({
    id: z.string().openapi({ example: "key_01KAZ6XQ4R0000000000000000" }),
    integrationId: z.string(),
    start: z.string().openapi({ description: "The key's first characters, to recognise it." }),
    mode: z.enum(["live", "test"]).openapi({
      description:
        "`live` keys (copm_live_…) work only in live mode, `test` keys (copm_test_…) only in mock mode.",
    }),
    name: z.string().nullable(),
    createdAt: z.string().datetime(),
    revokedAt: z.string().datetime().nullable(),
    lastUsedAt: z.string().datetime().nullable().openapi({ description: "Accurate to about a minute." }),
    scopes: z
      .array(z.enum(API_SCOPE_NAMES))
      .nullable()
      .openapi({ description: "What the key may do; null: every scope." }),
    allowedIps: z
      .array(z.string())
      .nullable()
      .openapi({ description: "The client address ranges (CIDR) the key is accepted from; null: any." }),
    expiresAt: z
      .string()
      .datetime()
      .nullable()
      .openapi({ description: "When the key stops working; null: never." }),
  })
  .openapi("ApiKey");

/** The first instant the database cannot hold as a key's expiry (Postgres dates stop at year 9999 here). */
const EXPIRY_LIMIT = Date.UTC(10_000, 0, 1);

/**
 * A key's expiry as the admin API takes it: an ISO date-time with its offset, before year 10000 once
 * in UTC (`9999-12-31T23:59:59-23:59` is not). Whether it is in the future is the domain's check.
 */
export const expiresAtSchema = z
  .string()
  .datetime({ offset: true })
  .refine((value) => new Date(value).getTime() < EXPIRY_LIMIT, "must be before 10000-01-01T00:00:00Z");

/** What issuing a key takes: a name, and a restricted key's limits (docs/tenancy.md, "Restricted keys"). */
export const keyRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    scopes: z
      .array(z.enum(API_SCOPE_NAMES))
      .min(1)
      .optional()
      .openapi({
        description: `What the key may do, any of: ${API_SCOPE_NAMES.join(", ")}. Every scope when absent.`,
      }),
    allowedIps: z
      .array(z.string().min(1).max(64))
      .min(1)
      .max(MAX_ALLOWED_IPS)
      .optional()
      .openapi({
        description: `IPv4 and IPv6 addresses or CIDR ranges the key is accepted from (at most ${MAX_ALLOWED_IPS}); any address when absent. A request from elsewhere is 403 IP_NOT_ALLOWED.`,
        example: ["203.0.113.0/24", "2001:db8::/32"],
      }),
    expiresAt: expiresAtSchema.optional().openapi({
      description: "When the key stops working (a rotation's overlap), in the future; never when absent.",
    }),
  })
  .strict();

/** The route's checked body as the domain verb takes it. */
export function keyRequestOf(body: z.infer<typeof keyRequestSchema> | undefined = {}): KeyRequest {
  return {
    ...(body.name ? { name: body.name } : {}),
    ...(body.scopes ? { scopes: body.scopes } : {}),
    ...(body.allowedIps ? { allowedIps: body.allowedIps } : {}),
    ...(body.expiresAt ? { expiresAt: new Date(body.expiresAt) } : {}),
  };
}

export const issuedKeySchema = z
  .string()
  .openapi({ description: "The whole API key. Shown only in this response; store it now." });

export const organizationIdParam = z.object({
  organizationId: z.string().openapi({ param: { name: "organizationId", in: "path" } }),
});

export const integrationIdParam = z.object({
  integrationId: z.string().openapi({ param: { name: "integrationId", in: "path" } }),
});

export function organizationView(row: Organization): z.infer<typeof organizationSchema> {
  const usd = (units: bigint | null) => (units === null ? null : formatAmount(units, 6));
  return {
    ...row,
    perUserDailyLimitUsd: usd(row.perUserDailyLimitUsd),
    perUserMonthlyLimitUsd: usd(row.perUserMonthlyLimitUsd),
    organizationDailyLimitUsd: usd(row.organizationDailyLimitUsd),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function integrationView(row: Integration): z.infer<typeof integrationSchema> {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

export function apiKeyView(row: ApiKeyRecord): z.infer<typeof apiKeySchema> {
  return {
    id: row.id,
    integrationId: row.integrationId,
    start: row.start,
    mode: row.mode as "live" | "test",
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    scopes: (row.scopes as ApiScope[] | null) ?? null,
    allowedIps: row.allowedIps ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

export const ADMIN_SECURITY = [{ adminToken: [] }];
