import type { OpenAPIHono } from "@hono/zod-openapi";
import { AUDIT_ACTIONS } from "../../lib/audit/actions";
import { type AuditEventRow, type AuditQuery, listAuditEvents } from "../../lib/audit/list";
import { DASHBOARD_PATH, requirePermission } from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import type { Language } from "../../lib/kernel/errors/error-body";
import { AUDIT_FIELDS, auditQuery, type Field } from "./audit-filters";
import { ACTION_LABELS, ACTOR_LABELS, type AuditText, type Hint, TARGET_LABELS, TEXT } from "./audit-texts";
import type { Column } from "./data-table";
import { UtcTime } from "./format";
import { DateRangeFields, fieldMarks } from "./listing";
import { type LogPage, type LogView, logPage } from "./log-page";

/**
 * GET /dashboard/audit: the member's organization's audit log, newest first, through the verb the
 * API's GET /api/integrations/audit-log uses, filtered by action and by UTC dates, a page at a time
 * by the list's keyset cursor. Only ever the session's organization: an integration of another one
 * is the 404 page, as on every page.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(`${DASHBOARD_PATH}/audit`, requirePermission("audit:read"), (c) => logPage(c, AUDIT_LOG));
}

const AUDIT_LOG: LogPage<Field, Hint, AuditQuery, AuditEventRow> = {
  section: "audit",
  text: TEXT,
  fields: AUDIT_FIELDS,
  check: auditQuery,
  async load(ctx, organizationId, query) {
    const { events, nextCursor } = await listAuditEvents(ctx, organizationId, query);
    return { rows: events, nextCursor };
  },
  filterFields: AuditFilters,
  columns: ({ language }) => columns(language),
  rowAttributes: (event) => ({ "data-audit-id": event.id, "data-action": event.action }),
};

/** The filter fields: the action and the dates. A refused field says why under it and is marked invalid. */
function AuditFilters({ language, filters, problemOf }: LogView<Field>) {
  const t = TEXT[language];
  const labels = ACTION_LABELS[language];
  const action = fieldMarks("audit-action", problemOf("action"));
  return (
    <>
      <div>
        <label for="audit-action">{t.action}</label>
        <select id="audit-action" name="action" {...action.invalid}>
          <option value="">{t.allActions}</option>
          {AUDIT_ACTIONS.map((value) => (
            <option value={value} selected={value === filters.action}>
              {labels[value]}
            </option>
          ))}
        </select>
        {action.error}
      </div>
      <DateRangeFields prefix="audit" labels={t} filters={filters} problemOf={problemOf} />
    </>
  );
}

function columns(language: Language): ReadonlyArray<Column<AuditEventRow>> {
  const t = TEXT[language];
  const targets: Record<string, string> = TARGET_LABELS[language];
  return [
    { head: t.at, cell: (event) => <UtcTime at={event.at} /> },
    {
      head: t.action,
      cell: (event) => (
        <>
          {ACTION_LABELS[language][event.action]}
          <br />
          <code>{event.action}</code>
        </>
      ),
    },
    {
      head: t.who,
      cell: (event) => (
        <>
          {ACTOR_LABELS[language][event.actorType]}
          <br />
          <span class="mono">{event.actorId}</span>
        </>
      ),
    },
    { head: t.address, kind: "mono", cell: (event) => event.actorIp ?? "—" },
    {
      head: t.target,
      cell: (event) => (
        <>
          {targets[event.targetType] ?? event.targetType}
          <br />
          <span class="mono">{event.targetId}</span>
        </>
      ),
    },
    { head: t.changes, cell: (event) => <Changes t={t} event={event} /> },
  ];
}

/**
 * Each field whose value the change altered, before → after, from the entry alone: a side the entry
 * does not hold (a creation has no before, a deletion no after) is "—", a stored null is `null`.
 */
function Changes(props: { t: AuditText; event: AuditEventRow }) {
  const { before, after } = props.event;
  if (!before && !after) return <span>—</span>;
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const changed = fields.filter(
    (field) => JSON.stringify(held(before, field)) !== JSON.stringify(held(after, field)),
  );
  if (changed.length === 0) return <span>{props.t.noChange}</span>;
  return (
    <ul style="list-style:none;margin:0;padding:0">
      {changed.map((field) => (
        <li style="overflow-wrap:anywhere" data-field={field}>
          <code>{field}</code>: <Value side={before} field={field} /> → <Value side={after} field={field} />
        </li>
      ))}
    </ul>
  );
}

/** A field's value when the entry's side holds it (null included), else undefined. */
function held(side: Record<string, unknown> | null, field: string): { value: unknown } | undefined {
  return side && Object.hasOwn(side, field) ? { value: side[field] } : undefined;
}

function Value(props: { side: Record<string, unknown> | null; field: string }) {
  const shown = held(props.side, props.field);
  if (!shown) return <span>—</span>;
  if (shown.value === null) return <code>null</code>;
  const text = typeof shown.value === "string" ? shown.value : JSON.stringify(shown.value);
  return <span class="mono">{text}</span>;
}
