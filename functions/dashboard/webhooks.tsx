import type { OpenAPIHono } from "@hono/zod-openapi";
import { ApiError, type Problem } from "../../lib/errors/api-error";
import type { Language } from "../../lib/errors/error-body";
import { ERRORS } from "../../lib/errors/registry";
import type { AppEnv } from "../../lib/http/env";
import { hasPrefix } from "../../lib/ids";
import type { DeliveryView } from "../../lib/webhooks/delivery-view";
import {
  deleteEndpoint,
  type EndpointScope,
  type EndpointView,
  integrationScope as endpointScopeOf,
  getEndpoint,
  putEndpoint,
  rotateSecret,
  sendTestEvent,
} from "../../lib/webhooks/endpoints";
import { SUBSCRIBABLE_EVENT_TYPES, type SubscribableEventType } from "../../lib/webhooks/event-types";
import { DELIVERY_STATUSES, listDeliveries } from "../../lib/webhooks/list-deliveries";
import { replayEvent } from "../../lib/webhooks/replay";
import { ErrorNote } from "./feedback";
import { StatusPill, Time } from "./format";
import { type IntegrationScope, integrationScope } from "./integration";
import { CsrfField, dashboardHref, renderPage } from "./layout";
import { notFoundPage } from "./not-found";
import { DASHBOARD_PATH, type DashboardContext, formField } from "./request";
import { commonText, fill } from "./texts";

const WEBHOOKS_PATH = `${DASHBOARD_PATH}/webhooks`;
/** Deliveries per page of the table. */
const PAGE_SIZE = 20;

const TEXT = {
  es: {
    title: "Webhooks",
    intro:
      "El servicio envía a tu endpoint cada evento de esta integración, firmado según Standard Webhooks con el secreto de firma del endpoint.",
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
    actionsTitle: "Acciones",
    sendTest: "Enviar evento de prueba",
    rotate: "Rotar el secreto",
    confirmRotate:
      "¿Rotar el secreto de firma? El nuevo se mostrará una sola vez; el actual seguirá firmando durante 24 horas.",
    delete: "Eliminar el endpoint",
    confirmDelete:
      "¿Eliminar el endpoint? No se enviará nada más y las entregas pendientes fallarán. Configurar uno nuevo crea otro secreto.",
    createdSecretTitle: "Secreto de firma de tu nuevo endpoint",
    rotatedSecretTitle: "Tu nuevo secreto de firma",
    secretWarning: "Cópialo y guárdalo ahora en un lugar seguro: no se volverá a mostrar.",
    rotatedOverlap:
      "El secreto anterior sigue firmando cada entrega, junto al nuevo, durante 24 horas (hasta la hora indicada abajo): cambia tu receptor al nuevo antes.",
    overlapUntil: "El secreto anterior firma hasta:",
    deliveriesTitle: "Entregas",
    deliveriesIntro:
      "Las entregas de todas las integraciones de la organización, de la más antigua a la más reciente, como las lista GET /api/integrations/webhooks/deliveries.",
    deliveriesCaption: "Entregas de webhooks",
    event: "Evento",
    trigger: "Origen",
    attempts: "Intentos",
    lastCode: "Último código",
    deliveredOrNext: "Entregada / próximo intento",
    action: "Acción",
    replay: "Reenviar",
    replayLabel: "Reenviar el evento {eventId}",
    noDeliveries: "No hay entregas con este filtro.",
    triggers: { event: "evento", replay: "reenvío", test: "prueba" },
    next: "Siguiente página",
    doneSaved: "Endpoint guardado: habilitado y con la cuenta de fallas en cero. El secreto no cambió.",
    doneDeleted: "Endpoint eliminado: no se enviará nada más.",
    doneTest:
      "Evento de prueba en cola. Aparecerá como entregado cuando el receptor lo acepte; recarga la página para verlo.",
    doneReplayed: "Reenvío en cola: es una entrega nueva con el mismo webhook-id.",
    badType: "(tipo de evento desconocido: {type})",
    badStatus: "(el estado debe ser pending, delivered o failed)",
    badCursor: "(el cursor no es el de una página de entregas)",
  },
  en: {
    title: "Webhooks",
    intro:
      "The service sends every event of this integration to your endpoint, signed per Standard Webhooks with the endpoint's signing secret.",
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
    actionsTitle: "Actions",
    sendTest: "Send a test event",
    rotate: "Rotate the secret",
    confirmRotate:
      "Rotate the signing secret? The new one is shown only once; the current one keeps signing for 24 hours.",
    delete: "Delete the endpoint",
    confirmDelete:
      "Delete the endpoint? Nothing more is sent and pending deliveries fail. Setting a new one makes a new secret.",
    createdSecretTitle: "Your new endpoint's signing secret",
    rotatedSecretTitle: "Your new signing secret",
    secretWarning: "Copy it and store it somewhere safe now: it will not be shown again.",
    rotatedOverlap:
      "The previous secret keeps signing every delivery, beside the new one, for 24 hours (until the time below): move your receiver to the new one before then.",
    overlapUntil: "The previous secret signs until:",
    deliveriesTitle: "Deliveries",
    deliveriesIntro:
      "Deliveries of every integration of the organization, oldest first, as GET /api/integrations/webhooks/deliveries lists them.",
    deliveriesCaption: "Webhook deliveries",
    event: "Event",
    trigger: "Trigger",
    attempts: "Attempts",
    lastCode: "Last status code",
    deliveredOrNext: "Delivered / next attempt",
    action: "Action",
    replay: "Replay",
    replayLabel: "Replay event {eventId}",
    noDeliveries: "No deliveries match this filter.",
    triggers: { event: "event", replay: "replay", test: "test" },
    next: "Next page",
    doneSaved: "Endpoint saved: enabled, its failure count at zero. The secret did not change.",
    doneDeleted: "Endpoint deleted: nothing more is sent.",
    doneTest:
      "Test event queued. It shows as delivered once the receiver accepts it; reload the page to see it.",
    doneReplayed: "Replay queued: a new delivery with the same webhook-id.",
    badType: "(unknown event type: {type})",
    badStatus: "(status must be pending, delivered or failed)",
    badCursor: "(the cursor is not one of a deliveries page)",
  },
} as const;

