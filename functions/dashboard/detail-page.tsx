import type { Child } from "hono/jsx";
import type { DashboardContext } from "../../lib/http/dashboard-frame";
import { ApiError } from "../../lib/kernel/errors/api-error";
import type { Language } from "../../lib/kernel/errors/error-body";
import type { ErrorCode } from "../../lib/kernel/errors/registry";
import type { PartnerContext } from "../../lib/tenancy/caller";
import { integrationScope } from "./integration";
import { dashboardHref, renderPage } from "./layout";
import { type ActivitySection, EveryIntegration } from "./list-page";
import { notFoundPage } from "./not-found";

/** The words every detail page has: its title (`{id}` is the record's) and the link back to the list. */
export interface DetailText {
  detailTitle: string;
  back: string;
  /** As the list's (`ListText.everyIntegration`): a record of the organization's, no chooser. */
  everyIntegration?: string;
}

/** What a detail page's body is drawn with: the record read, and the page's words in its language. */
export interface DetailView<Item, Text> {
  c: DashboardContext;
  language: Language;
  t: Text;
  item: Item;
}

/** What one detail page is: its section and words, the API's read verb, and its body. */
export interface DetailPage<Item, Text extends DetailText> {
  section: ActivitySection;
  text: Record<Language, Text>;
  /** The read verb's code for an id the integration does not have. */
  missing: ErrorCode;
  read(partner: PartnerContext, id: string): Promise<Item>;
  id(item: Item): string;
  /** The record's sections, below the link back to the list. */
  body(view: DetailView<Item, Text>): Child;
}

/**
 * GET /dashboard/{section}/{id}: one record through the API's own read verb. A record or an
 * integration that is not the member's organization's is the 404 page, exactly like one that does
 * not exist.
 */
export async function detailPage<Item, Text extends DetailText>(
  c: DashboardContext,
  page: DetailPage<Item, Text>,
  id: string,
): Promise<Response> {
  const scope = await integrationScope(c);
  const back = dashboardHref(`/${page.section}`, { integration: scope?.current?.id });
  if (!scope?.partner || !scope.current) return notFoundPage(c, { section: page.section, back });
  let item: Item;
  try {
    item = await page.read(scope.partner, id);
  } catch (error) {
    if (error instanceof ApiError && error.code === page.missing) {
      return notFoundPage(c, { section: page.section, back });
    }
    throw error;
  }
  const language = c.get("dashboard").language;
  const t = page.text[language];
  return renderPage(c, {
    title: t.detailTitle.replace("{id}", page.id(item)),
    section: page.section,
    integrations: { all: scope.all, current: scope.current, chooser: !t.everyIntegration },
    children: (
      <>
        <EveryIntegration text={t.everyIntegration} />
        <p>
          <a href={back}>{t.back}</a>
        </p>
        {page.body({ c, language, t, item })}
      </>
    ),
  });
}
