import type { OpenAPIHono } from "@hono/zod-openapi";
import { DASHBOARD_PATH, type DashboardContext, formField } from "../../lib/http/dashboard-frame";
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
import type { ApiKeyRecord, IssuedKey } from "../../lib/tenancy/organizations";
import { route as updateKeyRoute } from "../tenancy/admin-update-api-key";
import { DataTable } from "./data-table";
import { DoneNote, ErrorNote } from "./feedback";
import { StatusPill, Time } from "./format";
import { type IntegrationScope, integrationScope } from "./integration";
import {
  EMPTY_KEY_FORM,
  FieldError,
  IssueKeyCard,
  type KeyForm,
  keyRequestOfForm,
  postedKeyForm,
  utcDateTime,
  utcInputValue,
} from "./keys-form";
import { CsrfField, dashboardHref, renderPage } from "./layout";
import { Pager } from "./listing";
import { notFoundPage } from "./not-found";
import { PostButton } from "./post-button";
import { SecretOnce } from "./secret-once";
import { commonText, fill } from "./texts";

const KEYS_PATH = `${DASHBOARD_PATH}/keys`;
/** The admin API's body for a key's expiry (PATCH /admin/integrations/{id}/keys/{keyId}). */
const EXPIRY_BODY = updateKeyRoute.request.body.content["application/json"].schema;

const TEXT = {
  es: {
    title: "Llaves de API",
    intro:
      "Cada llave autentica las llamadas de esta integración a la API (Authorization: Bearer). Para rotar una llave sin cortes, emite una nueva, ponle a la anterior un vencimiento (la columna «Vence») y pasa tu sistema a la nueva antes de esa hora; o revoca la anterior cuando termines.",
    issuedTitle: "Tu nueva llave de API",
    issuedWarning:
      "Cópiala y guárdala ahora en un lugar seguro: no se volverá a mostrar. Si la pierdes, emite otra y revoca esta.",
    listTitle: "Llaves de esta integración",
    keyName: "Nombre",
    start: "Comienzo de la llave",
    scopes: "Alcances",
    allowedIps: "Direcciones permitidas",
    lastUsed: "Último uso",
    expires: "Vence (UTC)",
    state: "Estado",
    action: "Acción",
    unnamed: "(sin nombre)",
    never: "Nunca",
    allScopes: "Todos",
    anyAddress: "Cualquiera",
    noExpiry: "Sin vencimiento",
    active: "Activa",
    expired: "Vencida",
    revoked: "Revocada",
    revoke: "Revocar",
    revokeLabel: "Revocar la llave {start}…",
    confirmRevoke:
      "¿Revocar la llave {start}…? Es inmediato y definitivo: la siguiente llamada con ella recibirá 401.",
    expiryLabel: "Vencimiento de la llave {start}…, en UTC",
    expiryHint: "En UTC. Vacío: sin vencimiento.",
    setExpiry: "Fijar",
    setExpiryLabel: "Fijar el vencimiento de la llave {start}…",
    badExpiry: "Escribe una fecha y hora futura y válida, en UTC.",
    none: "Esta integración no tiene llaves.",
    doneRevoked: "La llave quedó revocada: la API ya la rechaza con 401.",
    doneExpiry: "Vencimiento fijado: desde esa hora la API rechaza la llave con 401.",
    doneNoExpiry: "La llave ya no tiene vencimiento.",
    lastUsedNote: "El último uso se registra con una precisión de un minuto.",
  },
  en: {
    title: "API keys",
    intro:
      "Each key authenticates this integration's calls to the API (Authorization: Bearer). To rotate a key without a gap, issue a new one, give the old one an expiry (the “Expires” column) and move your system to the new one before then; or revoke the old one once you are done.",
    issuedTitle: "Your new API key",
    issuedWarning:
      "Copy it and store it somewhere safe now: it will not be shown again. If you lose it, issue another and revoke this one.",
    listTitle: "This integration's keys",
    keyName: "Name",
    start: "Key start",
    scopes: "Scopes",
    allowedIps: "Allowed addresses",
    lastUsed: "Last used",
    expires: "Expires (UTC)",
    state: "Status",
    action: "Action",
    unnamed: "(no name)",
    never: "Never",
    allScopes: "All",
    anyAddress: "Any",
    noExpiry: "No expiry",
    active: "Active",
    expired: "Expired",
    revoked: "Revoked",
    revoke: "Revoke",
    revokeLabel: "Revoke key {start}…",
    confirmRevoke: "Revoke key {start}…? It is immediate and final: the next call with it gets 401.",
    expiryLabel: "Expiry of key {start}…, in UTC",
    expiryHint: "In UTC. Empty: no expiry.",
    setExpiry: "Set",
    setExpiryLabel: "Set the expiry of key {start}…",
    badExpiry: "Enter a valid date and time in the future, in UTC.",
    none: "This integration has no keys.",
    doneRevoked: "The key is revoked: the API now refuses it with 401.",
    doneExpiry: "Expiry set: from then on the API refuses the key with 401.",
    doneNoExpiry: "The key no longer expires.",
    lastUsedNote: "Last use is recorded to about a minute.",
  },
} as const;

type KeysText = (typeof TEXT)[keyof typeof TEXT];

/** What the page says after an action it redirected from (`?done=`). */
const DONE = { revoked: "doneRevoked", expiry: "doneExpiry", "no-expiry": "doneNoExpiry" } as const;

/** A key's expiry form as typed when it was refused, and why. */
interface ExpiryRefusal {
  keyId: string;
  typed: string;
  error: ApiError;
}