type WebhooksText = (typeof TEXT)[Language];
type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const DONE_FLAGS = {
  saved: "doneSaved",
  deleted: "doneDeleted",
  test: "doneTest",
  replayed: "doneReplayed",
} as const satisfies Record<string, keyof WebhooksText>;

interface DeliveriesQuery {
  status?: DeliveryStatus;
  cursor?: string;
}

interface ShownSecret {
  value: string;
  kind: "created" | "rotated";
  previousUntil?: string | null;
}

interface PageProps {
  secret?: ShownSecret;
  /** A refusal of the endpoint form: shown in the form, with what was typed. */
  formError?: ApiError;
  form?: { url: string; eventTypes: string[] };
  /** A refusal of any other action: shown at the top. */
  actionError?: ApiError;
  done?: string | undefined;
  /** The deliveries table's filter and cursor; null when they were refused (no table). */
  query?: DeliveriesQuery | null;
}

/**
 * The chosen integration's webhook endpoint and the organization's deliveries. Every action calls
 * the same verb as the partner API's webhook routes (functions/webhooks/*.ts): PUT semantics for the
 * endpoint, rotation, deletion, a test event, a replay. Secrets are shown in the answer that made
 * them and never again; everything else answers 303 to the page (Post/Redirect/Get).
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(WEBHOOKS_PATH, async (c) => {
    const scope = await integrationScope(c);
    if (!scope) return notFoundPage(c, { section: "webhooks", back: WEBHOOKS_PATH });
    const query = deliveriesQuery(c);
    if (query instanceof ApiError) {
      c.status(ERRORS[query.code].status);
      return webhooksPage(c, scope, { actionError: query, query: null });
    }
    return webhooksPage(c, scope, { done: c.req.query("done"), query });
  });

  // An action's URL opened rather than posted (e.g. the integration chooser of a page an action
  // answered) shows the page.
  for (const path of ["/endpoint", "/endpoint/rotate", "/endpoint/delete", "/endpoint/test"]) {
    app.get(`${WEBHOOKS_PATH}${path}`, (c) => c.redirect(pageHref(c.req.query("integration")), 303));
  }
  app.get(`${WEBHOOKS_PATH}/events/:eventId/replay`, (c) =>
    c.redirect(pageHref(c.req.query("integration")), 303),
  );

  app.post(`${WEBHOOKS_PATH}/endpoint`, async (c) => {
    const scope = await integrationScope(c);
    if (!scope?.current) return notFoundPage(c, { section: "webhooks", back: WEBHOOKS_PATH });
    const url = await formField(c, "url");
    const checked = (await c.req.parseBody({ all: true })).eventTypes;
    const typed = (Array.isArray(checked) ? checked : checked === undefined ? [] : [checked]).map((value) =>
      typeof value === "string" ? value : "",
    );
    try {
      const eventTypes = subscribableTypes(typed);
      const result = await putEndpoint(
        c.get("services"),
        await endpointScopeOf(c.get("services"), scope.current.id),
        {
          url,
          ...(eventTypes.length > 0 ? { eventTypes } : {}),
        },
      );
      if (result.secret === undefined) return c.redirect(pageHref(scope.current.id, "saved"), 303);
      return webhooksPage(c, scope, { secret: { value: result.secret, kind: "created" } });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      c.status(ERRORS[error.code].status);
      return webhooksPage(c, scope, { formError: error, form: { url, eventTypes: typed } });
    }
  });

  app.post(`${WEBHOOKS_PATH}/endpoint/rotate`, (c) =>
    act(c, async (scope) => {
      const rotated = await rotateSecret(c.get("services"), scope);
      return {
        secret: {
          value: rotated.secret,
          kind: "rotated",
          previousUntil: rotated.endpoint.previousSecretValidUntil,
        },
      };
    }),
  );

  app.post(`${WEBHOOKS_PATH}/endpoint/delete`, (c) =>
    act(c, async (scope) => {
      await deleteEndpoint(c.get("services"), scope);
      return { done: "deleted" };
    }),
  );

  app.post(`${WEBHOOKS_PATH}/endpoint/test`, (c) =>
    act(c, async (scope) => {
      await sendTestEvent(c.get("services"), scope);
      return { done: "test" };
    }),
  );

  app.post(`${WEBHOOKS_PATH}/events/:eventId/replay`, async (c) => {
    const scope = await integrationScope(c);
    if (!scope?.partner || !scope.current)
      return notFoundPage(c, { section: "webhooks", back: WEBHOOKS_PATH });
    try {
      await replayEvent(scope.partner, c.req.param("eventId"));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === "EVENT_NOT_FOUND") {
        return notFoundPage(c, { section: "webhooks", back: pageHref(scope.current.id) });
      }
      c.status(ERRORS[error.code].status);
      return webhooksPage(c, scope, { actionError: error });
    }
    return c.redirect(pageHref(scope.current.id, "replayed"), 303);
  });
}

/**
 * An endpoint action: the endpoint scope of the chosen integration, one verb, then either the page
 * showing a new secret or a redirect to the page with its `done` flag. A refusal re-renders the page
 * with the error and its status, having changed nothing.
 */
