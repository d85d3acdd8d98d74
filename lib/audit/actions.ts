/**
 * Every change the audit log records, in one table: what it is about and its label. Adding an action
 * fails to compile until the table has it, and docs/tenancy.md lists the table.
 */
export const AUDIT_ACTION_TABLE = {
  "organization.updated": { target: "organization", label: "Organization settings changed" },
  "api_key.issued": { target: "api_key", label: "API key issued" },
  "api_key.updated": { target: "api_key", label: "API key changed" },
  "api_key.revoked": { target: "api_key", label: "API key revoked" },
  "member.added": { target: "member", label: "Member added" },
  "member.revoked": { target: "member", label: "Member revoked" },
  "member.role_changed": { target: "member", label: "Member's role changed" },
  "member.two_factor_enabled": { target: "member", label: "Two-factor sign-in turned on" },
  "member.two_factor_disabled": { target: "member", label: "Two-factor sign-in turned off" },
  "member.two_factor_reset": { target: "member", label: "Two-factor sign-in reset" },
  "member.recovery_codes_regenerated": { target: "member", label: "Recovery codes regenerated" },
  "member.recovery_code_used": { target: "member", label: "Recovery code used to sign in" },
  "webhook_endpoint.set": { target: "webhook_endpoint", label: "Webhook endpoint set" },
  "webhook_endpoint.deleted": { target: "webhook_endpoint", label: "Webhook endpoint deleted" },
  "webhook_endpoint.secret_rotated": { target: "webhook_endpoint", label: "Webhook secret rotated" },
} as const satisfies Record<string, { target: string; label: string }>;

export type AuditAction = keyof typeof AUDIT_ACTION_TABLE;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_TABLE) as [AuditAction, ...AuditAction[]];

/** Who made a change: a dashboard member, the operator (admin API), an API key, the service itself. */
export const AUDIT_ACTOR_TYPES = ["member", "operator", "api_key", "service"] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];
