import { type DashboardContext, memberMay } from "../../lib/http/dashboard-frame";
import { ApiError, type Problem } from "../../lib/kernel/errors/api-error";
import type { Language } from "../../lib/kernel/errors/error-body";
import type { EndpointView } from "../../lib/webhooks/endpoints";
import { SUBSCRIBABLE_EVENT_TYPES, type SubscribableEventType } from "../../lib/webhooks/event-types";
import { Card } from "./card";
import { Fact } from "./fact";
import { ErrorNote } from "./feedback";
import { StatusPill, Time } from "./format";
import { CsrfField, dashboardHref } from "./layout";
import { PostButton } from "./post-button";
import { commonText, fill } from "./texts";

const TEXT = {
  es: {
    endpointTitle: "Endpoint",
    noEndpoint: "Esta integración aún no tiene endpoint: no se envía ningún evento.",
    url: "URL",
    eventTypes: "Tipos de evento",
    allTypes: "Todos, incluidos los que se agreguen después",
    state: "Estado",
    enabled: "Habilitado",
    disabled: "Deshabilitado",
    failures: "Intentos fallidos seguidos",
    flaggedAt: "Última entrega agotada",
    secret: "Secreto de firma",
    previousUntil: "El secreto anterior también firma hasta",
    updated: "Actualizado",
    setTitle: "Configurar el endpoint",
    replaceTitle: "Reemplazar el endpoint",
    urlHint:
      "https hacia un nombre de host público. En modo de prueba también se aceptan http://localhost y http://127.0.0.1.",
    typesHint:
      "Marca los tipos que quieres recibir. Si no marcas ninguno, recibirás todos, también los que se agreguen después.",
    save: "Guardar endpoint",
    replaceNote:
      "Guardar reemplaza la URL y los tipos, conserva el secreto de firma, habilita el endpoint y reinicia su cuenta de fallas.",
    sendTest: "Enviar evento de prueba",
    rotate: "Rotar el secreto",
    confirmRotate:
      "¿Rotar el secreto de firma? El nuevo se mostrará una sola vez; el actual seguirá firmando durante 24 horas.",
    delete: "Eliminar el endpoint",
    confirmDelete:
      "¿Eliminar el endpoint? No se enviará nada más y las entregas pendientes fallarán. Configurar uno nuevo crea otro secreto.",
    badType: "(tipo de evento desconocido: {type})",
  },
  en: {
    endpointTitle: "Endpoint",
    noEndpoint: "This integration has no endpoint yet: no event is sent.",
    url: "URL",
    eventTypes: "Event types",
    allTypes: "All, including those added later",
    state: "Status",
    enabled: "Enabled",
    disabled: "Disabled",
    failures: "Consecutive failed attempts",
    flaggedAt: "Last delivery that ran out of attempts",
    secret: "Signing secret",
    previousUntil: "The previous secret also signs until",
    updated: "Updated",
    setTitle: "Set the endpoint",
    replaceTitle: "Replace the endpoint",
    urlHint: "https to a public host name. Test mode also takes http://localhost and http://127.0.0.1.",
    typesHint:
      "Check the types you want to receive. Check none to receive every type, including those added later.",
    save: "Save endpoint",
    replaceNote:
      "Saving replaces the URL and types, keeps the signing secret, enables the endpoint and resets its failure count.",
    sendTest: "Send a test event",
    rotate: "Rotate the secret",
    confirmRotate:
      "Rotate the signing secret? The new one is shown only once; the current one keeps signing for 24 hours.",
    delete: "Delete the endpoint",
    confirmDelete:
      "Delete the endpoint? Nothing more is sent and pending deliveries fail. Setting a new one makes a new secret.",
    badType: "(unknown event type: {type})",
  },
} as const;

type EndpointText = (typeof TEXT)[Language];

/**
 * The chosen integration's webhook endpoint: its facts (the secret masked) and its actions, or that
 * there is none; then the form that sets or replaces it.
 */
export function EndpointPanel(props: {
  c: DashboardContext;
  integrationId: string;
  endpoint: EndpointView | undefined;
}) {
  const language = props.c.get("dashboard").language;
  const t = TEXT[language];
  return (
    <Card id="endpoint-title" title={t.endpointTitle}>
      {props.endpoint ? (
        <>
          <EndpointFacts t={t} endpoint={props.endpoint} language={language} />
          {memberMay(props.c, "webhooks:write") ? (
            <EndpointActions c={props.c} t={t} integrationId={props.integrationId} />
          ) : null}
        </>
      ) : (
        <p>{t.noEndpoint}</p>
      )}
    </Card>
  );
}