async function act(
  c: DashboardContext,
  verb: (scope: EndpointScope) => Promise<{ secret: ShownSecret } | { done: keyof typeof DONE_FLAGS }>,
): Promise<Response> {
  const scope = await integrationScope(c);
  if (!scope?.current) return notFoundPage(c, { section: "webhooks", back: WEBHOOKS_PATH });
  try {
    const outcome = await verb(await endpointScopeOf(c.get("services"), scope.current.id));
    if ("secret" in outcome) return webhooksPage(c, scope, { secret: outcome.secret });
    return c.redirect(pageHref(scope.current.id, outcome.done), 303);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    c.status(ERRORS[error.code].status);
    return webhooksPage(c, scope, { actionError: error });
  }
}

function pageHref(integrationId: string | undefined, done?: keyof typeof DONE_FLAGS): string {
  return dashboardHref("/webhooks", { integration: integrationId, done });
}

/** The checked event types, each one of the catalog's subscribable types (INVALID_REQUEST otherwise). */
function subscribableTypes(typed: string[]): SubscribableEventType[] {
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

/** The deliveries table's filter and cursor from the query, as the API's listing takes them. */
function deliveriesQuery(c: DashboardContext): DeliveriesQuery | ApiError {
  const status = c.req.query("status") || undefined;
  const cursor = c.req.query("cursor") || undefined;
  const problems: Problem[] = [];
  const details: Array<{ es: string; en: string }> = [];
  if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status)) {
    problems.push({ field: "query.status", code: "INVALID_REQUEST", problem: TEXT.en.badStatus });
    details.push({ es: TEXT.es.badStatus, en: TEXT.en.badStatus });
  }
  if (cursor !== undefined && !hasPrefix(cursor, "dlv")) {
    problems.push({ field: "query.cursor", code: "INVALID_REQUEST", problem: TEXT.en.badCursor });
    details.push({ es: TEXT.es.badCursor, en: TEXT.en.badCursor });
  }
  if (problems.length > 0) {
    return new ApiError("INVALID_REQUEST", {
      detail: {
        es: details.map((d) => d.es).join(" "),
        en: details.map((d) => d.en).join(" "),
      },
      problems,
    });
  }
  return {
    ...(status ? { status: status as DeliveryStatus } : {}),
    ...(cursor ? { cursor } : {}),
  };
}

