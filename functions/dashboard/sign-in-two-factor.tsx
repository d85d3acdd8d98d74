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
  TWO_FACTOR_PATH,
} from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import type { ApiError } from "../../lib/kernel/errors/api-error";
import { ERRORS } from "../../lib/kernel/errors/registry";
import { DoneNote, ErrorNote } from "./feedback";
import { CsrfField, renderPage } from "./layout";
import { TEXT } from "./security-text";
import { commonText, fill } from "./texts";

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
      if (!outcome.usedRecoveryCode) return c.redirect(DASHBOARD_PATH, 303);
      // Said once, on the answer itself: the member should make new codes before they run out.
      const t = TEXT[c.get("dashboard").language];
      return verifyPage(c, { done: fill(t.recoveryUsed, { count: String(outcome.recoveryCodesLeft) }) });
    }
    if (outcome.sessionEnded) {
      await endSession(c.get("services"), signedIn.sessionId);
      clearSessionCookie(c);
    }
    c.status(ERRORS[outcome.error.code].status);
    return verifyPage(c, { error: outcome.error, ended: outcome.sessionEnded });
  });
}

function verifyPage(c: DashboardContext, props: { error?: ApiError; ended?: boolean; done?: string }) {
  const t = TEXT[c.get("dashboard").language];
  return renderPage(c, {
    title: t.verifyTitle,
    children: (
      <section class="card narrow">
        <DoneNote text={props.done} />
        <ErrorNote c={c} error={props.error} />
        {props.done ? (
          <p>
            <a href={SECURITY_PATH}>{t.title}</a> · <a href={DASHBOARD_PATH}>{t.continue}</a>
          </p>
        ) : props.ended ? (
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
