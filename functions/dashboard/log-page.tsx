import type { Child } from "hono/jsx";
import { DASHBOARD_PATH, type DashboardContext, member } from "../../lib/http/dashboard-frame";
import type { ServiceContext } from "../../lib/kernel/context";
import type { Language } from "../../lib/kernel/errors/error-body";
import type { Column } from "./data-table";
import { ErrorNote } from "./feedback";
import { integrationScope } from "./integration";
import { renderPage } from "./layout";
import { EveryIntegration } from "./list-page";
import { FilterForm, PagedTable } from "./listing";
import {
  type FieldProblem,
  filterRefusal,
  type LOG_FILTER_TEXT,
  queryFilters,
  refusedCursor,
} from "./log-filters";
import { notFoundPage } from "./not-found";

/** The words every log page has, beside the filters' own (`LOG_FILTER_TEXT`) and its hints. */
type LogText = (typeof LOG_FILTER_TEXT)[Language] & {
  title: string;
  intro: string;
  everyIntegration: string;
  caption: string;
  /** Said instead of the table when no row matches. */
  none: string;
  /** The pager's links: back to the newest rows, and on to older ones. */
  newest: string;
  older: string;
};

/** A log page's filters as the address holds them: its own, and the `limit` and `cursor` every log pages by. */
type LogFilters<Field extends string> = Partial<Record<Field | "limit" | "cursor", string>>;

/** What a log page's filter fields are drawn with: the filters as typed, and each refused field's message. */
export interface LogView<Field extends string> {
  language: Language;
  integrationId: string | undefined;
  filters: LogFilters<Field>;
  problemOf(field: Field): string | undefined;
}

/** What one log page is: its section and words, its filters and their checks, the list's verb and its columns. */
export interface LogPage<Field extends string, Hint extends string, Query, Row> {
  section: "audit" | "request-logs";
  text: Record<Language, LogText & Record<Hint, string>>;
  /** The query fields the page reads and carries from page to page (`limit` and `cursor` among them). */
  fields: readonly (Field | "limit" | "cursor")[];
  /** The filters as the verb takes them, or the fields that fail. */
  check(
    filters: LogFilters<Field>,
  ): { ok: true; query: Query } | { ok: false; problems: FieldProblem<Field | "limit", Hint>[] };
  /** One page of the organization's rows, newest first, with the cursor of the next. */
  load(
    ctx: ServiceContext,
    organizationId: string,
    query: Query,
  ): Promise<{ rows: Row[]; nextCursor: string | null }>;
  /** The page's own filter fields; the form around them keeps the integration and the limit. */
  filterFields(view: LogView<Field>): Child;
  columns(view: LogView<Field>): ReadonlyArray<Column<Row>>;
  rowAttributes(row: Row): Record<string, string>;
}

/**
 * GET /dashboard/{section}: a log of the member's organization (every integration's entries, no
 * chooser), newest first through the API's own verb, filtered and paged by the list's keyset
 * cursor. A refused filter or cursor is a 400 naming it, the field marked, with the form and no
 * table; an integration of another organization is the 404 page, as on every page.
 */
export async function logPage<Field extends string, Hint extends string, Query, Row>(
  c: DashboardContext,
  page: LogPage<Field, Hint, Query, Row>,
): Promise<Response> {
  const path = `/${page.section}`;
  const scope = await integrationScope(c);
  if (!scope) return notFoundPage(c, { section: page.section, back: `${DASHBOARD_PATH}${path}` });
  const filters: LogFilters<Field> = queryFilters(c, page.fields);
  const checked = page.check(filters);
  let problems: FieldProblem<Field | "limit" | "cursor", Hint | "badCursor">[] = checked.ok
    ? []
    : checked.problems;
  let loaded: { rows: Row[]; nextCursor: string | null } | undefined;
  if (checked.ok) {
    try {
      loaded = await page.load(c.get("services"), member(c).organizationId, checked.query);
    } catch (error) {
      if (!refusedCursor(error)) throw error;
      problems = [{ field: "cursor", hint: "badCursor" }];
    }
  }
  if (problems.length > 0) c.status(400);
  const language = c.get("dashboard").language;
  const t = page.text[language];
  const view: LogView<Field> = {
    language,
    integrationId: scope.current?.id,
    filters,
    problemOf: (field) => {
      const problem = problems.find((candidate) => candidate.field === field);
      return problem ? t[problem.hint] : undefined;
    },
  };
  return renderPage(c, {
    title: t.title,
    section: page.section,
    integrations: { all: scope.all, current: scope.current, chooser: false },
    children: (
      <>
        <p>{t.intro}</p>
        <EveryIntegration text={t.everyIntegration} />
        <FilterForm
          language={language}
          action={`${DASHBOARD_PATH}${path}`}
          integrationId={view.integrationId}
          filters={filters}
        >
          {page.filterFields(view)}
        </FilterForm>
        {problems.length > 0 ? <ErrorNote c={c} error={filterRefusal(page.text, problems)} /> : null}
        {loaded ? (
          <PagedTable
            c={c}
            text={t}
            columns={page.columns(view)}
            rows={loaded.rows}
            rowAttributes={page.rowAttributes}
            path={path}
            integrationId={view.integrationId}
            filters={filters}
            nextCursor={loaded.nextCursor}
            labels={{ first: t.newest, next: t.older }}
          />
        ) : null}
      </>
    ),
  });
}