async function webhooksPage(c: DashboardContext, scope: IntegrationScope, props: PageProps) {
  const language = c.get("dashboard").language;
  const t = TEXT[language];
  const { all, current } = scope;
  const services = c.get("services");
  const query = props.query === undefined ? {} : props.query;
  let endpoint: EndpointView | undefined;
  let deliveries: { deliveries: DeliveryView[]; nextCursor: string | null } | undefined;
  if (current) {
    try {
      endpoint = await getEndpoint(services, await endpointScopeOf(services, current.id));
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "WEBHOOK_ENDPOINT_NOT_FOUND")) throw error;
    }
    if (query) {
      deliveries = await listDeliveries(services, {
        organizationId: current.organizationId,
        limit: PAGE_SIZE,
        ...query,
      });
    }
  }
  const doneKey =
    props.done && props.done in DONE_FLAGS ? DONE_FLAGS[props.done as keyof typeof DONE_FLAGS] : undefined;
  return renderPage(c, {
    title: t.title,
    section: "webhooks",
    integrations: { all, current },
    children: current ? (
      <>
        {doneKey ? (
          <p class="note" role="status">
            {t[doneKey]}
          </p>
        ) : null}
        <ErrorNote c={c} error={props.actionError} />
        {props.secret ? <SecretShownOnce t={t} secret={props.secret} /> : null}
        <p>{t.intro}</p>
        <section class="card" aria-labelledby="endpoint-title">
          <h2 id="endpoint-title">{t.endpointTitle}</h2>
          {endpoint ? <EndpointFacts t={t} endpoint={endpoint} language={language} /> : <p>{t.noEndpoint}</p>}
          {endpoint ? <EndpointActions c={c} t={t} integrationId={current.id} /> : null}
        </section>
        <EndpointForm
          c={c}
          t={t}
          integrationId={current.id}
          endpoint={endpoint}
          form={props.form}
          error={props.formError}
        />
        <section aria-labelledby="deliveries-title" id="deliveries">
          <h2 id="deliveries-title">{t.deliveriesTitle}</h2>
          <p>{t.deliveriesIntro}</p>
          <DeliveryFilter c={c} t={t} integrationId={current.id} status={query?.status} />
          {deliveries ? (
            <DeliveryTable c={c} t={t} integrationId={current.id} page={deliveries} query={query ?? {}} />
          ) : null}
        </section>
      </>
    ) : null,
  });
}

