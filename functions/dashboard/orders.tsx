import type { OpenAPIHono } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors/api-error";
import type { Language } from "../../lib/errors/error-body";
import type { AppEnv } from "../../lib/http/env";
import { ORDER_STATUSES } from "../../lib/settlement/lifecycle";
import { listOrders } from "../../lib/settlement/list-orders";
import { type OrderReadView, readOrder } from "../../lib/settlement/read-order";
import { route as listOrdersRoute } from "../settlements/list-orders";
import { ErrorNote } from "./feedback";
import { Amount, Hash, StatusPill, Time } from "./format";
import { integrationScope } from "./integration";
import { dashboardHref, renderPage } from "./layout";
import {
  chainLabel,
  checkedQuery,
  KeptFields,
  type ListFilters,
  listFilters,
  Pager,
  SinceField,
  StatusSelect,
  verbQuery,
} from "./listing";
import { notFoundPage } from "./not-found";
import { DASHBOARD_PATH, type DashboardContext } from "./request";
import { commonText } from "./texts";

const ORDERS_PATH = `${DASHBOARD_PATH}/orders`;

const TEXT = {
  es: {
    title: "Órdenes de liquidación",
    intro:
      "Las órdenes de la organización, de la más antigua a la más reciente, tal como las lista GET /api/integrations/settlements/orders.",
    filters: "Filtros",
    caption: "Órdenes",
    order: "Orden",
    amount: "Envía",
    receives: "Recibe (mínimo)",
    sourceChain: "Cadena de origen",
    destinationChain: "Cadena de destino",
    none: "No hay órdenes con estos filtros.",
    detailTitle: "Orden {id}",
    facts: "Datos de la orden",
    health: "Salud",
    fundsStatus: "Dónde están los fondos",
    reference: "Referencia",
    sendAmount: "Monto enviado",
    upfrontFee: "Comisión de transferencia",
    totalDebit: "Débito total",
    serviceFee: "Comisión de servicio",
    routeInput: "Entra a la ruta",
    expected: "COPm esperados",
    minimum: "COPm mínimos (piso)",
    rate: "Tasa (COP por USDC)",
    minimumRate: "Tasa mínima",
    sourceAddress: "Dirección de origen",
    destinationAddress: "Dirección de destino",
    quote: "Cotización",
    mode: "Modo de ejecución",
    updated: "Actualizada",
    transactions: "Transacciones",
    step: "Paso",
    chain: "Cadena",
    hash: "Hash de la transacción",
    noTransactions: "Aún no hay transacciones: el usuario no ha quemado USDC.",
    timeline: "Línea de tiempo",
    back: "Volver a las órdenes",
  },
  en: {
    title: "Settlement orders",
    intro: "The organization's orders, oldest first, as GET /api/integrations/settlements/orders lists them.",
    filters: "Filters",
    caption: "Orders",
    order: "Order",
    amount: "Sends",
    receives: "Receives (minimum)",
    sourceChain: "Source chain",
    destinationChain: "Destination chain",
    none: "No orders match these filters.",
    detailTitle: "Order {id}",
    facts: "Order facts",
    health: "Health",
    fundsStatus: "Where the funds are",
    reference: "Reference",
    sendAmount: "Amount sent",
    upfrontFee: "Transfer fee",
    totalDebit: "Total debit",
    serviceFee: "Service fee",
    routeInput: "Enters the route",
    expected: "Expected COPm",
    minimum: "Minimum COPm (floor)",
    rate: "Rate (COP per USDC)",
    minimumRate: "Minimum rate",
    sourceAddress: "Source address",
    destinationAddress: "Destination address",
    quote: "Quote",
    mode: "Execution mode",
    updated: "Updated",
    transactions: "Transactions",
    step: "Step",
    chain: "Chain",
    hash: "Transaction hash",
    noTransactions: "No transactions yet: the user has not burned USDC.",
    timeline: "Timeline",
    back: "Back to the orders",
  },
} as const;

