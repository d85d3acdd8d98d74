import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  DASHBOARD_PATH,
  type DashboardContext,
  formField,
  requirePermission,
} from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import { validationError } from "../../lib/http/validation";
import { ApiError } from "../../lib/kernel/errors/api-error";
import { ERRORS } from "../../lib/kernel/errors/registry";
import { hasPrefix } from "../../lib/kernel/ids";
import {
  issueMemberApiKey,
  KEYS_DEFAULT_LIMIT,
  listApiKeys,
  revokeApiKey,
  setApiKeyExpiry,
} from "../../lib/tenancy/integrations";
import type { IssuedKey } from "../../lib/tenancy/organizations";
import { route as updateKeyRoute } from "../tenancy/admin-update-api-key";
import { DoneNote, ErrorNote } from "./feedback";
import { type IntegrationScope, integrationScope } from "./integration";
import {
  EMPTY_KEY_FORM,
  IssueKeyCard,
  type KeyForm,
  keyRequestOfForm,
  postedKeyForm,
  utcDateTime,
} from "./keys-form";
import { type ExpiryRefusal, KeyTable } from "./keys-table";
import { TEXT } from "./keys-text";
import { dashboardHref, renderPage } from "./layout";
import { Pager } from "./listing";
import { notFoundPage } from "./not-found";
import { SecretOnce } from "./secret-once";

const KEYS_PATH = `${DASHBOARD_PATH}/keys`;
/** The admin API's body for a key's expiry (PATCH /admin/integrations/{id}/keys/{keyId}). */
const EXPIRY_BODY = updateKeyRoute.request.body.content["application/json"].schema;

/** What the page says after an action it redirected from (`?done=`). */
const DONE = { revoked: "doneRevoked", expiry: "doneExpiry", "no-expiry": "doneNoExpiry" } as const;

