import type { Child } from "hono/jsx";
import { CSRF_FIELD, DASHBOARD_PATH, type DashboardContext } from "../../lib/http/dashboard-frame";
import type { Integration } from "../../lib/tenancy/organizations";
import { type MemberRole, type Permission, roleMay } from "../../lib/tenancy/roles";
import { DASHBOARD_STYLE } from "./style";
import { type CommonText, commonText, fill } from "./texts";

/** The dashboard's one client script: a static asset of this worker (dev/docs-assets.mjs), never a CDN. */
const DASHBOARD_SCRIPT_PATH = "/dashboard/dashboard.js";

export type Section =
  | "overview"
  | "keys"
  | "webhooks"
  | "orders"
  | "payouts"
  | "swaps"
  | "statements"
  | "audit"
  | "request-logs"
  | "members"
  | "security"
  | "sandbox";

/** The sections in the navigation, each shown to the roles that may open it (lib/tenancy/roles.ts). */
const SECTIONS: ReadonlyArray<{
  section: Section;
  path: string;
  permission?: Permission;
  mockOnly?: boolean;
}> = [
  { section: "overview", path: "" },
  { section: "keys", path: "/keys", permission: "keys:read" },
  { section: "webhooks", path: "/webhooks" },
  { section: "orders", path: "/orders" },
  { section: "payouts", path: "/payouts" },
  { section: "swaps", path: "/swaps" },
  { section: "statements", path: "/statements", permission: "statements:read" },
  { section: "audit", path: "/audit", permission: "audit:read" },
  { section: "request-logs", path: "/request-logs", permission: "request_logs:read" },
  { section: "members", path: "/members", permission: "members:read" },
  { section: "security", path: "/security" },
  { section: "sandbox", path: "/sandbox", permission: "sandbox:write", mockOnly: true },
];

export interface PageOptions {
  title: string;
  section?: Section;
  /**
   * The organization's integrations and the one the page acts for, which every navigation link
   * keeps. The chooser is shown unless `chooser` is false: on pages that list the whole
   * organization's records, where choosing would change nothing.
   */
  integrations?: { all: Integration[]; current?: Integration; chooser?: boolean };
  children?: Child;
}

/** The hidden field every form carries; the frame refuses a POST without it. */
export function CsrfField(props: { c: DashboardContext }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.c.get("dashboard").csrfToken} />;
}

/** A link to a dashboard page, keeping the chosen integration. */
export function dashboardHref(path: string, query: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) search.set(name, value);
  const text = search.toString();
  return `${DASHBOARD_PATH}${path}${text ? `?${text}` : ""}`;
}

export function renderPage(c: DashboardContext, options: PageOptions): Response | Promise<Response> {
  const { language, member } = c.get("dashboard");
  const t = commonText(language);
  const mock = c.get("services").config.MODE === "mock";
  const integrationId = options.integrations?.current?.id;
  const here = new URL(c.req.url);
  const switchUrl = new URL(here);
  switchUrl.searchParams.set("lang", t.switchLang);
  c.header("Content-Language", language);
  return c.html(
    "<!doctype html>" +
    (
      <html lang={language}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`${options.title} · ${t.product}`}</title>
          <style dangerouslySetInnerHTML={{ __html: DASHBOARD_STYLE }} />
          <script src={DASHBOARD_SCRIPT_PATH} defer />
        </head>
        <body data-copy={t.copy} data-copied={t.copied}>
          <a class="skip" href="#content">
            {t.skip}
          </a>
          <header class="top">
            <p class="brand">{t.product}</p>
            <div class="top-actions">
              {member ? (
                <p class="who">
                  {fill(t.signedInAs, { email: member.email, organization: member.organizationName })}
                </p>
              ) : null}
              <a
                href={`${switchUrl.pathname}${switchUrl.search}`}
                lang={t.switchLang}
                hreflang={t.switchLang}
              >
                {t.switchTo}
              </a>
              {member ? (
                <form method="post" action={`${DASHBOARD_PATH}/sign-out`}>
                  <CsrfField c={c} />
                  <button type="submit" class="link">
                    {t.signOut}
                  </button>
                </form>
              ) : null}
            </div>
          </header>
          {member?.stage === "full" ? (
            <SectionNav
              t={t}
              current={options.section}
              mock={mock}
              role={member.role}
              integrationId={integrationId}
            />
          ) : null}
          <main id="content">
            <h1>{options.title}</h1>
            <p class={mock ? "badge" : "badge live"}>{mock ? t.mockBadge : t.liveBadge}</p>
            {options.integrations ? (
              <IntegrationChooser t={t} {...options.integrations} action={here.pathname} />
            ) : null}
            {options.children}
          </main>
        </body>
      </html>
    ),
  );
}

function SectionNav(props: {
  t: CommonText;
  current?: Section;
  mock: boolean;
  role: MemberRole;
  integrationId?: string;
}) {
  return (
    <nav class="sections" aria-label={props.t.nav}>
      <ul>
        {SECTIONS.filter(
          (s) => (props.mock || !s.mockOnly) && (!s.permission || roleMay(props.role, s.permission)),
        ).map((s) => (
          <li>
            <a
              href={dashboardHref(s.path, { integration: props.integrationId })}
              aria-current={s.section === props.current ? "page" : undefined}
            >
              {props.t[s.section]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function IntegrationChooser(props: {
  t: CommonText;
  all: Integration[];
  current?: Integration;
  chooser?: boolean;
  action: string;
}) {
  if (props.all.length === 0) return <p class="note">{props.t.noIntegration}</p>;
  if (props.chooser === false) return null;
  return (
    <form method="get" action={props.action} class="filters">
      <div>
        <label for="integration">{props.t.integration}</label>
        <select id="integration" name="integration">
          {props.all.map((integration) => (
            <option value={integration.id} selected={integration.id === props.current?.id}>
              {`${integration.name} (${integration.id})`}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" class="secondary">
        {props.t.show}
      </button>
    </form>
  );
}
