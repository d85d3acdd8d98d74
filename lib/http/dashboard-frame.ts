import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, getSignedCookie, setCookie, setSignedCookie } from "hono/cookie";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { dashboardCookieKey, dashboardMac } from "../dashboard/session-key";
import { type DashboardMember, readSession } from "../dashboard/sessions";
import { equalStrings } from "../kernel/constant-time";
import { ApiError } from "../kernel/errors/api-error";
import { type Language, preferredLanguage } from "../kernel/errors/error-body";
import { randomToken, tokenHash } from "../kernel/secret-token";
import { assertMemberMay } from "../tenancy/members";
import { type Permission, roleMay } from "../tenancy/roles";
import { clientAddressOf, clientIp } from "./auth";
import type { AppEnv } from "./env";
import { DASHBOARD_PATH } from "./pages";
import { formProblems } from "./request-guards";

export { DASHBOARD_PATH };
export const SIGN_IN_PATH = `${DASHBOARD_PATH}/sign-in`;
/** The sign-in's second step, for a member with two-factor sign-in. */
export const TWO_FACTOR_PATH = `${SIGN_IN_PATH}/two-factor`;
/** The member's own two-factor settings and, for owners, the organization's requirement. */
export const SECURITY_PATH = `${DASHBOARD_PATH}/security`;
export const CSRF_FIELD = "_csrf";
const SESSION_COOKIE = "copm_dashboard_session";
const CSRF_COOKIE = "copm_dashboard_csrf";
const LANGUAGE_COOKIE = "copm_dashboard_lang";

export type DashboardContext = Context<AppEnv>;

/**
 * Why the frame refused: a POST not from this dashboard's form, too many in a minute, a field no form
 * takes; or the error a page let through (a role without the permission, above all).
 */
export type Refusal = "forged" | "limited" | "invalid" | ApiError;

/**
 * What the pages may load: this origin's script and nothing else; forms post only here; no page is
 * framed. Styles are inline.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/**
 * Every /dashboard request: the language (a `?lang=` switch, remembered in a cookie, else
 * Accept-Language), the member of a valid session cookie, and the CSRF token. A POST must come from
 * this origin and carry the token in its form, else it is refused with 403 before its handler runs.
 */
export function dashboardFrame(
  renderRefusal: (c: DashboardContext, reason: Refusal) => Response | Promise<Response>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const services = c.get("services");
    const language = languageOf(c);
    const secure = cookiesSecure(c);
    const cookieValue = await getSignedCookie(c, await dashboardCookieKey(services.config), SESSION_COOKIE);
    const member = cookieValue ? await readSession(services, cookieValue) : undefined;
    const seed = csrfSeed(c, secure);
    const csrfToken = member
      ? await dashboardMac(services.config, `session:${member.sessionId}`)
      : await dashboardMac(services.config, `pre-session:${seed}`);
    c.set("dashboard", { language, csrfToken, browser: tokenHash(seed), ...(member ? { member } : {}) });
    c.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    c.header("Cache-Control", "no-store");
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "same-origin");
    c.header("Vary", "Accept-Language, Cookie");
    // Signing out of a session that already ended needs no token: the page's token was the session's.
    const leaving = !member && c.req.path === `${DASHBOARD_PATH}/sign-out`;
    if (c.req.method === "POST" && !leaving && !(await postIsOurs(c, csrfToken))) {
      c.status(403);
      return renderRefusal(c, "forged");
    }
    // Postgres cannot store a NUL, and no form field needs one: refused before any handler reads the form.
    if (c.req.method === "POST" && formProblems(await c.req.parseBody({ all: true })).length > 0) {
      c.status(400);
      return renderRefusal(c, "invalid");
    }
    // Every request counts, a page as a form: it reads as much as the API call it stands for. A
    // member's against the per-key limit, as the API key they stand for would; anyone else's (the
    // sign-in pages) against the client's IP, as every route without a key.
    const { rateLimits } = c.get("deps");
    const { success } = member
      ? await rateLimits.perKey.limit({ key: `dashboard:${member.memberId}` })
      : await rateLimits.perIp.limit({ key: clientIp(c) });
    if (!success) {
      c.status(429);
      c.header("Retry-After", String(rateLimits.periodSeconds));
      return renderRefusal(c, "limited");
    }
    if (member) c.get("services").actor = { type: "member", id: member.memberId, ip: clientAddressOf(c) };
    await next();
    // A page's own errors are its to show; one it let through is a page too, never the API's JSON.
    if (c.error instanceof ApiError) {
      c.status(c.error.status as ContentfulStatusCode);
      c.res = await renderRefusal(c, c.error);
    }
  };
}

/**
 * Pages for members only: anyone else is sent to sign in (told so when a session just ended). A
 * session still owing its second factor reaches only that page; one whose organization requires a
 * second factor the member has not set up reaches only the security page, to set it up.
 */
