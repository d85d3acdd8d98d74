import type { OpenAPIHono } from "@hono/zod-openapi";
import { AUDIT_ACTIONS } from "../../lib/audit/actions";
import { type AuditEventRow, listAuditEvents } from "../../lib/audit/list";
import { DASHBOARD_PATH, type DashboardContext, member } from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import { ApiError } from "../../lib/kernel/errors/api-error";
import type { Language } from "../../lib/kernel/errors/error-body";
import { auditQuery, type Field, type FieldProblem, type Filters, filtersOf, refusal } from "./audit-filters";
import { ACTION_LABELS, ACTOR_LABELS, type AuditText, TARGET_LABELS, TEXT } from "./audit-texts";
import { type Column, DataTable } from "./data-table";
import { ErrorNote } from "./feedback";
import { type IntegrationScope, integrationScope } from "./integration";
import { dashboardHref, renderPage } from "./layout";
import { notFoundPage } from "./not-found";
import { commonText } from "./texts";

const AUDIT_PATH = `${DASHBOARD_PATH}/audit`;

/**
 * GET /dashboard/audit: the member's organization's audit log, newest first, through the verb the
 * API's GET /api/integrations/audit-log uses, filtered by action and by UTC dates, a page at a time
 * by the list's keyset cursor. Only ever the session's organization: an integration of another one
 * is the 404 page, as on every page.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(AUDIT_PATH, async (c) => {
    const scope = await integrationScope(c);
    if (!scope) return notFoundPage(c, { section: "audit", back: AUDIT_PATH });
    const filters = filtersOf(c);
    const checked = auditQuery(filters);
    if (!checked.ok) {
      c.status(400);
      return auditPage(c, scope, filters, { problems: checked.problems });
    }
    try {
      const page = await listAuditEvents(c.get("services"), member(c).organizationId, checked.query);
      return auditPage(c, scope, filters, { page });
    } catch (error) {
      // The one refusal the verb has: a cursor it did not give.
      if (!(error instanceof ApiError) || error.code !== "INVALID_REQUEST") throw error;
      c.status(400);
      return auditPage(c, scope, filters, { problems: [{ field: "cursor", hint: "badCursor" }] });
    }
  });
}

function auditPage(
  c: DashboardContext,
  scope: IntegrationScope,
  filters: Filters,
  props: {
    page?: { events: AuditEventRow[]; nextCursor: string | null };
    problems?: readonly FieldProblem[];
  },
) {
  const language = c.get("dashboard").language;
  const t = TEXT[language];
  const integration = scope.current?.id;
  const problems = props.problems ?? [];
  return renderPage(c, {
    title: t.title,
    section: "audit",
    integrations: { all: scope.all, current: scope.current, chooser: false },
    children: (
      <>
        <p>{t.intro}</p>
        <p class="note">{t.everyIntegration}</p>
        <AuditFilters language={language} integration={integration} filters={filters} problems={problems} />
        {problems.length > 0 ? <ErrorNote c={c} error={refusal(problems)} /> : null}
        {props.page ? (
          <>
            {props.page.events.length === 0 ? (
              <p>{t.none}</p>
            ) : (
              <DataTable
                caption={t.caption}
                columns={columns(language)}
                rows={props.page.events}
                rowAttributes={(event) => ({ "data-audit-id": event.id, "data-action": event.action })}
              />
            )}
            <Pager t={t} integration={integration} filters={filters} nextCursor={props.page.nextCursor} />
          </>
        ) : null}
      </>
    ),
  });
}

/**
 * The filter form, a GET to the page: the action, the dates, and (hidden) the integration the links
 * keep and a `limit` the address named. New filters start at the newest entry (no cursor). A refused
 * field says why under it and is marked invalid.
 */
function AuditFilters(props: {
  language: Language;
  integration: string | undefined;
  filters: Filters;
  problems: readonly FieldProblem[];
}) {
  const t = TEXT[props.language];
  const common = commonText(props.language);
  const labels = ACTION_LABELS[props.language];
  const problemOf = (field: Field) => props.problems.find((problem) => problem.field === field);
  const invalid = (field: Field, id: string) => {
    const problem = problemOf(field);
    return problem ? { "aria-invalid": "true", "aria-describedby": `${id}-error` } : {};
  };
  const fieldError = (field: Field, id: string) => {
    const problem = problemOf(field);
    return problem ? (
      <p class="field-error" id={`${id}-error`}>
        {t[problem.hint]}
      </p>
    ) : null;
  };
  return (
    <form method="get" action={AUDIT_PATH} class="filters" aria-label={common.filter}>
      {props.integration ? <input type="hidden" name="integration" value={props.integration} /> : null}
      {props.filters.limit ? <input type="hidden" name="limit" value={props.filters.limit} /> : null}
      <div>
        <label for="audit-action">{t.action}</label>
        <select id="audit-action" name="action" {...invalid("action", "audit-action")}>
          <option value="">{t.allActions}</option>
          {AUDIT_ACTIONS.map((action) => (
            <option value={action} selected={action === props.filters.action}>
              {labels[action]}
            </option>
          ))}
        </select>
        {fieldError("action", "audit-action")}
      </div>
      {(["from", "to"] as const).map((field) => {
        const id = `audit-${field}`;
        return (
          <div>
            <label for={id}>{t[field]}</label>
            <input
              id={id}
              name={field}
              type="date"
              value={props.filters[field] ?? ""}
              {...invalid(field, id)}
            />
            {fieldError(field, id)}
          </div>
        );
      })}
      <button type="submit" class="secondary">
        {common.filter}
      </button>
    </form>
  );
}

/** Keyset paging, as the API's: "older" carries the list's cursor and every filter, "newest" drops the cursor. */
function Pager(props: {
  t: AuditText;
  integration: string | undefined;
  filters: Filters;
  nextCursor: string | null;
}) {
  const { cursor, ...kept } = props.filters;
  const base = { integration: props.integration, ...kept };
  if (!cursor && !props.nextCursor) return null;
  return (
    <nav class="pager" aria-label={props.t.pages}>
      {cursor ? <a href={dashboardHref("/audit", base)}>{props.t.newest}</a> : null}
      {props.nextCursor ? (
        <a href={dashboardHref("/audit", { ...base, cursor: props.nextCursor })} rel="next">
          {props.t.older}
        </a>
      ) : null}
    </nav>
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
 * The time as stored, in UTC, as the date filter reads it: not a `<time datetime>`, which the
 * dashboard's script would turn into the viewer's time zone.
 */
function UtcTime(props: { at: Date }) {
  const iso = props.at.toISOString();
  return <span title={iso}>{`${iso.slice(0, 19).replace("T", " ")} UTC`}</span>;
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
