import { auditEvents } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { newId } from "../kernel/ids";
import { AUDIT_ACTION_TABLE, type AuditAction } from "./actions";

/** One change, as the verb that made it describes it: never a secret in `before` or `after`. */
export interface AuditEntry {
  organizationId: string;
  action: AuditAction;
  targetId: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/**
 * Records a change in the audit log, in `db` (the change's own transaction where it has one, so a
 * change never lands without its entry), by the request's actor, else the service itself.
 */
export async function recordAudit(
  ctx: Pick<ServiceContext, "clock" | "actor">,
  db: Database,
  entry: AuditEntry,
): Promise<void> {
  const actor = ctx.actor ?? { type: "service" as const, id: "service", ip: null };
  await db.insert(auditEvents).values({
    id: newId("aud", ctx.clock),
    organizationId: entry.organizationId,
    action: entry.action,
    actorType: actor.type,
    actorId: actor.id,
    actorIp: actor.ip,
    targetType: AUDIT_ACTION_TABLE[entry.action].target,
    targetId: entry.targetId,
    before: entry.before ?? null,
    after: entry.after ?? null,
    at: ctx.clock.now(),
  });
}

/** The fields of `row` named in `fields`, dates as ISO text, atomic amounts as decimal text: what an entry shows of a record. */
export function auditFields<Row extends Record<string, unknown>>(
  row: Row,
  fields: readonly (keyof Row & string)[],
): Record<string, unknown> {
  return Object.fromEntries(
    fields.map((field) => {
      const value = row[field];
      if (typeof value === "bigint") return [field, value.toString()];
      return [field, value instanceof Date ? value.toISOString() : (value ?? null)];
    }),
  );
}
