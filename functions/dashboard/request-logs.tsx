import type { OpenAPIHono } from "@hono/zod-openapi";
import { listRequestLogs, type RequestLogQuery, type RequestLogRow } from "../../lib/audit/request-logs";
import { DASHBOARD_PATH, requirePermission } from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import { ApiError } from "../../lib/kernel/errors/api-error";
import { Card } from "./card";
import type { Column } from "./data-table";
import { type DetailPage, type DetailView, detailPage } from "./detail-page";
import { Fact } from "./fact";
import { StatusPill, type Tone, UtcTime } from "./format";
import { dashboardHref } from "./layout";
import { DateRangeFields, fieldMarks } from "./listing";
import { type LogPage, type LogView, logPage } from "./log-page";
import { type Field, REQUEST_LOG_FIELDS, requestLogQuery } from "./request-logs-filters";
import { type Hint, type RequestLogsText, TEXT } from "./request-logs-texts";

const REQUEST_LOGS_PATH = `${DASHBOARD_PATH}/request-logs`;

/**
 * GET /dashboard/request-logs: the requests the member's organization's API keys made in the last 7
 * days, newest first, through the verb GET /api/integrations/request-logs uses, filtered by request
 * id, exact status, path prefix and UTC dates, a page at a time by the list's keyset cursor;
 * GET /dashboard/request-logs/{requestId}: one request with its redacted bodies. Only ever the
 * session's organization: another organization's request reads as one that does not exist (404).
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(REQUEST_LOGS_PATH, requirePermission("request_logs:read"), (c) => logPage(c, REQUEST_LOG_LIST));
  app.get(`${REQUEST_LOGS_PATH}/:requestId`, requirePermission("request_logs:read"), (c) =>
    detailPage(c, REQUEST_LOG_DETAIL, c.req.param("requestId")),
  );
}

const REQUEST_LOG_LIST: LogPage<Field, Hint, RequestLogQuery, RequestLogRow> = {
  section: "request-logs",
  text: TEXT,
  fields: REQUEST_LOG_FIELDS,
  check: requestLogQuery,
  async load(ctx, organizationId, query) {
    const { logs, nextCursor } = await listRequestLogs(ctx, organizationId, query);
    return { rows: logs, nextCursor };
  },
  filterFields: RequestLogFilters,
  columns,
  rowAttributes: (log) => ({ "data-request-id": log.id, "data-status": String(log.status) }),
};

/** The text fields (request id, status, path) and the dates; a refused field says why under it. */
function RequestLogFilters({ language, filters, problemOf }: LogView<Field>) {
  const t = TEXT[language];
  const fields = [
    { field: "requestId", label: t.requestId, attributes: { maxlength: 128 } },
    {
      field: "status",
      label: t.status,
      attributes: { inputmode: "numeric", placeholder: "404", title: t.statusHint },
    },
    {
      field: "path",
      label: t.path,
      attributes: { maxlength: 200, placeholder: "/api/integrations/settlements" },
    },
  ] as const;
  return (
    <>
      {fields.map(({ field, label, attributes }) => {
        const id = `request-logs-${field}`;
        const marks = fieldMarks(id, problemOf(field));
        return (
          <div>
            <label for={id}>{label}</label>
            <input
              id={id}
              name={field}
              type="text"
              value={filters[field] ?? ""}
              {...attributes}
              {...marks.invalid}
            />
            {marks.error}
          </div>
        );
      })}
      <DateRangeFields prefix="request-logs" labels={t} filters={filters} problemOf={problemOf} />
    </>
  );
}

function columns({ language, integrationId }: LogView<Field>): ReadonlyArray<Column<RequestLogRow>> {
  const t = TEXT[language];
  return [
    { head: t.at, cell: (log) => <UtcTime at={log.at} /> },
    { head: t.method, kind: "mono", cell: (log) => log.method },
    { head: t.path, kind: "mono", cell: (log) => log.path },
    { head: t.status, cell: (log) => <HttpStatus status={log.status} /> },
    { head: t.errorCode, kind: "mono", cell: (log) => log.errorCode ?? "—" },
    {
      head: t.requestId,
      kind: "mono",
      cell: (log) => (
        <a
          href={dashboardHref(`/request-logs/${encodeURIComponent(log.id)}`, { integration: integrationId })}
        >
          {log.id}
        </a>
      ),
    },
    { head: t.key, kind: "mono", cell: (log) => log.keyId },
    { head: t.latency, kind: "num", cell: (log) => String(log.latencyMs) },
    { head: t.idempotencyKey, kind: "mono", cell: (log) => log.idempotencyKey ?? "—" },
  ];
}

/** An HTTP status as a pill: 2xx and 3xx answered, 4xx and 5xx refused or failed. */
function HttpStatus(props: { status: number }) {
  const tone: Tone = props.status >= 400 ? "bad" : props.status >= 200 ? "good" : "wait";
  return <StatusPill status={String(props.status)} tone={tone} />;
}

const REQUEST_LOG_DETAIL: DetailPage<RequestLogRow, RequestLogsText> = {
  section: "request-logs",
  text: TEXT,
  missing: "NOT_FOUND",
  /**
   * The organization's request of this id through the list's own verb (its 7 days included);
   * another organization's, or one older than 7 days, is NOT_FOUND, as one that never was.
   */
  async read(partner, id) {
    const { logs } = await listRequestLogs(partner, partner.caller.organizationId, {
      requestId: id,
      limit: 1,
    });
    const [log] = logs;
    if (!log) throw new ApiError("NOT_FOUND");
    return log;
  },
  id: (log) => log.id,
  body: RequestLogDetail,
};

function RequestLogDetail({ t, item: log }: DetailView<RequestLogRow, RequestLogsText>) {
  return (
    <>
      <Card id="request-log-facts" title={t.facts}>
        <dl class="facts">
          <Fact term={t.at}>
            <UtcTime at={log.at} />
          </Fact>
          <Fact term={t.method} mono>
            {log.method}
          </Fact>
          <Fact term={t.path} mono>
            {log.path}
          </Fact>
          <Fact term={t.status}>
            <HttpStatus status={log.status} />
          </Fact>
          <Fact term={t.errorCode} mono>
            {log.errorCode ?? "—"}
          </Fact>
          <Fact term={t.requestId} mono>
            {log.id}
          </Fact>
          <Fact term={t.key} mono>
            {log.keyId}
          </Fact>
          <Fact term={t.integration} mono>
            {log.integrationId}
          </Fact>
          <Fact term={t.latency}>{String(log.latencyMs)}</Fact>
          <Fact term={t.idempotencyKey} mono>
            {log.idempotencyKey ?? "—"}
          </Fact>
          <Fact term={t.address} mono>
            {log.ip ?? "—"}
          </Fact>
        </dl>
      </Card>
      <p class="note">{t.redactedNote}</p>
      <Body id="request-log-request" title={t.requestBody} body={log.requestBody} none={t.noBody} />
      <Body id="request-log-response" title={t.responseBody} body={log.responseBody} none={t.noBody} />
    </>
  );
}

/**
 * A stored body, redacted when it was written, pretty-printed when it is whole JSON (a cut one, or
 * the length of one that was not JSON, is shown as kept). Text only: JSX escapes it.
 */
function Body(props: { id: string; title: string; body: string | null; none: string }) {
  return (
    <Card id={props.id} title={props.title}>
      {props.body === null ? <p>{props.none}</p> : <pre class="body">{pretty(props.body)}</pre>}
    </Card>
  );
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