/** Each timeline entry's kind as people read it; an unknown kind shows its code. */
const KINDS: Record<Language, Record<string, string>> = {
  es: {
    ORDER_CREATED: "Orden creada",
    BURN_VERIFIED: "Quema de USDC verificada",
    ATTESTATION_REQUESTED: "Atestación solicitada a Circle",
    ATTESTED: "Atestación de Circle completa",
    FORWARDED_MINT: "USDC acuñados en la cadena intermedia",
    ROUTE_SENT: "Ruta enviada",
    ROUTE_COMPLETED: "Ruta completada",
    EXCHANGED: "Cambio USDm → COPm en Mento",
    DELIVERED: "COPm entregados",
    STUCK: "Orden detenida",
    PAYMENT_RESIGNED: "Pago firmado de nuevo",
    CHAIN_RESET: "Cadenas locales reiniciadas",
  },
  en: {
    ORDER_CREATED: "Order created",
    BURN_VERIFIED: "USDC burn verified",
    ATTESTATION_REQUESTED: "Circle attestation requested",
    ATTESTED: "Circle attestation complete",
    FORWARDED_MINT: "USDC minted on the intermediate chain",
    ROUTE_SENT: "Route sent",
    ROUTE_COMPLETED: "Route completed",
    EXCHANGED: "USDm → COPm exchange on Mento",
    DELIVERED: "COPm delivered",
    STUCK: "Order stuck",
    PAYMENT_RESIGNED: "Payment signed again",
    CHAIN_RESET: "Local chains reset",
  },
};

type OrdersText = (typeof TEXT)[Language];
const LIST_QUERY = listOrdersRoute.request.query;
const FIELDS = ["status", "since", "limit", "cursor"] as const;

/**
 * GET /dashboard/orders: the organization's settlement orders through the API's own verb and query
 * rules; GET /dashboard/orders/{orderId}: one order with every transaction hash and its timeline.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(ORDERS_PATH, async (c) => {
    const scope = await integrationScope(c);
    if (!scope) return notFoundPage(c, { section: "orders", back: ORDERS_PATH });
    const { all, current, partner } = scope;
    const language = c.get("dashboard").language;
    const t = TEXT[language];
    const filters = listFilters(c);
    const checked = checkedQuery(LIST_QUERY, filters, FIELDS);
    if (!checked.ok) c.status(400);
    const page = partner && checked.ok ? await listOrders(partner, verbQuery(checked.query)) : undefined;
    return renderPage(c, {
      title: t.title,
      section: "orders",
      integrations: { all, current },
      children: current ? (
        <>
          <p>{t.intro}</p>
          <OrderFilters language={language} integrationId={current.id} filters={filters} />
          {checked.ok ? null : <ErrorNote c={c} error={checked.error} />}
          {page ? (
            <>
              {page.orders.length === 0 ? (
                <p>{t.none}</p>
              ) : (
                <OrderTable c={c} t={t} orders={page.orders} integrationId={current.id} />
              )}
              <Pager
                c={c}
                path="/orders"
                integrationId={current.id}
                filters={filters}
                nextCursor={page.nextCursor}
              />
            </>
          ) : null}
        </>
      ) : null,
    });
  });

  app.get(`${ORDERS_PATH}/:orderId`, async (c) => {
    const scope = await integrationScope(c);
    const back = dashboardHref("/orders", { integration: scope?.current?.id });
    if (!scope?.partner || !scope.current) return notFoundPage(c, { section: "orders", back });
    let order: OrderReadView;
    try {
      order = await readOrder(scope.partner, c.req.param("orderId"));
    } catch (error) {
      if (error instanceof ApiError && error.code === "ORDER_NOT_FOUND") {
        return notFoundPage(c, { section: "orders", back });
      }
      throw error;
    }
    const language = c.get("dashboard").language;
    const t = TEXT[language];
    return renderPage(c, {
      title: t.detailTitle.replace("{id}", order.orderId),
      section: "orders",
      integrations: { all: scope.all, current: scope.current },
      children: <OrderDetail c={c} t={t} order={order} back={back} />,
    });
  });
}

function OrderFilters(props: { language: Language; integrationId: string; filters: ListFilters }) {
  const t = TEXT[props.language];
  return (
    <form method="get" action={ORDERS_PATH} class="filters" aria-label={t.filters}>
      <KeptFields integrationId={props.integrationId} filters={props.filters} />
      <StatusSelect language={props.language} statuses={ORDER_STATUSES} value={props.filters.status} />
      <SinceField language={props.language} filters={props.filters} />
      <button type="submit" class="secondary">
        {commonText(props.language).filter}
      </button>
    </form>
  );
}

/** The chain the user burns on, and the chain the COPm is delivered on (the quote's last leg). */
function chainsOf(order: OrderReadView): { source: number | undefined; destination: number | undefined } {
  return { source: order.quote.legs[0]?.chainId, destination: order.quote.legs.at(-1)?.chainId };
}

