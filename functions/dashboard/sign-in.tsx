import type { OpenAPIHono } from "@hono/zod-openapi";
import { deleteCookie, getSignedCookie, setSignedCookie } from "hono/cookie";
import { dashboardCookieKey } from "../../lib/dashboard/session-key";
import { endSession, type Membership, type NewSession } from "../../lib/dashboard/sessions";
import { chooseOrganization, sendSignInCode, verifySignInCode } from "../../lib/dashboard/sign-in";
import { afterResponse } from "../../lib/http/after-response";
import {
  clearSessionCookie,
  cookiesSecure,
  DASHBOARD_PATH,
  type DashboardContext,
  formField,
  SIGN_IN_PATH,
  setSessionCookie,
} from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import { ApiError } from "../../lib/kernel/errors/api-error";
import { ERRORS } from "../../lib/kernel/errors/registry";
import { ErrorNote } from "./feedback";
import { CsrfField, renderPage } from "./layout";
import * as twoFactor from "./sign-in-two-factor";
import { commonText, fill } from "./texts";

/** Holds the verified code's id while an email in several organizations picks one (10 minutes at most). */
const PENDING_COOKIE = "copm_dashboard_pending";

/**
 * Sign-in by emailed code: GET the email form, POST it (the code is emailed to members; the answer
 * is the same for anyone), POST the code (a session for one organization, or the choice among
 * several), POST the choice; POST sign-out ends the session.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(SIGN_IN_PATH, (c) => {
    if (c.get("dashboard").member) return c.redirect(DASHBOARD_PATH, 303);
    const t = commonText(c.get("dashboard").language);
    const note = c.req.query("ended") ? t.sessionEnded : c.req.query("out") ? t.signedOut : undefined;
    return emailForm(c, { note });
  });

  app.post(SIGN_IN_PATH, async (c) => {
    const email = (await formField(c, "email")).trim();
    try {
      const { mailing } = await sendSignInCode(c.get("services"), {
        email,
        browser: c.get("dashboard").browser,
      });
      afterResponse(c, mailing);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      c.status(ERRORS[error.code].status);
      return emailForm(c, { email, error });
    }
    return codeForm(c, { email });
  });

  app.post(`${SIGN_IN_PATH}/code`, async (c) => {
    const email = (await formField(c, "email")).trim();
    const code = await formField(c, "code");
    let outcome: Awaited<ReturnType<typeof verifySignInCode>>;
    try {
      outcome = await verifySignInCode(c.get("services"), {
        email,
        code,
        browser: c.get("dashboard").browser,
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      c.status(ERRORS[error.code].status);
      return codeForm(c, { email, error });
    }
    if (outcome.kind === "session") return signedIn(c, outcome.session);
    await setSignedCookie(
      c,
      PENDING_COOKIE,
      outcome.codeId,
      await dashboardCookieKey(c.get("services").config),
      {
        path: DASHBOARD_PATH,
        httpOnly: true,
        secure: cookiesSecure(c),
        sameSite: "Strict",
        maxAge: 600,
      },
    );
    return chooser(c, outcome.memberships);
  });

  app.post(`${SIGN_IN_PATH}/organization`, async (c) => {
    const codeId = await getSignedCookie(
      c,
      await dashboardCookieKey(c.get("services").config),
      PENDING_COOKIE,
    );
    try {
      if (!codeId) throw new ApiError("OTP_NOT_FOUND");
      const session = await chooseOrganization(c.get("services"), {
        codeId,
        memberId: await formField(c, "memberId"),
      });
      deleteCookie(c, PENDING_COOKIE, { path: DASHBOARD_PATH });
      return signedIn(c, session);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      c.status(ERRORS[error.code].status);
      return emailForm(c, { error });
    }
  });

  twoFactor.register(app);

  app.post(`${DASHBOARD_PATH}/sign-out`, async (c) => {
    const signedInMember = c.get("dashboard").member;
    if (signedInMember) await endSession(c.get("services"), signedInMember.sessionId);
    clearSessionCookie(c);
    return c.redirect(`${SIGN_IN_PATH}?out=1`, 303);
  });
}

/** The new session's cookie replaces the browser's, and the session that cookie held ends with it. */
async function signedIn(c: DashboardContext, session: NewSession): Promise<Response> {
  const previous = c.get("dashboard").member;
  if (previous) await endSession(c.get("services"), previous.sessionId);
  await setSessionCookie(c, session.cookieValue, session.expiresAt);
  return c.redirect(DASHBOARD_PATH, 303);
}

function emailForm(c: DashboardContext, props: { email?: string; error?: ApiError; note?: string }) {
  const t = commonText(c.get("dashboard").language);
  return renderPage(c, {
    title: t.signInTitle,
    children: (
      <section class="card narrow">
        <p id="sign-in-intro">{t.signInIntro}</p>
        {props.note ? <p class="note">{props.note}</p> : null}
        <ErrorNote c={c} error={props.error} />
        <form method="post" action={SIGN_IN_PATH}>
          <CsrfField c={c} />
          <label for="email">{t.email}</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="email"
            required
            value={props.email ?? ""}
          />
          <div class="actions">
            <button type="submit">{t.sendCode}</button>
          </div>
        </form>
      </section>
    ),
  });
}

function codeForm(c: DashboardContext, props: { email: string; error?: ApiError }) {
  const t = commonText(c.get("dashboard").language);
  return renderPage(c, {
    title: t.codeTitle,
    children: (
      <section class="card narrow">
        <p id="code-sent" class="note">
          {fill(t.codeSent, { email: props.email })}
        </p>
        <ErrorNote c={c} error={props.error} />
        <form method="post" action={`${SIGN_IN_PATH}/code`}>
          <CsrfField c={c} />
          <input type="hidden" name="email" value={props.email} />
          <label for="code">{t.code}</label>
          <input
            id="code"
            name="code"
            type="text"
            inputmode="numeric"
            autocomplete="one-time-code"
            pattern="[0-9]{6}"
            maxlength={6}
            required
          />
          <div class="actions">
            <button type="submit">{t.verify}</button>
            <a href={SIGN_IN_PATH}>{t.otherEmail}</a>
          </div>
        </form>
      </section>
    ),
  });
}

function chooser(c: DashboardContext, memberships: Membership[]) {
  const t = commonText(c.get("dashboard").language);
  return renderPage(c, {
    title: t.chooseTitle,
    children: (
      <section class="card narrow">
        <p>{t.chooseIntro}</p>
        {memberships.map((membership) => (
          <form method="post" action={`${SIGN_IN_PATH}/organization`}>
            <CsrfField c={c} />
            <input type="hidden" name="memberId" value={membership.memberId} />
            <div class="actions">
              <button type="submit">{fill(t.enter, { organization: membership.organizationName })}</button>
            </div>
          </form>
        ))}
      </section>
    ),
  });
}
