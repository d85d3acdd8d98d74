import type { OpenAPIHono } from "@hono/zod-openapi";
import { endSession } from "../../lib/dashboard/sessions";
import { verifySecondFactor } from "../../lib/dashboard/two-factor";
import {
  clearSessionCookie,
  DASHBOARD_PATH,
  type DashboardContext,
  formField,
  SECURITY_PATH,
  SIGN_IN_PATH,
  setSessionCookie,
  TWO_FACTOR_PATH,
} from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import type { ApiError } from "../../lib/kernel/errors/api-error";
import { ERRORS } from "../../lib/kernel/errors/registry";
import { ErrorNote } from "./feedback";
import { CsrfField, renderPage } from "./layout";
import { TEXT } from "./security-text";
import { commonText } from "./texts";

/**
 * The sign-in's second step, for a session whose member has two-factor sign-in: a code from the
 * app or a recovery code opens the dashboard. Five wrong codes end the session (sign in again by
 * email). Anyone without such a session is sent where they belong.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(TWO_FACTOR_PATH, (c) => {
    const signedIn = c.get("dashboard").member;
    if (!signedIn) return c.redirect(SIGN_IN_PATH, 303);
    if (signedIn.stage !== "verify") return c.redirect(DASHBOARD_PATH, 303);
    return verifyPage(c, {});
  });

  app.post(TWO_FACTOR_PATH, async (c) => {
    const signedIn = c.get("dashboard").member;
    if (!signedIn) return c.redirect(SIGN_IN_PATH, 303);
    if (signedIn.stage !== "verify") return c.redirect(DASHBOARD_PATH, 303);
    const outcome = await verifySecondFactor(c.get("services"), signedIn, await formField(c, "code"));
    if (outcome.ok) {
      await setSessionCookie(c, outcome.session.cookieValue, outcome.session.expiresAt);
      if (!outcome.usedRecoveryCode) return c.redirect(DASHBOARD_PATH, 303);
      // The new session's first page says how many recovery codes are left, to make new ones in time.
      return c.redirect(`${SECURITY_PATH}?recovery=${outcome.recoveryCodesLeft}`, 303);
    }
    if (outcome.sessionEnded) {
      await endSession(c.get("services"), signedIn.sessionId);
      clearSessionCookie(c);
    }
    c.status(ERRORS[outcome.error.code].status);
    return verifyPage(c, { error: outcome.error, ended: outcome.sessionEnded });
  });
}

function verifyPage(c: DashboardContext, props: { error?: ApiError; ended?: boolean }) {
  const t = TEXT[c.get("dashboard").language];
  return renderPage(c, {
    title: t.verifyTitle,
    children: (
      <section class="card narrow">
        <ErrorNote c={c} error={props.error} />
        {props.ended ? (
          <p>
            <a href={SIGN_IN_PATH}>{t.signInAgain}</a>
          </p>
        ) : (
          <>
            <p id="two-factor-intro">{t.verifyIntro}</p>
            <form method="post" action={TWO_FACTOR_PATH}>
              <CsrfField c={c} />
              <label for="code">{t.code}</label>
              <input id="code" name="code" type="text" autocomplete="one-time-code" maxlength={11} required />
              <div class="actions">
                <button type="submit">{t.verify}</button>
              </div>
            </form>
            <form method="post" action={`${DASHBOARD_PATH}/sign-out`}>
              <CsrfField c={c} />
              <button type="submit" class="link">
                {commonText(c.get("dashboard").language).signOut}
              </button>
            </form>
          </>
        )}
      </section>
    ),
  });
}
