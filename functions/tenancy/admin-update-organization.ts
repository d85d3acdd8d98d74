import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getAddress, isAddress } from "viem";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { amountRule, constantUnits, parseAmount } from "../../lib/kernel/money";
import { PARTNER_FEE_MAX_BPS, updateOrganization } from "../../lib/tenancy/organizations";

/** US dollars are counted as USDC: six decimals. */
const USD_DECIMALS = 6;

import { ADMIN_SECURITY, organizationIdParam, organizationSchema, organizationView } from "./views";

/**
 * A volume limit as the admin API takes it (docs/compliance.md, "Volume limits"): a positive decimal
 * string of US dollars with at most 6 places, or null to remove it; stored in USDC atomic units.
 */
function usdLimitSchema(description: string) {
  return z
    .string()
    .refine((text) => parseAmount(text, USD_DECIMALS).ok, amountRule(USD_DECIMALS))
    .transform((text) => constantUnits(text, USD_DECIMALS))
    .nullable()
    .optional()
    .openapi({ type: "string", description, example: "50" });
}

const settingsSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    intakePaused: z.boolean().optional(),
    perUserDailyLimitUsd: usdLimitSchema(
      "The most one end-user address may move through the organization in 24 hours (settlements' principal and payouts' dollar value), in US dollars; null: no limit.",
    ),
    perUserMonthlyLimitUsd: usdLimitSchema("The same over 30 days (a rolling window); null: no limit."),
    organizationDailyLimitUsd: usdLimitSchema(
      "The most the whole organization may move in 24 hours, in US dollars; null: no limit.",
    ),
    requireTwoFactor: z.boolean().optional().openapi({
      description:
        "Require two-factor sign-in of every dashboard member: a member without it reaches only the page to set it up.",
    }),
    burnPlanEnabled: z.boolean().optional(),
    serviceFeeBps: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .optional()
      .openapi({ description: "Service fee in basis points (100 = 1%), 0 to 1000." }),
    fastTransfer: z.boolean().optional().openapi({
      description:
        "Settlements burn with Circle's Fast finality (attested in seconds, Circle's Fast fee added to the upfront fee and shown as `fees.fastTransferFeeUsdc`) instead of the Standard transfer (default: off).",
    }),
    settlementAccountActive: z.boolean().optional(),
    partnerFeeBps: z
      .number()
      .int()
      .min(0)
      .max(PARTNER_FEE_MAX_BPS)
      .optional()
      .openapi({
        description: `The organization's own fee in basis points, 0 to ${PARTNER_FEE_MAX_BPS}: of a settlement's principal (taken from it like the service's fee, paid by the settlement account once the order delivers; docs/settlement.md) and of a payout's provider amount (paid in the user's deposit transaction; docs/payouts.md), to \`partnerFeeAddress\`, and shown in quotes' fees. A fee above 0 is set together with its address.`,
      }),
    partnerFeeAddress: z
      .string()
      .refine(isAddress, "must be an EVM address (0x and 40 hexadecimal characters)")
      .refine(
        (address) => !/^0x0{40}$/i.test(address),
        "must not be the zero address: nothing can be paid to it",
      )
      .transform((address) => getAddress(address))
      .nullable()
      .optional()
      .openapi({ description: "Where the organization's fee is paid; null (with partnerFeeBps 0) to stop." }),
    defaultSourceChain: z
      .union([z.number().int().positive(), z.string().trim().min(1).max(64)])
      .nullable()
      .optional()
      .openapi({
        description:
          "The chain (id or name, as `GET /api/integrations/settlements/chains` lists it) the organization's quotes burn on when they name no `sourceChain`; null for the service's default. One the service does not serve is UNSUPPORTED_SOURCE_CHAIN.",
        example: 43114,
      }),
  })
  .strict()
  .refine((settings) => Object.keys(settings).length > 0, { message: "give at least one setting to change" })
  // Never a fee without its address: a fee is set with one, and an address is cleared with the fee.
  .refine((settings) => !settings.partnerFeeBps || typeof settings.partnerFeeAddress === "string", {
    message: "a partner fee above 0 is set together with partnerFeeAddress",
    path: ["partnerFeeAddress"],
  })
  .refine((settings) => settings.partnerFeeAddress !== null || settings.partnerFeeBps === 0, {
    message: "clear partnerFeeAddress together with partnerFeeBps 0",
    path: ["partnerFeeBps"],
  });

export const route = createRoute({
  method: "patch",
  path: "/admin/organizations/{organizationId}",
  operationId: "adminUpdateOrganization",
  summary: "Change an organization's settings",
  description:
    "Changes only the settings given (at least one). A partner fee above 0 is set together with its address, and the address is cleared together with a fee of 0.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: organizationIdParam,
    body: { required: true, content: { "application/json": { schema: settingsSchema } } },
  },
  responses: {
    200: {
      description: "The organization as it is now",
      content: { "application/json": { schema: z.object({ organization: organizationSchema }) } },
    },
    ...errorResponses(
      [
        "SANCTIONED_ADDRESS",
        "SCREENING_UNAVAILABLE",
        "ORGANIZATION_NOT_FOUND",
        "UNSUPPORTED_SOURCE_CHAIN",
        "UNSUPPORTED_MEDIA_TYPE",
        "PAYLOAD_TOO_LARGE",
      ],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminUpdateOrganizationRequest = RequestBody<typeof route>;
export type AdminUpdateOrganizationResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { organizationId } = c.req.valid("param");
    const organization = await updateOrganization(c.get("services"), organizationId, c.req.valid("json"));
    return c.json({ organization: organizationView(organization) }, 200);
  });
}
