import type { RequestLogQuery } from "../../lib/audit/request-logs";
import { listRequestLogsQuery } from "../audit/list-request-logs";
import { dayRange, type FieldProblem } from "./log-filters";
import type { Hint } from "./request-logs-texts";

/** The query fields the page reads and carries from page to page, as the address holds them. */
export const REQUEST_LOG_FIELDS = ["requestId", "status", "path", "from", "to", "limit", "cursor"] as const;
export type Field = (typeof REQUEST_LOG_FIELDS)[number];
type Filters = Partial<Record<Field, string>>;

/** The fields the API's own query schema checks here: the same rules, so the page refuses what the API does. */
const CHECKED = listRequestLogsQuery.pick({
  requestId: true,
  status: true,
  path: true,
  limit: true,
  cursor: true,
});
type Checked = keyof typeof CHECKED.shape;

const HINTS: Record<Checked, Hint> = {
  requestId: "badRequestId",
  status: "badStatus",
  path: "badPath",
  limit: "badLimit",
  cursor: "badCursor",
};

/**
 * The filters as listRequestLogs takes them: the request id, an exact status (404; the list has no
 * class of statuses) and a path prefix by the API's schema, `from` that day's start and `to` the
 * start of the day after (both days included, UTC); `limit` 50 unless the address names one; or
 * the fields that fail, in the form's order.
 */
export function requestLogQuery(
  filters: Filters,
): { ok: true; query: RequestLogQuery } | { ok: false; problems: FieldProblem<Field, Hint>[] } {
  const { from: fromDay, to: toDay, ...checked } = filters;
  const parsed = CHECKED.safeParse(checked);
  const failing = new Set(parsed.error?.issues.map((issue) => issue.path[0]));
  const { from, to, problems: dateProblems } = dayRange({ from: fromDay, to: toDay });
  const problems: FieldProblem<Field, Hint>[] = [
    ...(Object.keys(HINTS) as Checked[])
      .filter((field) => failing.has(field))
      .map((field) => ({ field, hint: HINTS[field] })),
    ...dateProblems,
  ].sort((a, b) => REQUEST_LOG_FIELDS.indexOf(a.field) - REQUEST_LOG_FIELDS.indexOf(b.field));
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  const query = parsed.data;
  return {
    ok: true,
    query: {
      limit: query.limit,
      ...(query.requestId ? { requestId: query.requestId } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.path ? { path: query.path } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(query.cursor ? { cursor: query.cursor } : {}),
    },
  };
}
