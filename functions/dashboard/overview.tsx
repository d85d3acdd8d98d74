import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  type IntegrationOverview,
  organizationOverview,
  type RecentEvent,
} from "../../lib/dashboard/overview";
import { DASHBOARD_PATH, member } from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import type { Language } from "../../lib/kernel/errors/error-body";
import { Card } from "./card";
import { DataTable } from "./data-table";
import { StatusPill, Time } from "./format";
import { dashboardHref, renderPage } from "./layout";
import { commonText } from "./texts";

const TEXT = {
  es: {
    title: "Resumen",
    integrations: "Integraciones",
    activeKeys: "Llaves activas",
    orders: "Órdenes",
    payouts: "Pagos",
    swaps: "Swaps confirmados",
    webhook: "Webhook",
    noWebhook: "Sin endpoint",
    failing: "con fallas",
    healthy: "al día",
    disabled: "deshabilitado",
    byStatus: "Por estado",
    recent: "Actividad reciente",
    event: "Evento",
    resource: "Recurso",
    at: "Cuándo",
    noEvents: "Aún no hay eventos.",
    discrepancies: "Conciliación: lo que las cadenas no muestran",
    discrepanciesIntro:
      "La conciliación diaria volvió a leer estos registros en las cadenas y no encontró lo registrado. El operador lo revisa.",
    record: "Registro",
    leg: "Tramo",
    problem: "Problema",
    found: "Encontrado",
  },
  en: {
    title: "Overview",
    integrations: "Integrations",
    activeKeys: "Active keys",
    orders: "Orders",
    payouts: "Payouts",
    swaps: "Confirmed swaps",
    webhook: "Webhook",
    noWebhook: "No endpoint",
    failing: "failing",
    healthy: "healthy",
    disabled: "disabled",
    byStatus: "By status",
    recent: "Recent activity",
    event: "Event",
    resource: "Resource",
    at: "When",
    noEvents: "No events yet.",
    discrepancies: "Reconciliation: what the chains do not show",
    discrepanciesIntro:
      "The daily reconciliation re-read these records on the chains and did not find what was recorded. The operator is looking into it.",
    record: "Record",
    leg: "Leg",
    problem: "Problem",
    found: "Found",
  },
} as const;

/** Where an event's resource is shown, by the event type's first word. */
const RESOURCE_PAGES: Record<string, string> = { settlement: "/orders", payout: "/payouts", swap: "/swaps" };

/** GET /dashboard: the organization at a glance, per integration, and its latest events. */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(DASHBOARD_PATH, async (c) => {
    const language = c.get("dashboard").language;
    const t = TEXT[language];
    const overview = await organizationOverview(c.get("services"), member(c).organizationId);
    return renderPage(c, {
      title: t.title,
      section: "overview",
      children: (
        <>
          {overview.discrepancies.length > 0 ? (
            <Card id="discrepancies" title={t.discrepancies}>
              <p role="alert">{t.discrepanciesIntro}</p>
              <DataTable
                labelledBy="discrepancies"
                rows={overview.discrepancies}
                columns={[
                  { head: t.record, kind: "mono", cell: (found) => found.recordId },
                  { head: t.leg, cell: (found) => found.leg },
                  { head: t.problem, cell: (found) => <code>{found.problem}</code> },
                  { head: t.found, cell: (found) => <Time at={found.foundAt} /> },
                ]}
              />
            </Card>
          ) : null}
          <h2>{t.integrations}</h2>
          {overview.integrations.length === 0 ? (
            <p class="note">{commonText(language).noIntegration}</p>
          ) : null}
          {overview.integrations.map((integration) => (
            <IntegrationCard integration={integration} language={language} />
          ))}
          <h2>{t.recent}</h2>
          {overview.recentEvents.length === 0 ? (
            <p>{t.noEvents}</p>
          ) : (
            <DataTable
              caption={t.recent}
              rows={overview.recentEvents}
              columns={[
                { head: t.at, cell: (event) => <Time at={event.createdAt} /> },
                { head: t.event, cell: (event) => <code>{event.type}</code> },
                { head: t.resource, kind: "mono", cell: resourceLink },
              ]}
            />
          )}
        </>
      ),
    });
  });
}

/** An event's resource: a link to its page when the dashboard has one for the event's kind. */
function resourceLink(event: RecentEvent) {
  const page = RESOURCE_PAGES[event.type.split(".")[0] ?? ""];
  if (!page) return event.resourceId;
  return (
    <a href={dashboardHref(`${page}/${event.resourceId}`, { integration: event.integrationId })}>
      {event.resourceId}
    </a>
  );
}

function IntegrationCard(props: { integration: IntegrationOverview; language: Language }) {
  const t = TEXT[props.language];
  const { integration } = props;
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
  const webhook = integration.webhook;
  const query = { integration: integration.id };
  return (
    <Card
      id={`int-${integration.id}`}
      level={3}
      title={
        <>
          {integration.name} <span class="mono">({integration.id})</span>
        </>
      }
    >
      <ul class="stats">
        <li>
          <a href={dashboardHref("/keys", query)}>{t.activeKeys}</a>
          <strong>{integration.activeKeys}</strong>
        </li>
        <li>
          <a href={dashboardHref("/orders", query)}>{t.orders}</a>
          <strong>{sum(integration.settlementOrders)}</strong>
          <StatusCounts counts={integration.settlementOrders} label={t.byStatus} />
        </li>
        <li>
          <a href={dashboardHref("/payouts", query)}>{t.payouts}</a>
          <strong>{sum(integration.payouts)}</strong>
          <StatusCounts counts={integration.payouts} label={t.byStatus} />
        </li>
        <li>
          <a href={dashboardHref("/swaps", query)}>{t.swaps}</a>
          <strong>{integration.swaps}</strong>
        </li>
        <li>
          <a href={dashboardHref("/webhooks", query)}>{t.webhook}</a>
          {webhook ? (
            <>
              <span class="mono" style="display:block">
                {webhook.url}
              </span>
              <StatusPill
                status={!webhook.enabled ? t.disabled : webhook.failing ? t.failing : t.healthy}
                tone={!webhook.enabled || webhook.failing ? "bad" : "good"}
              />
            </>
          ) : (
            <span style="display:block">{t.noWebhook}</span>
          )}
        </li>
      </ul>
    </Card>
  );
}

function StatusCounts(props: { counts: Record<string, number>; label: string }) {
  const entries = Object.entries(props.counts);
  if (entries.length === 0) return null;
  return (
    <ul aria-label={props.label}>
      {entries.map(([status, count]) => (
        <li>
          <StatusPill status={status} /> {count}
        </li>
      ))}
    </ul>
  );
}
