import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * An organization's API requests of the last 7 days, as Stripe's request logs show them: what was
 * asked and answered, bodies with secrets, keys, emails and BRE-B keys redacted (lib/audit/
 * request-logs.ts). Written after the response; a sweep keeps 7 days.
 */
export const requestLogs = pgTable(
  "request_logs",
  {
    /** The request's id (X-Request-Id). */
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    integrationId: text("integration_id").notNull(),
    keyId: text("key_id").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status").notNull(),
    errorCode: text("error_code"),
    latencyMs: integer("latency_ms").notNull(),
    idempotencyKey: text("idempotency_key"),
    ip: text("ip"),
    requestBody: text("request_body"),
    responseBody: text("response_body"),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    index("request_logs_organization_at_idx").on(table.organizationId, table.at, table.id),
    index("request_logs_at_idx").on(table.at),
  ],
);