function OrderTable(props: {
  c: DashboardContext;
  t: OrdersText;
  orders: OrderReadView[];
  integrationId: string;
}) {
  const { c, t } = props;
  const language = c.get("dashboard").language;
  const services = c.get("services");
  const common = commonText(language);
  return (
    <div class="table-wrap">
      <table>
        <caption>{t.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.order}</th>
            <th scope="col">{common.status}</th>
            <th scope="col" class="num">
              {t.amount}
            </th>
            <th scope="col" class="num">
              {t.receives}
            </th>
            <th scope="col">{t.sourceChain}</th>
            <th scope="col">{t.destinationChain}</th>
            <th scope="col">{common.created}</th>
          </tr>
        </thead>
        <tbody>
          {props.orders.map((order) => {
            const chains = chainsOf(order);
            return (
              <tr data-order-id={order.orderId}>
                <td class="mono">
                  <a href={dashboardHref(`/orders/${order.orderId}`, { integration: props.integrationId })}>
                    {order.orderId}
                  </a>
                </td>
                <td>
                  <StatusPill status={order.status} />
                  {order.health === "STUCK" ? (
                    <>
                      {" "}
                      <StatusPill status={order.health} />
                    </>
                  ) : null}
                </td>
                <td class="num">
                  <Amount value={order.quote.sendAmountUsdc} token="USDC" language={language} />
                </td>
                <td class="num">
                  <Amount value={order.quote.copAmountMin} token="COPm" language={language} />
                </td>
                <td>{chainLabel(services, chains.source)}</td>
                <td>{chainLabel(services, chains.destination)}</td>
                <td>
                  <Time at={order.createdAt} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function OrderDetail(props: { c: DashboardContext; t: OrdersText; order: OrderReadView; back: string }) {
  const { c, t, order } = props;
  const language = c.get("dashboard").language;
  const services = c.get("services");
  const common = commonText(language);
  const { quote } = order;
  const chains = chainsOf(order);
  const kind = (code: string) => KINDS[language][code] ?? code;
  const hashed = order.timeline.filter((entry) => entry.txHash);
  const burnListed = hashed.some((entry) => entry.txHash === order.burnTxHash);
  const transactions = [
    ...(order.burnTxHash && !burnListed
      ? [{ kind: "BURN_VERIFIED", chainId: chains.source ?? null, txHash: order.burnTxHash }]
      : []),
    ...hashed,
  ];
  return (
    <>
      <p>
        <a href={props.back}>{t.back}</a>
      </p>
      <section class="card" aria-labelledby="order-facts">
        <h2 id="order-facts">{t.facts}</h2>
        <dl class="facts">
          <dt>{common.status}</dt>
          <dd>
            <StatusPill status={order.status} />
          </dd>
          <dt>{t.health}</dt>
          <dd>
            <StatusPill status={order.health} />
          </dd>
          <dt>{t.fundsStatus}</dt>
          <dd>
            <code>{order.fundsStatus}</code>
          </dd>
          <dt>{t.reference}</dt>
          <dd>{order.reference ?? "—"}</dd>
          <dt>{t.sendAmount}</dt>
          <dd>
            <Amount value={quote.sendAmountUsdc} token="USDC" language={language} />
          </dd>
          <dt>{t.upfrontFee}</dt>
          <dd>
            <Amount value={quote.transferUpfrontFeeUsdc} token="USDC" language={language} />
          </dd>
          <dt>{t.totalDebit}</dt>
          <dd>
            <Amount value={quote.totalDebitUsdc} token="USDC" language={language} />
          </dd>
          <dt>{t.serviceFee}</dt>
          <dd>
            <Amount value={quote.fees.serviceFeeUsdc} token="USDC" language={language} />
          </dd>
          <dt>{t.routeInput}</dt>
          <dd>
            <Amount value={quote.routeInputUsdc} token="USDC" language={language} />
          </dd>
          <dt>{t.expected}</dt>
          <dd>
            <Amount value={quote.expectedCopAmount} token="COPm" language={language} />
          </dd>
          <dt>{t.minimum}</dt>
          <dd>
            <Amount value={quote.copAmountMin} token="COPm" language={language} />
          </dd>
          <dt>{t.rate}</dt>
          <dd>
            <Amount value={quote.rate} token="COP/USDC" language={language} />
          </dd>
          <dt>{t.minimumRate}</dt>
          <dd>
            <Amount value={quote.minimumRate} token="COP/USDC" language={language} />
          </dd>
          <dt>{t.sourceChain}</dt>
          <dd>{chainLabel(services, chains.source)}</dd>
          <dt>{t.destinationChain}</dt>
          <dd>{chainLabel(services, chains.destination)}</dd>
          <dt>{t.sourceAddress}</dt>
          <dd>
            <Hash value={quote.sourceAddress} />
          </dd>
          <dt>{t.destinationAddress}</dt>
          <dd>
            <Hash value={quote.destinationAddress} />
          </dd>
          <dt>{t.quote}</dt>
          <dd class="mono">{quote.quoteId}</dd>
          <dt>{t.mode}</dt>
          <dd>
            <code>{order.execution.mode}</code>
          </dd>
          <dt>{common.created}</dt>
          <dd>
            <Time at={order.createdAt} />
          </dd>
          <dt>{t.updated}</dt>
          <dd>
            <Time at={order.updatedAt} />
          </dd>
        </dl>
      </section>

      <section aria-labelledby="order-transactions" style="margin-bottom:1rem">
        <h2 id="order-transactions">{t.transactions}</h2>
        {transactions.length === 0 ? (
          <p>{t.noTransactions}</p>
        ) : (
          <div class="table-wrap">
            <table aria-labelledby="order-transactions">
              <thead>
                <tr>
                  <th scope="col">{t.step}</th>
                  <th scope="col">{t.chain}</th>
                  <th scope="col">{t.hash}</th>
                </tr>
              </thead>
              <tbody>
                {transactions.map((entry) => (
                  <tr>
                    <td>{kind(entry.kind)}</td>
                    <td>{chainLabel(services, entry.chainId)}</td>
                    <td>
                      <Hash value={entry.txHash} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section class="card" aria-labelledby="order-timeline">
        <h2 id="order-timeline">{t.timeline}</h2>
        <ol class="timeline">
          {order.timeline.map((entry) => (
            <li data-kind={entry.kind}>
              <Time at={entry.at} /> · <strong>{kind(entry.kind)}</strong>{" "}
              <StatusPill status={entry.status} /> <code>{entry.fundsStatus}</code>
              {entry.chainId !== null ? <span>{` · ${chainLabel(services, entry.chainId)}`}</span> : null}
              {entry.txHash ? (
                <>
                  {" · "}
                  <Hash value={entry.txHash} />
                </>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