/**
 * The API keys of the chosen integration: GET lists them, POST issues one (its secret is in that
 * answer only, never in a URL, a redirect or a log), POST …/{keyId}/expiry sets or clears a key's
 * expiry, POST …/{keyId}/revoke revokes one. The same verbs and checks as the admin API
 * (lib/tenancy/integrations.ts, the routes' schemas), scoped to the member's organization.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(KEYS_PATH, async (c) => {
    const scope = await integrationScope(c);
    if (!scope) return notFoundPage(c, { section: "keys", back: KEYS_PATH });
    return keysPage(c, scope, { done: c.req.query("done") });
  });

  app.post(KEYS_PATH, async (c) => {
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
    app.get(`${KEYS_PATH}/:keyId/${action}`, (c) =>
      c.redirect(dashboardHref("/keys", { integration: c.req.query("integration") }), 303),
    );
  }

  app.post(`${KEYS_PATH}/:keyId/expiry`, async (c) => {
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

  app.post(`${KEYS_PATH}/:keyId/revoke`, async (c) => {
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

function KeyTable(props: {
  c: DashboardContext;
  t: KeysText;
  keys: ApiKeyRecord[];
  integrationId: string;
  expiry: ExpiryRefusal | undefined;
}) {
  const { c, t } = props;
  const common = commonText(c.get("dashboard").language);
  const now = c.get("services").clock.now();
  const expired = (key: ApiKeyRecord) => key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime();
  return (
    <DataTable
      labelledBy="keys-title"
      rows={props.keys}
      rowAttributes={(key) => ({ "data-key-id": key.id })}
      columns={[
        { head: t.keyName, kind: "name", cell: (key) => key.name ?? t.unnamed },
        { head: t.start, kind: "mono", cell: (key) => `${key.start}…` },
        { head: t.scopes, cell: (key) => <Codes values={key.scopes} all={t.allScopes} /> },
        { head: t.allowedIps, cell: (key) => <Codes values={key.allowedIps} all={t.anyAddress} /> },
        { head: common.created, cell: (key) => <Time at={key.createdAt} /> },
        { head: t.lastUsed, cell: (key) => (key.lastUsedAt ? <Time at={key.lastUsedAt} /> : t.never) },
        {
          head: t.state,
          cell: (key) =>
            key.revokedAt ? (
              <>
                <StatusPill status={t.revoked} tone="bad" />{" "}
                <span>
                  <Time at={key.revokedAt} />
                </span>
              </>
            ) : expired(key) ? (
              <StatusPill status={t.expired} tone="bad" />
            ) : (
              <StatusPill status={t.active} tone="good" />
            ),
        },
        {
          head: t.expires,
          cell: (key) => (
            <>
              <div>{key.expiresAt ? <UtcTime at={key.expiresAt} /> : t.noExpiry}</div>
              {key.revokedAt || expired(key) ? null : (
                <ExpiryForm
                  c={c}
                  t={t}
                  keyRecord={key}
                  integrationId={props.integrationId}
                  refusal={props.expiry?.keyId === key.id ? props.expiry : undefined}
                />
              )}
            </>
          ),
        },
        {
          head: t.action,
          cell: (key) =>
            key.revokedAt ? (
              "—"
            ) : (
              <PostButton
                c={c}
                action={dashboardHref(`/keys/${encodeURIComponent(key.id)}/revoke`, {
                  integration: props.integrationId,
                })}
                confirm={fill(t.confirmRevoke, { start: key.start })}
                variant="danger"
                label={fill(t.revokeLabel, { start: key.start })}
              >
                {t.revoke}
              </PostButton>
            ),
        },
      ]}
    />
  );
}

/**
 * An expiry in UTC, as its form reads and shows it: unlike <Time>, the page's script leaves it in UTC,
 * so the column and its form never disagree by the viewer's offset.
 */
function UtcTime(props: { at: Date }) {
  const iso = props.at.toISOString();
  return <span data-utc={iso}>{`${iso.slice(0, 19).replace("T", " ")} UTC`}</span>;
}

/** A key's scopes or ranges, one a line; `all` when it has none (no limit). */
function Codes(props: { values: readonly string[] | null; all: string }) {
  if (props.values === null) return <>{props.all}</>;
  return (
    <ul class="bare">
      {props.values.map((value) => (
        <li>
          <code>{value}</code>
        </li>
      ))}
    </ul>
  );
}

/**
 * A working key's expiry, to set, move or clear (empty: never), read as UTC: a rotation with
 * overlap gives the old key an expiry once the new one is issued. A refused value comes back as typed.
 */
function ExpiryForm(props: {
  c: DashboardContext;
  t: KeysText;
  keyRecord: ApiKeyRecord;
  integrationId: string;
  refusal: ExpiryRefusal | undefined;
}) {
  const { c, t, keyRecord: key, refusal } = props;
  const id = `expiry-${key.id}`;
  const value = refusal ? refusal.typed : key.expiresAt ? utcInputValue(key.expiresAt) : "";
  const invalid = refusal?.error.code === "INVALID_REQUEST";
  return (
    <form
      method="post"
      class="inline"
      action={dashboardHref(`/keys/${encodeURIComponent(key.id)}/expiry`, {
        integration: props.integrationId,
      })}
    >
      <CsrfField c={c} />
      <input
        id={id}
        name="expiresAt"
        type="datetime-local"
        step={value.length > 16 ? 1 : undefined}
        autocomplete="off"
        aria-label={fill(t.expiryLabel, { start: key.start })}
        aria-describedby={invalid ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={invalid ? "true" : undefined}
        value={value}
      />
      <button type="submit" class="secondary" aria-label={fill(t.setExpiryLabel, { start: key.start })}>
        {t.setExpiry}
      </button>
      <small id={`${id}-hint`}>{t.expiryHint}</small>
      <FieldError id={`${id}-error`} messages={invalid ? [t.badExpiry] : undefined} />
    </form>
  );
}