function SecretShownOnce(props: { t: WebhooksText; secret: ShownSecret }) {
  const { t, secret } = props;
  return (
    <section class="secret" aria-labelledby="secret-title">
      <h2 id="secret-title">{secret.kind === "created" ? t.createdSecretTitle : t.rotatedSecretTitle}</h2>
      <p>
        <strong>{t.secretWarning}</strong>
      </p>
      <code id="signing-secret">{secret.value}</code>
      <div class="actions" data-copy-target="signing-secret" />
      {secret.kind === "rotated" ? (
        <>
          <p>{t.rotatedOverlap}</p>
          {secret.previousUntil ? (
            <p>
              {t.overlapUntil} <Time at={secret.previousUntil} />
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function EndpointFacts(props: { t: WebhooksText; endpoint: EndpointView; language: Language }) {
  const { t, endpoint } = props;
  const common = commonText(props.language);
  return (
    <dl class="facts">
      <dt>{t.url}</dt>
      <dd class="mono">{endpoint.url}</dd>
      <dt>{t.eventTypes}</dt>
      <dd>
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
      </dd>
      <dt>{t.state}</dt>
      <dd>
        {endpoint.status === "enabled" ? (
          <StatusPill status={t.enabled} tone="good" />
        ) : (
          <>
            <StatusPill status={t.disabled} tone="bad" />
            {endpoint.disabledReason ? ` ${endpoint.disabledReason}` : null}
          </>
        )}
      </dd>
      <dt>{t.failures}</dt>
      <dd>{endpoint.consecutiveFailures}</dd>
      {endpoint.flaggedAt ? (
        <>
          <dt>{t.flaggedAt}</dt>
          <dd>
            <Time at={endpoint.flaggedAt} />
          </dd>
        </>
      ) : null}
      <dt>{t.secret}</dt>
      <dd class="mono">{endpoint.secret}</dd>
      {endpoint.previousSecretValidUntil ? (
        <>
          <dt>{t.previousUntil}</dt>
          <dd>
            <Time at={endpoint.previousSecretValidUntil} />
          </dd>
        </>
      ) : null}
      <dt>{common.created}</dt>
      <dd>
        <Time at={endpoint.createdAt} />
      </dd>
      <dt>{t.updated}</dt>
      <dd>
        <Time at={endpoint.updatedAt} />
      </dd>
    </dl>
  );
}

function EndpointActions(props: { c: DashboardContext; t: WebhooksText; integrationId: string }) {
  const { c, t } = props;
  const action = (path: string) =>
    dashboardHref(`/webhooks/endpoint/${path}`, { integration: props.integrationId });
  return (
    <div class="actions">
      <form method="post" action={action("test")}>
        <CsrfField c={c} />
        <button type="submit">{t.sendTest}</button>
      </form>
      <form method="post" action={action("rotate")} data-confirm={t.confirmRotate}>
        <CsrfField c={c} />
        <button type="submit" class="secondary">
          {t.rotate}
        </button>
      </form>
      <form method="post" action={action("delete")} data-confirm={t.confirmDelete}>
        <CsrfField c={c} />
        <button type="submit" class="danger">
          {t.delete}
        </button>
      </form>
    </div>
  );
}

function EndpointForm(props: {
  c: DashboardContext;
  t: WebhooksText;
  integrationId: string;
  endpoint: EndpointView | undefined;
  form: { url: string; eventTypes: string[] } | undefined;
  error: ApiError | undefined;
}) {
  const { c, t, endpoint } = props;
  const url = props.form?.url ?? endpoint?.url ?? "";
  const checked = new Set(props.form?.eventTypes ?? endpoint?.eventTypes ?? []);
  return (
    <section class="card" aria-labelledby="endpoint-form-title">
      <h2 id="endpoint-form-title">{endpoint ? t.replaceTitle : t.setTitle}</h2>
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
    </section>
  );
}

function DeliveryFilter(props: {
  c: DashboardContext;
  t: WebhooksText;
  integrationId: string;
  status: DeliveryStatus | undefined;
}) {
  const common = commonText(props.c.get("dashboard").language);
  return (
    <form method="get" action={WEBHOOKS_PATH} class="filters">
      <input type="hidden" name="integration" value={props.integrationId} />
      <div>
        <label for="delivery-status">{common.status}</label>
        <select id="delivery-status" name="status">
          <option value="" selected={props.status === undefined}>
            {common.all}
          </option>
          {DELIVERY_STATUSES.map((status) => (
            <option value={status} selected={props.status === status}>
              {status}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" class="secondary">
        {common.filter}
      </button>
    </form>
  );
}

function DeliveryTable(props: {
  c: DashboardContext;
  t: WebhooksText;
  integrationId: string;
  page: { deliveries: DeliveryView[]; nextCursor: string | null };
  query: DeliveriesQuery;
}) {
  const { c, t, page, query } = props;
  const common = commonText(c.get("dashboard").language);
  const here = (cursor?: string) =>
    `${dashboardHref("/webhooks", { integration: props.integrationId, status: query.status, cursor })}#deliveries`;
  return (
    <>
      {page.deliveries.length === 0 ? (
        <p>{t.noDeliveries}</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption>{t.deliveriesCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{common.created}</th>
                <th scope="col">{t.event}</th>
                <th scope="col">{t.trigger}</th>
                <th scope="col">{common.status}</th>
                <th scope="col" class="num">
                  {t.attempts}
                </th>
                <th scope="col" class="num">
                  {t.lastCode}
                </th>
                <th scope="col">{t.deliveredOrNext}</th>
                <th scope="col">{t.action}</th>
              </tr>
            </thead>
            <tbody>
              {page.deliveries.map((delivery) => {
                const last = delivery.attemptLog.at(-1);
                return (
                  <tr data-delivery-id={delivery.id} data-status={delivery.status}>
                    <td>
                      <Time at={delivery.createdAt} />
                    </td>
                    <td>
                      <code>{delivery.eventType}</code>
                      <br />
                      <span class="mono">{delivery.eventId}</span>
                    </td>
                    <td>{t.triggers[delivery.trigger]}</td>
                    <td>
                      <StatusPill status={delivery.status} />
                      {delivery.failedReason ? <p>{delivery.failedReason}</p> : null}
                    </td>
                    <td class="num">{delivery.attempts}</td>
                    <td class="num">{last ? (last.statusCode ?? last.error ?? "—") : "—"}</td>
                    <td>
                      {delivery.deliveredAt ? (
                        <Time at={delivery.deliveredAt} />
                      ) : (
                        <Time at={delivery.nextAttemptAt} />
                      )}
                    </td>
                    <td>
                      <form
                        method="post"
                        action={dashboardHref(
                          `/webhooks/events/${encodeURIComponent(delivery.eventId)}/replay`,
                          {
                            integration: props.integrationId,
                          },
                        )}
                      >
                        <CsrfField c={c} />
                        <button
                          type="submit"
                          class="secondary"
                          aria-label={fill(t.replayLabel, { eventId: delivery.eventId })}
                        >
                          {t.replay}
                        </button>
                      </form>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {query.cursor || page.nextCursor ? (
        <nav class="pager" aria-label={t.deliveriesTitle}>
          {query.cursor ? <a href={here()}>{common.first}</a> : null}
          {page.nextCursor ? (
            <a href={here(page.nextCursor)} rel="next">
              {t.next}
            </a>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