export function requireMember(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const signedIn = c.get("dashboard").member;
    if (!signedIn) {
      const ended = getCookie(c, SESSION_COOKIE) !== undefined;
      if (ended) deleteCookie(c, SESSION_COOKIE, { path: DASHBOARD_PATH });
      return c.redirect(`${SIGN_IN_PATH}${ended ? "?ended=1" : ""}`, 303);
    }
    if (signedIn.stage === "verify") return c.redirect(TWO_FACTOR_PATH, 303);
    if (signedIn.stage === "enroll" && !ENROLLING.has(`${c.req.method} ${c.req.path}`)) {
      return c.redirect(SECURITY_PATH, 303);
    }
    return next();
  };
}

/** What a member whose organization requires two-factor reaches before setting it up: that, only. */
const ENROLLING = new Set([
  `GET ${SECURITY_PATH}`,
  `POST ${SECURITY_PATH}/two-factor/start`,
  `POST ${SECURITY_PATH}/two-factor/confirm`,
]);

/**
 * A page or action for the roles that hold `permission` (lib/tenancy/roles.ts); any other member is
 * answered 403 INSUFFICIENT_ROLE by the dashboard's error page, and nothing is done.
 */
export function requirePermission(permission: Permission): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    assertMemberMay(member(c).role, permission);
    await next();
  };
}

/** Whether the signed-in member's role holds `permission`: what a page shows of its actions. */
export function memberMay(c: DashboardContext, permission: Permission): boolean {
  return roleMay(member(c).role, permission);
}

export function member(c: DashboardContext): DashboardMember {
  const signedIn = c.get("dashboard").member;
  if (!signedIn) throw new Error("requireMember() must run before a member's page");
  return signedIn;
}

/**
 * The cookie lives as long as the session, as Max-Age (relative: a browser whose clock differs from
 * the server's still keeps it 12 h); the sessions table decides whether it still opens anything.
 */
export async function setSessionCookie(
  c: DashboardContext,
  cookieValue: string,
  expiresAt: Date,
): Promise<void> {
  const services = c.get("services");
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - services.clock.now().getTime()) / 1000));
  await setSignedCookie(c, SESSION_COOKIE, cookieValue, await dashboardCookieKey(services.config), {
    path: DASHBOARD_PATH,
    httpOnly: true,
    secure: cookiesSecure(c),
    sameSite: "Lax",
    maxAge,
  });
}

export function clearSessionCookie(c: DashboardContext): void {
  deleteCookie(c, SESSION_COOKIE, { path: DASHBOARD_PATH, secure: cookiesSecure(c) });
}

/** A form field of the already-parsed body (the frame parsed it to check the token). */
export async function formField(c: DashboardContext, name: string): Promise<string> {
  const value = (await c.req.parseBody())[name];
  return typeof value === "string" ? value : "";
}

/** Secure cookies everywhere but plain-HTTP local development (mock mode on loopback). */
export function cookiesSecure(c: DashboardContext): boolean {
  return c.get("services").config.MODE === "live" || new URL(c.req.url).protocol === "https:";
}

function languageOf(c: DashboardContext): Language {
  const asked = c.req.query("lang");
  if (asked === "es" || asked === "en") {
    setCookie(c, LANGUAGE_COOKIE, asked, {
      path: DASHBOARD_PATH,
      sameSite: "Lax",
      httpOnly: true,
      secure: cookiesSecure(c),
      maxAge: 365 * 24 * 60 * 60,
    });
    return asked;
  }
  const remembered = getCookie(c, LANGUAGE_COOKIE);
  if (remembered === "es" || remembered === "en") return remembered;
  return preferredLanguage(c.req.header("accept-language"));
}

/** The random seed a visitor's pre-session CSRF token derives from; set on first sight. */
function csrfSeed(c: DashboardContext, secure: boolean): string {
  const existing = getCookie(c, CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const seed = randomToken();
  setCookie(c, CSRF_COOKIE, seed, { path: DASHBOARD_PATH, httpOnly: true, secure, sameSite: "Strict" });
  return seed;
}

/**
 * A form post is ours when the browser says it came from this origin (Origin, or Sec-Fetch-Site
 * when Origin is absent) and it carries this page's token in a URL-encoded form (every dashboard
 * form is one); a body that does not parse is refused like a missing token.
 */
async function postIsOurs(c: DashboardContext, csrfToken: string): Promise<boolean> {
  const origin = c.req.header("origin");
  if (origin !== undefined && origin !== new URL(c.req.url).origin) return false;
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined && site !== "same-origin" && site !== "none") return false;
  const type = c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return false;
  try {
    return equalStrings(await formField(c, CSRF_FIELD), csrfToken);
  } catch {
    return false;
  }
}
