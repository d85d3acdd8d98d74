import type { z } from "@hono/zod-openapi";
import type { Child } from "hono/jsx";
import { DASHBOARD_PATH, type DashboardContext } from "../../lib/http/dashboard-frame";
import type { Language } from "../../lib/kernel/errors/error-body";
import type { PartnerContext } from "../../lib/tenancy/caller";
import type { Column } from "./data-table";
import { ErrorNote } from "./feedback";
import { integrationScope } from "./integration";
import { renderPage } from "./layout";
import {
  checkedQuery,
  FilterForm,
  type ListField,
  type ListFilters,
  listFilters,
  PagedTable,
} from "./listing";
import { notFoundPage } from "./not-found";

/** The activity sections: each has a list page and a detail page at /dashboard/{section}. */
export type ActivitySection = "orders" | "payouts" | "swaps" | "request-logs";

/** The words every list page has. */
export interface ListText {
  title: string;
  intro: string;
  caption: string;
  /** Said instead of the table when no row matches. */
  none: string;
  /**
   * For a list of the whole organization's records (the API's verb filters by organization): said
   * under the heading in place of the integration chooser, which would change nothing.
   */
  everyIntegration?: string;
}

/** What a list page's own parts are drawn with. */
interface ListView<Text> {
  c: DashboardContext;
  language: Language;
  t: Text;
  filters: ListFilters;
  integrationId: string;
}

/** What one list page is: its section and words, the API's query and verb, its filters and columns. */
export interface ListPage<Schema extends z.ZodType, Row, Text extends ListText> {
  section: ActivitySection;
  text: Record<Language, Text>;
  /** The API route's own query schema, and the filters this page offers of it. */
  schema: Schema;
  fields: readonly ListField[];
  /** What the page puts in the query itself, beside the person's filters. */
  fixed?(integrationId: string | undefined): Record<string, string>;
  /** One page of rows through the API's own verb, with the cursor of the next. */
  load(partner: PartnerContext, query: z.output<Schema>): Promise<{ rows: Row[]; nextCursor: string | null }>;
  /** The page's own filter fields; the form around them keeps the integration and the limit. */
  filterFields(view: ListView<Text>): Child;
  columns(view: ListView<Text>): ReadonlyArray<Column<Row>>;
  rowAttributes(row: Row): Record<string, string>;
}

/**
 * GET /dashboard/{section}: the chosen integration's rows through the API's own verb and query
 * rules, with the filter form and the pager. A filter the API would refuse is a 400 naming it, with
 * the form and no table; an integration that is not the member's organization's is the 404 page.
 */
export async function listPage<Schema extends z.ZodType, Row, Text extends ListText>(
  c: DashboardContext,
  page: ListPage<Schema, Row, Text>,
): Promise<Response> {
  const path = `/${page.section}`;
  const scope = await integrationScope(c);
  if (!scope) return notFoundPage(c, { section: page.section, back: `${DASHBOARD_PATH}${path}` });
  const { all, current, partner } = scope;
  const language = c.get("dashboard").language;
  const t = page.text[language];
  const filters = listFilters(c);
  const checked = checkedQuery(page.schema, filters, page.fields, page.fixed?.(current?.id));
  if (!checked.ok) c.status(400);
  const loaded = partner && checked.ok ? await page.load(partner, checked.query) : undefined;
  const view = current ? { c, language, t, filters, integrationId: current.id } : undefined;
  return renderPage(c, {
    title: t.title,
    section: page.section,
    integrations: { all, current, chooser: !t.everyIntegration },
    children: view ? (
      <>
        <EveryIntegration text={t.everyIntegration} />
        <p>{t.intro}</p>
        <FilterForm
          language={language}
          action={`${DASHBOARD_PATH}${path}`}
          integrationId={view.integrationId}
          filters={filters}
        >
          {page.filterFields(view)}
        </FilterForm>
        {checked.ok ? null : <ErrorNote c={c} error={checked.error} />}
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
          />
        ) : null}
      </>
    ) : null,
  });
}

/** The line that says a page holds every integration's records (`ListText.everyIntegration`); nothing without it. */
export function EveryIntegration(props: { text: string | undefined }) {
  return props.text ? <p class="note">{props.text}</p> : null;
}
