import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  DASHBOARD_PATH,
  type DashboardContext,
  dashboardFrame,
  type Refusal,
  requireMember,
} from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import { ApiError } from "../../lib/kernel/errors/api-error";
import * as audit from "./audit";
import { ErrorNote } from "./feedback";
import * as keys from "./keys";
import { renderPage } from "./layout";
import * as members from "./members";
import * as orders from "./orders";
import * as overview from "./overview";
import * as payouts from "./payouts";
import * as requestLogs from "./request-logs";
import * as sandbox from "./sandbox";
import * as security from "./security";
import * as signIn from "./sign-in";
import * as statements from "./statements";
import * as swaps from "./swaps";
import { commonText } from "./texts";
import * as webhooks from "./webhooks";

/** The dashboard's pages after sign-in, each registering its own routes under /dashboard. */
const memberPages: ReadonlyArray<{ register(app: OpenAPIHono<AppEnv>): void }> = [
  overview,
  keys,
  webhooks,
  orders,
  payouts,
  swaps,
  statements,
  audit,
  requestLogs,
  members,
  security,
  sandbox,
];

/**
 * The partner dashboard: server-rendered pages under /dashboard for organization members, outside
 * the OpenAPI document (they are not API). The frame (language, session, CSRF) runs first on every
 * one; every page but sign-in requires a member.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.use(DASHBOARD_PATH, dashboardFrame(refusal));
  app.use(`${DASHBOARD_PATH}/*`, dashboardFrame(refusal));
  signIn.register(app);
  // Sign-in's routes answer before this runs; everything registered after it is for members.
  app.use(DASHBOARD_PATH, requireMember());
  app.use(`${DASHBOARD_PATH}/*`, requireMember());
  for (const page of memberPages) page.register(app);
}

/** A POST from elsewhere, without this page's CSRF token or with a NUL, or a request over its limit: nothing done. */
function refusal(c: DashboardContext, reason: Refusal) {
  const t = commonText(c.get("dashboard").language);
  return renderPage(c, {
    title: t.forbiddenTitle,
    children: (
      <section class="card">
        {reason instanceof ApiError ? (
          <ErrorNote c={c} error={reason} />
        ) : reason === "forged" ? (
          <p class="error" role="alert">
            {t.formExpired}
          </p>
        ) : (
          <ErrorNote
            c={c}
            error={
              reason === "limited"
                ? new ApiError("RATE_LIMITED")
                : new ApiError("INVALID_REQUEST", {
                    detail: { es: commonText("es").nulInForm, en: commonText("en").nulInForm },
                  })
            }
          />
        )}
        <p>
          <a href={DASHBOARD_PATH}>{t.back}</a>
        </p>
      </section>
    ),
  });
}
