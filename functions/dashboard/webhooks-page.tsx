import { DASHBOARD_PATH, type DashboardContext, memberMay } from "../../lib/http/dashboard-frame";
import { ApiError } from "../../lib/kernel/errors/api-error";
import type { Language } from "../../lib/kernel/errors/error-body";
import {
  type EndpointView,
  integrationScope as endpointScopeOf,
  getEndpoint,
} from "../../lib/webhooks/endpoints";
import { DoneNote, ErrorNote } from "./feedback";
import { Time } from "./format";
import type { IntegrationScope } from "./integration";
import { dashboardHref, renderPage } from "./layout";
import { SecretOnce } from "./secret-once";
import {
  type DeliveriesPage,
  type DeliveriesQuery,
  DeliveriesSection,
  deliveriesPage,
} from "./webhooks-deliveries";
import { EndpointForm, EndpointPanel } from "./webhooks-endpoint";

export const WEBHOOKS_PATH = `${DASHBOARD_PATH}/webhooks`;

const TEXT = {
  es: {
    title: "Webhooks",
    intro:
      "El servicio envía a tu endpoint cada evento de esta integración, firmado según Standard Webhooks con el secreto de firma del endpoint.",
    createdSecretTitle: "Secreto de firma de tu nuevo endpoint",
    rotatedSecretTitle: "Tu nuevo secreto de firma",
    secretWarning: "Cópialo y guárdalo ahora en un lugar seguro: no se volverá a mostrar.",
    rotatedOverlap:
      "El secreto anterior sigue firmando cada entrega, junto al nuevo, durante 24 horas (hasta la hora indicada abajo): cambia tu receptor al nuevo antes.",
    overlapUntil: "El secreto anterior firma hasta:",
    doneSaved: "Endpoint guardado: habilitado y con la cuenta de fallas en cero. El secreto no cambió.",
    doneDeleted: "Endpoint eliminado: no se enviará nada más.",
    doneTest:
      "Evento de prueba en cola. Aparecerá como entregado cuando el receptor lo acepte; recarga la página para verlo.",
    doneReplayed: "Reenvío en cola: es una entrega nueva con el mismo webhook-id.",
  },
  en: {
    title: "Webhooks",
    intro:
      "The service sends every event of this integration to your endpoint, signed per Standard Webhooks with the endpoint's signing secret.",
    createdSecretTitle: "Your new endpoint's signing secret",
    rotatedSecretTitle: "Your new signing secret",
    secretWarning: "Copy it and store it somewhere safe now: it will not be shown again.",
    rotatedOverlap:
      "The previous secret keeps signing every delivery, beside the new one, for 24 hours (until the time below): move your receiver to the new one before then.",
    overlapUntil: "The previous secret signs until:",
    doneSaved: "Endpoint saved: enabled, its failure count at zero. The secret did not change.",
    doneDeleted: "Endpoint deleted: nothing more is sent.",
    doneTest:
      "Test event queued. It shows as delivered once the receiver accepts it; reload the page to see it.",
    doneReplayed: "Replay queued: a new delivery with the same webhook-id.",
  },
} as const;

type WebhooksText = (typeof TEXT)[Language];

const DONE_FLAGS = {
  saved: "doneSaved",
  deleted: "doneDeleted",
  test: "doneTest",
  replayed: "doneReplayed",
} as const satisfies Record<string, keyof WebhooksText>;

/** What an action that redirects did, as the `done` flag of the page it redirects to. */
export type WebhooksDone = keyof typeof DONE_FLAGS;

export interface ShownSecret {
  value: string;
  kind: "created" | "rotated";
  previousUntil?: string | null;
}

export interface WebhooksPageProps {
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

/** The webhooks page of the chosen integration, with `done`, or after a refusal. */
export function webhooksHref(integrationId: string | undefined, done?: WebhooksDone): string {
  return dashboardHref("/webhooks", { integration: integrationId, done });
}

/**
 * The webhooks page: what an action did or why it was refused, a new secret shown once, the
 * endpoint and its form, and the organization's deliveries.
 */
export async function webhooksPage(c: DashboardContext, scope: IntegrationScope, props: WebhooksPageProps) {
  const language = c.get("dashboard").language;
  const t = TEXT[language];
  const { all, current } = scope;
  const services = c.get("services");
  const query = props.query === undefined ? {} : props.query;
  let endpoint: EndpointView | undefined;
  let deliveries: DeliveriesPage | undefined;
  if (current) {
    try {
      endpoint = await getEndpoint(services, await endpointScopeOf(services, current.id));
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "WEBHOOK_ENDPOINT_NOT_FOUND")) throw error;
    }
    if (query) deliveries = await deliveriesPage(services, current.organizationId, query);
  }
  const doneKey = props.done && props.done in DONE_FLAGS ? DONE_FLAGS[props.done as WebhooksDone] : undefined;
  return renderPage(c, {
    title: t.title,
    section: "webhooks",
    integrations: { all, current },
    children: current ? (
      <>
        <DoneNote text={doneKey ? t[doneKey] : undefined} />
        <ErrorNote c={c} error={props.actionError} />
        {props.secret ? <NewSigningSecret t={t} secret={props.secret} /> : null}
        <p>{t.intro}</p>
        <EndpointPanel c={c} integrationId={current.id} endpoint={endpoint} />
        {/* A viewer reads the endpoint and its deliveries; changing them is webhooks:write. */}
        {memberMay(c, "webhooks:write") ? (
          <EndpointForm
            c={c}
            integrationId={current.id}
            endpoint={endpoint}
            form={props.form}
            error={props.formError}
          />
        ) : null}
        <DeliveriesSection c={c} integrationId={current.id} query={query} page={deliveries} />
      </>
    ) : null,
  });
}

/** A new signing secret, shown once; after a rotation, how long the previous one keeps signing beside it. */
function NewSigningSecret(props: { t: WebhooksText; secret: ShownSecret }) {
  const { t, secret } = props;
  return (
    <SecretOnce
      titleId="secret-title"
      valueId="signing-secret"
      title={secret.kind === "created" ? t.createdSecretTitle : t.rotatedSecretTitle}
      warning={t.secretWarning}
      value={secret.value}
    >
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
    </SecretOnce>
  );
}