function EndpointFacts(props: { t: EndpointText; endpoint: EndpointView; language: Language }) {
  const { t, endpoint } = props;
  const common = commonText(props.language);
  return (
    <dl class="facts">
      <Fact term={t.url} mono>
        {endpoint.url}
      </Fact>
      <Fact term={t.eventTypes}>
        {endpoint.eventTypes === null ? (
          t.allTypes
        ) : (
          <ul>
            {endpoint.eventTypes.map((type) => (
              <li>
                <code>{type}</code>
              </li>
            ))}
          </ul>
        )}
      </Fact>
      <Fact term={t.state}>
        {endpoint.status === "enabled" ? (
          <StatusPill status={t.enabled} tone="good" />
        ) : (
          <>
            <StatusPill status={t.disabled} tone="bad" />
            {endpoint.disabledReason ? ` ${endpoint.disabledReason}` : null}
          </>
        )}
      </Fact>
      <Fact term={t.failures}>{endpoint.consecutiveFailures}</Fact>
      {endpoint.flaggedAt ? (
        <Fact term={t.flaggedAt}>
          <Time at={endpoint.flaggedAt} />
        </Fact>
      ) : null}
      <Fact term={t.secret} mono>
        {endpoint.secret}
      </Fact>
      {endpoint.previousSecretValidUntil ? (
        <Fact term={t.previousUntil}>
          <Time at={endpoint.previousSecretValidUntil} />
        </Fact>
      ) : null}
      <Fact term={common.created}>
        <Time at={endpoint.createdAt} />
      </Fact>
      <Fact term={t.updated}>
        <Time at={endpoint.updatedAt} />
      </Fact>
    </dl>
  );
}

function EndpointActions(props: { c: DashboardContext; t: EndpointText; integrationId: string }) {
  const { c, t } = props;
  const action = (path: string) =>
    dashboardHref(`/webhooks/endpoint/${path}`, { integration: props.integrationId });
  return (
    <div class="actions">
      <PostButton c={c} action={action("test")}>
        {t.sendTest}
      </PostButton>
      <PostButton c={c} action={action("rotate")} confirm={t.confirmRotate} variant="secondary">
        {t.rotate}
      </PostButton>
      <PostButton c={c} action={action("delete")} confirm={t.confirmDelete} variant="danger">
        {t.delete}
      </PostButton>
    </div>
  );
}

/** The endpoint's form: what was typed when it was refused, else the endpoint's own URL and types. */
export function EndpointForm(props: {
  c: DashboardContext;
  integrationId: string;
  endpoint: EndpointView | undefined;
  form: { url: string; eventTypes: string[] } | undefined;
  error: ApiError | undefined;
}) {
  const { c, endpoint } = props;
  const t = TEXT[c.get("dashboard").language];
  const url = props.form?.url ?? endpoint?.url ?? "";
  const checked = new Set(props.form?.eventTypes ?? endpoint?.eventTypes ?? []);
  return (
    <Card id="endpoint-form-title" title={endpoint ? t.replaceTitle : t.setTitle}>
      {endpoint ? <p>{t.replaceNote}</p> : null}
      <ErrorNote c={c} error={props.error} />
      <form method="post" action={dashboardHref("/webhooks/endpoint", { integration: props.integrationId })}>
        <CsrfField c={c} />
        <label for="endpoint-url">{t.url}</label>
        <input
          id="endpoint-url"
          name="url"
          type="url"
          required
          autocomplete="url"
          inputmode="url"
          aria-describedby="endpoint-url-hint"
          aria-invalid={props.error?.code === "INVALID_WEBHOOK_URL" ? "true" : undefined}
          value={url}
        />
        <p id="endpoint-url-hint">{t.urlHint}</p>
        <fieldset aria-describedby="event-types-hint">
          <legend>{t.eventTypes}</legend>
          <p id="event-types-hint">{t.typesHint}</p>
          {SUBSCRIBABLE_EVENT_TYPES.map((type) => (
            <label class="check">
              <input type="checkbox" name="eventTypes" value={type} checked={checked.has(type)} />
              <code>{type}</code>
            </label>
          ))}
        </fieldset>
        <div class="actions">
          <button type="submit">{t.save}</button>
        </div>
      </form>
    </Card>
  );
}

/** The checked event types, each one of the catalog's subscribable types (INVALID_REQUEST otherwise). */
export function subscribableTypes(typed: string[]): SubscribableEventType[] {
  const known = new Set<string>(SUBSCRIBABLE_EVENT_TYPES);
  const unknown = typed.filter((type) => !known.has(type));
  if (unknown.length > 0) {
    const type = unknown.join(", ");
    throw new ApiError("INVALID_REQUEST", {
      detail: { es: fill(TEXT.es.badType, { type }), en: fill(TEXT.en.badType, { type }) },
      problems: unknown.map(
        (value): Problem => ({
          field: "eventTypes",
          code: "INVALID_REQUEST",
          problem: fill(TEXT.en.badType, { type: value }),
        }),
      ),
    });
  }
  return [...new Set(typed)] as SubscribableEventType[];
}