/**
 * The API keys of the chosen integration: GET lists them, POST issues one (its secret is in that
 * answer only, never in a URL, a redirect or a log), POST …/{keyId}/expiry sets or clears a key's
 * expiry, POST …/{keyId}/revoke revokes one. The same verbs and checks as the admin API
 * (lib/tenancy/integrations.ts, the routes' schemas), scoped to the member's organization.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(KEYS_PATH, requirePermission("keys:read"), async (c) => {
    const scope = await integrationScope(c);
    if (!scope) return notFoundPage(c, { section: "keys", back: KEYS_PATH });
    return keysPage(c, scope, { done: c.req.query("done") });
  });

  app.post(KEYS_PATH, requirePermission("keys:write"), async (c) => {
    const scope = await integrationScope(c);
    if (!scope?.current) return notFoundPage(c, { section: "keys", back: KEYS_PATH });
    const form = await postedKeyForm(c);
    try {
      const issued = await issueMemberApiKey(c.get("services"), scope.current.id, keyRequestOfForm(form));
      return keysPage(c, scope, { issued });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      c.status(ERRORS[error.code].status);
      const wait = error.options.retryAfterSeconds;
      if (wait !== undefined) c.header("Retry-After", String(Math.max(1, Math.ceil(wait))));
      return keysPage(c, scope, { error, form });
    }
  });

  // An action URL opened rather than posted (the integration chooser of a page it answered) shows the list.
  for (const action of ["revoke", "expiry"]) {
    app.get(`${KEYS_PATH}/:keyId/${action}`, requirePermission("keys:read"), (c) =>
      c.redirect(dashboardHref("/keys", { integration: c.req.query("integration") }), 303),
    );
  }

  app.post(`${KEYS_PATH}/:keyId/expiry`, requirePermission("keys:write"), async (c) => {
    const scope = await integrationScope(c);
    if (!scope?.current) return notFoundPage(c, { section: "keys", back: KEYS_PATH });
    const keyId = c.req.param("keyId");
    const typed = (await formField(c, "expiresAt")).trim();
    try {
      // Empty is "never", as the API's null; a datetime-local value is read as UTC.
      const parsed = EXPIRY_BODY.safeParse({ expiresAt: typed ? utcDateTime(typed) : null });
      if (!parsed.success) throw validationError("json", parsed.error.issues);
      const { expiresAt } = parsed.data;
      await setApiKeyExpiry(
        c.get("services"),
        scope.current.id,
        keyId,
        expiresAt === null ? null : new Date(expiresAt),
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === "API_KEY_NOT_FOUND") {
        return notFoundPage(c, {
          section: "keys",
          back: dashboardHref("/keys", { integration: scope.current.id }),
        });
      }
      c.status(ERRORS[error.code].status);
      return keysPage(c, scope, { expiry: { keyId, typed, error } });
    }
    const done = typed ? "expiry" : "no-expiry";
    return c.redirect(dashboardHref("/keys", { integration: scope.current.id, done }), 303);
  });

  app.post(`${KEYS_PATH}/:keyId/revoke`, requirePermission("keys:write"), async (c) => {
    const scope = await integrationScope(c);
    if (!scope?.current) return notFoundPage(c, { section: "keys", back: KEYS_PATH });
    const back = dashboardHref("/keys", { integration: scope.current.id });
    try {
      await revokeApiKey(c.get("services"), scope.current.id, c.req.param("keyId"));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === "API_KEY_NOT_FOUND") return notFoundPage(c, { section: "keys", back });
      c.status(ERRORS[error.code].status);
      return keysPage(c, scope, { error });
    }
    return c.redirect(dashboardHref("/keys", { integration: scope.current.id, done: "revoked" }), 303);
  });
}

async function keysPage(
  c: DashboardContext,
  scope: IntegrationScope,
  props: {
    issued?: IssuedKey;
    error?: ApiError;
    form?: KeyForm;
    expiry?: ExpiryRefusal;
    done?: string | undefined;
  },
) {
  const language = c.get("dashboard").language;
  const t = TEXT[language];
  const { all, current } = scope;
  // A cursor the pager did not make starts the list again from its first page.
  const asked = c.req.query("cursor");
  const cursor = asked && hasPrefix(asked, "key") ? asked : undefined;
  const { keys, nextCursor } = current
    ? await listApiKeys(c.get("services"), current.id, { limit: KEYS_DEFAULT_LIMIT, cursor })
    : { keys: [], nextCursor: null };
  const done =
    props.done && Object.hasOwn(DONE, props.done) ? t[DONE[props.done as keyof typeof DONE]] : undefined;
  return renderPage(c, {
    title: t.title,
    section: "keys",
    integrations: { all, current },
    children: current ? (
      <>
        <DoneNote text={done} />
        {props.issued ? (
          <SecretOnce
            titleId="issued-title"
            valueId="issued-api-key"
            title={t.issuedTitle}
            warning={t.issuedWarning}
            value={props.issued.apiKey}
          />
        ) : null}
        <p>{t.intro}</p>
        <IssueKeyCard
          c={c}
          integrationId={current.id}
          form={props.form ?? EMPTY_KEY_FORM}
          error={props.form ? props.error : undefined}
        />
        <h2 id="keys-title">{t.listTitle}</h2>
        {/* A refused revocation or expiry is said above the list (the key may be on another page). */}
        <ErrorNote c={c} error={props.expiry?.error ?? (props.form ? undefined : props.error)} />
        {keys.length === 0 ? (
          <p>{t.none}</p>
        ) : (
          <KeyTable c={c} t={t} keys={keys} integrationId={current.id} expiry={props.expiry} />
        )}
        <Pager
          c={c}
          path="/keys"
          integrationId={current.id}
          filters={cursor ? { cursor } : {}}
          nextCursor={nextCursor}
        />
        <p>{t.lastUsedNote}</p>
      </>
    ) : null,
  });
}
