import { type DashboardContext, memberMay } from "../../lib/http/dashboard-frame";
import type { ServiceContext } from "../../lib/kernel/context";
import { ApiError, type Problem } from "../../lib/kernel/errors/api-error";
import type { Language } from "../../lib/kernel/errors/error-body";
import { hasPrefix } from "../../lib/kernel/ids";
import type { DeliveryView } from "../../lib/webhooks/delivery-view";
import { DELIVERY_STATUSES, listDeliveries } from "../../lib/webhooks/list-deliveries";
import { DataTable } from "./data-table";
import { StatusPill, Time } from "./format";
import { dashboardHref } from "./layout";
import { PostButton } from "./post-button";
import { commonText, fill } from "./texts";

/** Deliveries per page of the table. */
const PAGE_SIZE = 20;

const TEXT = {
  es: {
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
    badStatus: "(el estado debe ser pending, delivered o failed)",
    badCursor: "(el cursor no es el de una página de entregas)",
  },
  en: {
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
    badStatus: "(status must be pending, delivered or failed)",
    badCursor: "(the cursor is not one of a deliveries page)",
  },
} as const;

type DeliveriesText = (typeof TEXT)[Language];
type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveriesQuery {
  status?: DeliveryStatus;
  cursor?: string;
}

export interface DeliveriesPage {
  deliveries: DeliveryView[];
  nextCursor: string | null;
}

/** The deliveries table's filter and cursor from the query, as the API's listing takes them. */
export function deliveriesQuery(c: DashboardContext): DeliveriesQuery | ApiError {
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

/** One page of the organization's deliveries, through the verb the API's listing uses. */
export function deliveriesPage(
  services: ServiceContext,
  organizationId: string,
  query: DeliveriesQuery,
): Promise<DeliveriesPage> {
  return listDeliveries(services, { organizationId, limit: PAGE_SIZE, ...query });
}

/**
 * The organization's deliveries: the status filter, then the table (when the query was accepted)
 * with a replay button a row and the pager, which keep the reader at this section (#deliveries).
 */
export function DeliveriesSection(props: {
  c: DashboardContext;
  integrationId: string;
  query: DeliveriesQuery | null;
  page: DeliveriesPage | undefined;
}) {
  const t = TEXT[props.c.get("dashboard").language];
  return (
    <section aria-labelledby="deliveries-title" id="deliveries">
      <h2 id="deliveries-title">{t.deliveriesTitle}</h2>
      <p>{t.deliveriesIntro}</p>
      <DeliveryFilter c={props.c} integrationId={props.integrationId} status={props.query?.status} />
      {props.page ? (
        <DeliveryTable
          c={props.c}
          t={t}
          integrationId={props.integrationId}
          page={props.page}
          query={props.query ?? {}}
        />
      ) : null}
    </section>
  );
}

function DeliveryFilter(props: {
  c: DashboardContext;
  integrationId: string;
  status: DeliveryStatus | undefined;
}) {
  const common = commonText(props.c.get("dashboard").language);
  return (
    <form method="get" action={dashboardHref("/webhooks")} class="filters">
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
  t: DeliveriesText;
  integrationId: string;
  page: DeliveriesPage;
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
        <DataTable
          caption={t.deliveriesCaption}
          rows={page.deliveries}
          rowAttributes={(delivery) => ({ "data-delivery-id": delivery.id, "data-status": delivery.status })}
          columns={[
            { head: common.created, cell: (delivery) => <Time at={delivery.createdAt} /> },
            {
              head: t.event,
              cell: (delivery) => (
                <>
                  <code>{delivery.eventType}</code>
                  <br />
                  <span class="mono">{delivery.eventId}</span>
                </>
              ),
            },
            { head: t.trigger, cell: (delivery) => t.triggers[delivery.trigger] },
            {
              head: common.status,
              cell: (delivery) => (
                <>
                  <StatusPill status={delivery.status} />
                  {delivery.failedReason ? <p>{delivery.failedReason}</p> : null}
                </>
              ),
            },
            { head: t.attempts, kind: "num", cell: (delivery) => delivery.attempts },
            {
              head: t.lastCode,
              kind: "num",
              cell: (delivery) => {
                const last = delivery.attemptLog.at(-1);
                return last ? (last.statusCode ?? last.error ?? "—") : "—";
              },
            },
            {
              head: t.deliveredOrNext,
              cell: (delivery) =>
                delivery.deliveredAt ? (
                  <Time at={delivery.deliveredAt} />
                ) : (
                  <Time at={delivery.nextAttemptAt} />
                ),
            },
            {
              head: t.action,
              cell: (delivery) =>
                memberMay(c, "webhooks:write") ? (
                  <PostButton
                    c={c}
                    action={dashboardHref(`/webhooks/events/${encodeURIComponent(delivery.eventId)}/replay`, {
                      integration: props.integrationId,
                    })}
                    variant="secondary"
                    label={fill(t.replayLabel, { eventId: delivery.eventId })}
                  >
                    {t.replay}
                  </PostButton>
                ) : null,
            },
          ]}
        />
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
