import type { OpenAPIHono } from "@hono/zod-openapi";
import { DASHBOARD_PATH, type DashboardContext, formField } from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import { ApiError } from "../../lib/kernel/errors/api-error";
import { ERRORS } from "../../lib/kernel/errors/registry";
import { hasPrefix } from "../../lib/kernel/ids";
import {
  issueMemberApiKey,
  KEYS_DEFAULT_LIMIT,
  listApiKeys,
  revokeApiKey,
} from "../../lib/tenancy/integrations";
import type { ApiKeyRecord, IssuedKey } from "../../lib/tenancy/organizations";
import { Card } from "./card";
import { DataTable } from "./data-table";
import { DoneNote, ErrorNote } from "./feedback";
import { StatusPill, Time } from "./format";
import { type IntegrationScope, integrationScope } from "./integration";
import { CsrfField, dashboardHref, renderPage } from "./layout";
import { Pager } from "./listing";
import { notFoundPage } from "./not-found";
import { PostButton } from "./post-button";
import { SecretOnce } from "./secret-once";
import { commonText, fill } from "./texts";

const KEYS_PATH = `${DASHBOARD_PATH}/keys`;
/** As the admin API takes it (functions/tenancy/admin-create-api-key.ts). */
const NAME_MAX_LENGTH = 200;

const TEXT = {
  es: {
    title: "Llaves de API",
    intro:
      "Cada llave autentica las llamadas de esta integración a la API (Authorization: Bearer). Para rotar una llave, emite una nueva, pasa tu sistema a ella y revoca la anterior.",
    issueTitle: "Emitir una llave",
    name: "Nombre (opcional)",
    nameHint: "Para reconocerla en la lista, p. ej. «servidor de producción». Hasta 200 caracteres.",
    issue: "Emitir llave",
    issuedTitle: "Tu nueva llave de API",
    issuedWarning:
      "Cópiala y guárdala ahora en un lugar seguro: no se volverá a mostrar. Si la pierdes, emite otra y revoca esta.",
    listTitle: "Llaves de esta integración",
    keyName: "Nombre",
    start: "Comienzo de la llave",
    lastUsed: "Último uso",
    state: "Estado",
    action: "Acción",
    unnamed: "(sin nombre)",
    never: "Nunca",
    active: "Activa",
    revoked: "Revocada",
    revoke: "Revocar",
    revokeLabel: "Revocar la llave {start}…",
    confirmRevoke:
      "¿Revocar la llave {start}…? Es inmediato y definitivo: la siguiente llamada con ella recibirá 401.",
    none: "Esta integración no tiene llaves.",
    doneRevoked: "La llave quedó revocada: la API ya la rechaza con 401.",
    nameTooLong: "(el nombre tiene más de 200 caracteres)",
    lastUsedNote: "El último uso se registra con una precisión de un minuto.",
  },
  en: {
    title: "API keys",
    intro:
      "Each key authenticates this integration's calls to the API (Authorization: Bearer). To rotate a key, issue a new one, move your system to it, then revoke the old one.",
    issueTitle: "Issue a key",
    name: "Name (optional)",
    nameHint: "To recognise it in the list, e.g. “production server”. Up to 200 characters.",
    issue: "Issue key",
    issuedTitle: "Your new API key",
    issuedWarning:
      "Copy it and store it somewhere safe now: it will not be shown again. If you lose it, issue another and revoke this one.",
    listTitle: "This integration's keys",
    keyName: "Name",
    start: "Key start",
    lastUsed: "Last used",
    state: "Status",
    action: "Action",
    unnamed: "(no name)",
    never: "Never",
    active: "Active",
    revoked: "Revoked",
    revoke: "Revoke",
    revokeLabel: "Revoke key {start}…",
    confirmRevoke: "Revoke key {start}…? It is immediate and final: the next call with it gets 401.",
    none: "This integration has no keys.",
    doneRevoked: "The key is revoked: the API now refuses it with 401.",
    nameTooLong: "(the name is longer than 200 characters)",
    lastUsedNote: "Last use is recorded to about a minute.",
  },
} as const;

type KeysText = (typeof TEXT)[keyof typeof TEXT];

/**
 * The API keys of the chosen integration: GET lists them, POST issues one (its secret is in that
 * answer only, never in a URL, a redirect or a log), POST …/{keyId}/revoke revokes one. The same
 * verbs as the admin API (lib/tenancy/integrations.ts), scoped to the member's organization.
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
    const typed = (await formField(c, "name")).trim();
    try {
      if (typed.length > NAME_MAX_LENGTH) {
        throw new ApiError("INVALID_REQUEST", {
          detail: { es: TEXT.es.nameTooLong, en: TEXT.en.nameTooLong },
          problems: [{ field: "name", code: "INVALID_REQUEST", problem: TEXT.en.nameTooLong }],
        });
      }
      const issued = await issueMemberApiKey(
        c.get("services"),
        scope.current.id,
        typed ? { name: typed } : {},
      );
      return keysPage(c, scope, { issued });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      c.status(ERRORS[error.code].status);
      const wait = error.options.retryAfterSeconds;
      if (wait !== undefined) c.header("Retry-After", String(Math.max(1, Math.ceil(wait))));
      return keysPage(c, scope, { error, name: typed });
    }
  });

  // A revoke URL opened rather than posted (the integration chooser of a page it answered) shows the list.
  app.get(`${KEYS_PATH}/:keyId/revoke`, (c) =>
    c.redirect(dashboardHref("/keys", { integration: c.req.query("integration") }), 303),
  );

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
  props: { issued?: IssuedKey; error?: ApiError; name?: string; done?: string | undefined },
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
  return renderPage(c, {
    title: t.title,
    section: "keys",
    integrations: { all, current },
    children: current ? (
      <>
        <DoneNote text={props.done === "revoked" ? t.doneRevoked : undefined} />
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
        <Card id="issue-title" title={t.issueTitle}>
          <ErrorNote c={c} error={props.error} />
          <form method="post" action={dashboardHref("/keys", { integration: current.id })}>
            <CsrfField c={c} />
            <label for="key-name">{t.name}</label>
            <input
              id="key-name"
              name="name"
              type="text"
              maxlength={NAME_MAX_LENGTH}
              autocomplete="off"
              aria-describedby="key-name-hint"
              value={props.name ?? ""}
            />
            <p id="key-name-hint">{t.nameHint}</p>
            <div class="actions">
              <button type="submit">{t.issue}</button>
            </div>
          </form>
        </Card>
        <h2 id="keys-title">{t.listTitle}</h2>
        {keys.length === 0 ? (
          <p>{t.none}</p>
        ) : (
          <KeyTable c={c} t={t} keys={keys} integrationId={current.id} />
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

function KeyTable(props: { c: DashboardContext; t: KeysText; keys: ApiKeyRecord[]; integrationId: string }) {
  const { c, t } = props;
  const common = commonText(c.get("dashboard").language);
  return (
    <DataTable
      labelledBy="keys-title"
      rows={props.keys}
      rowAttributes={(key) => ({ "data-key-id": key.id })}
      columns={[
        { head: t.keyName, kind: "name", cell: (key) => key.name ?? t.unnamed },
        { head: t.start, kind: "mono", cell: (key) => `${key.start}…` },
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
            ) : (
              <StatusPill status={t.active} tone="good" />
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
