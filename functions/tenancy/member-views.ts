import { z } from "@hono/zod-openapi";
import { issueCode } from "../../lib/http/validation";
import { EMAIL_RULE, isEmail } from "../../lib/identity/identity-input";
import type { OrganizationMember } from "../../lib/tenancy/members";
import { MEMBER_ROLES } from "../../lib/tenancy/roles";

export const memberRoleSchema = z.enum(MEMBER_ROLES).openapi({
  description: "What the member may do in the dashboard (the matrix: docs/roles.md).",
  example: "developer",
});

/** How the admin API shows an organization's member: ISO timestamps, the email lower-cased. */
export const memberSchema = z
  .object({
    id: z.string().openapi({ example: "mbr_01KAZ6XQ4R0000000000000000" }),
    organizationId: z.string(),
    email: z.string().openapi({ description: "Lower-cased.", example: "ana@example.com" }),
    role: memberRoleSchema,
    twoFactorEnabled: z.boolean().openapi({ description: "Signs in with a second factor (TOTP)." }),
    createdAt: z.string().datetime(),
    revokedAt: z.string().datetime().nullable(),
  })
  .openapi("OrganizationMember");

export const memberEmailSchema = z
  .string()
  .refine(isEmail, { message: EMAIL_RULE, params: issueCode("INVALID_EMAIL") })
  .openapi({
    description: "The member's email; stored lower-cased and matched case-insensitively.",
    example: "ana@example.com",
  });

export const memberParams = z.object({
  organizationId: z.string().openapi({ param: { name: "organizationId", in: "path" } }),
  memberId: z.string().openapi({ param: { name: "memberId", in: "path" } }),
});

export function memberView(row: OrganizationMember): z.infer<typeof memberSchema> {
  return {
    id: row.id,
    organizationId: row.organizationId,
    email: row.email,
    role: row.role,
    twoFactorEnabled: row.totpEnabledAt !== null,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
