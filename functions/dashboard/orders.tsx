import type { OpenAPIHono } from "@hono/zod-openapi";
import { DASHBOARD_PATH } from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import type { Language } from "../../lib/kernel/errors/error-body";
import {
  isTimelineKind,
  listOrders,
  ORDER_STATUSES,
  type OrderReadView,
  type OrderSummary,
  readOrder,
  TIMELINE,
} from "../../lib/settlement";
import { listOrdersQuery } from "../settlement/schemas";
import { Card } from "./card";
import { type DetailPage, type DetailView, detailPage } from "./detail-page";
import { Fact } from "./fact";
import { Amount, Hash, StatusPill, Time } from "./format";
import { dashboardHref } from "./layout";
import { type ListPage, listPage } from "./list-page";
import { chainLabel, SinceField, StatusSelect, verbQuery } from "./listing";
import { commonText } from "./texts";
import { EntryHash, TimelineCard } from "./timeline";
import { TransactionsSection } from "./transactions";

const ORDERS_PATH = `${DASHBOARD_PATH}/orders`;

const TEXT = {
  es: {
    title: "Órdenes de liquidación",
    intro:
      "Las órdenes de la organización, de la más antigua a la más reciente, tal como las lista GET /api/integrations/settlements/orders.",
    everyIntegration:
      "La lista tiene las órdenes de todas las integraciones de la organización, como las lista la API.",
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
    noTransactions: "Aún no hay transacciones: el usuario no ha quemado USDC.",
    back: "Volver a las órdenes",
  },
  en: {
    title: "Settlement orders",
    intro: "The organization's orders, oldest first, as GET /api/integrations/settlements/orders lists them.",
    everyIntegration:
      "The list holds the orders of every integration of the organization, as the API lists them.",
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
    noTransactions: "No transactions yet: the user has not burned USDC.",
    back: "Back to the orders",
  },
} as const;

type OrdersText = (typeof TEXT)[Language];
const LIST_QUERY = listOrdersQuery;

/**
 * GET /dashboard/orders: the organization's settlement orders through the API's own verb and query
 * rules; GET /dashboard/orders/{orderId}: one order with every transaction hash and its timeline.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(ORDERS_PATH, (c) => listPage(c, ORDER_LIST));
  app.get(`${ORDERS_PATH}/:orderId`, (c) => detailPage(c, ORDER_DETAIL, c.req.param("orderId")));
}

/**
 * The chain the user burns on, by the name the order was made with (a deployment that no longer
 * serves the chain still shows it), with its id.
 */
function sourceChainOf(order: OrderSummary): string {
  return `${order.sourceChain} (${order.sourceChainId})`;
}

const ORDER_LIST: ListPage<typeof LIST_QUERY, OrderSummary, OrdersText> = {
  section: "orders",
  text: TEXT,
  schema: LIST_QUERY,
  fields: ["status", "since", "limit", "cursor"],
  async load(partner, query) {
    const { orders, nextCursor } = await listOrders(partner, verbQuery(query), "summary");
    return { rows: orders.map((json) => JSON.parse(json) as OrderSummary), nextCursor };
  },
  filterFields: ({ language, filters }) => (
    <>
      <StatusSelect language={language} statuses={ORDER_STATUSES} value={filters.status} />
      <SinceField language={language} filters={filters} />
    </>
  ),
  columns({ c, language, t, integrationId }) {
    const services = c.get("services");
    const common = commonText(language);
    return [
      {
        head: t.order,
        kind: "mono",
        cell: (order) => (
          <a href={dashboardHref(`/orders/${order.orderId}`, { integration: integrationId })}>
            {order.orderId}
          </a>
        ),
      },
      {
        head: common.status,
        cell: (order) => (
          <>
            <StatusPill status={order.status} />
            {order.health === "STUCK" ? (
              <>
                {" "}
                <StatusPill status={order.health} />
              </>
            ) : null}
          </>
        ),
      },
      {
        head: t.amount,
        kind: "num",
        cell: (order) => <Amount value={order.sendAmountUsdc} token="USDC" language={language} />,
      },
      {
        head: t.receives,
        kind: "num",
        cell: (order) => <Amount value={order.copAmountMin} token="COPm" language={language} />,
      },
      { head: t.sourceChain, cell: sourceChainOf },
      { head: t.destinationChain, cell: (order) => chainLabel(services, order.destinationChainId) },
      { head: common.created, cell: (order) => <Time at={order.createdAt} /> },
    ];
  },
  rowAttributes: (order) => ({ "data-order-id": order.orderId }),
};

const ORDER_DETAIL: DetailPage<OrderReadView, OrdersText> = {
  section: "orders",
  text: TEXT,
  missing: "ORDER_NOT_FOUND",
  read: readOrder,
  id: (order) => order.orderId,
  body: OrderDetail,
};

function OrderDetail({ c, language, t, item: order }: DetailView<OrderReadView, OrdersText>) {
  const services = c.get("services");
  const common = commonText(language);
  const { quote } = order;
  // Each entry's kind as people read it (the timeline table's label); an unknown kind shows its code.
  const kind = (code: string) => (isTimelineKind(code) ? TIMELINE[code].label[language] : code);
  const amount = (value: string, token: string) => <Amount value={value} token={token} language={language} />;
  const hashed = order.timeline.filter((entry) => entry.txHash);
  const burnListed = hashed.some((entry) => entry.txHash === order.burnTxHash);
  const transactions = [
    ...(order.burnTxHash && !burnListed
      ? [{ kind: "BURN_VERIFIED", chainId: order.execution.chainId, txHash: order.burnTxHash }]
      : []),
    ...hashed,
  ];
  return (
    <>
      <Card id="order-facts" title={t.facts}>
        <dl class="facts">
          <Fact term={common.status}>
            <StatusPill status={order.status} />
          </Fact>
          <Fact term={t.health}>
            <StatusPill status={order.health} />
          </Fact>
          <Fact term={t.fundsStatus}>
            <code>{order.fundsStatus}</code>
          </Fact>
          <Fact term={t.reference}>{order.reference ?? "—"}</Fact>
          <Fact term={t.sendAmount}>{amount(quote.sendAmountUsdc, "USDC")}</Fact>
          <Fact term={t.upfrontFee}>{amount(quote.transferUpfrontFeeUsdc, "USDC")}</Fact>
          <Fact term={t.totalDebit}>{amount(quote.totalDebitUsdc, "USDC")}</Fact>
          <Fact term={t.serviceFee}>{amount(quote.fees.serviceFeeUsdc, "USDC")}</Fact>
          <Fact term={t.routeInput}>{amount(quote.routeInputUsdc, "USDC")}</Fact>
          <Fact term={t.expected}>{amount(quote.expectedCopAmount, "COPm")}</Fact>
          <Fact term={t.minimum}>{amount(quote.copAmountMin, "COPm")}</Fact>
          <Fact term={t.rate}>{amount(quote.rate, "COP/USDC")}</Fact>
          <Fact term={t.minimumRate}>{amount(quote.minimumRate, "COP/USDC")}</Fact>
          <Fact term={t.sourceChain}>{`${order.execution.chain} (${order.execution.chainId})`}</Fact>
          <Fact term={t.destinationChain}>{chainLabel(services, quote.legs.at(-1)?.chainId)}</Fact>
          <Fact term={t.sourceAddress}>
            <Hash value={quote.sourceAddress} />
          </Fact>
          <Fact term={t.destinationAddress}>
            <Hash value={quote.destinationAddress} />
          </Fact>
          <Fact term={t.quote} mono>
            {quote.quoteId}
          </Fact>
          <Fact term={t.mode}>
            <code>{order.execution.mode}</code>
          </Fact>
          <Fact term={common.created}>
            <Time at={order.createdAt} />
          </Fact>
          <Fact term={t.updated}>
            <Time at={order.updatedAt} />
          </Fact>
        </dl>
      </Card>

      <TransactionsSection
        language={language}
        id="order-transactions"
        none={t.noTransactions}
        rows={transactions.map((entry) => ({
          step: kind(entry.kind),
          chain: chainLabel(services, entry.chainId),
          txHash: entry.txHash,
        }))}
      />

      <TimelineCard language={language} id="order-timeline">
        {order.timeline.map((entry) => (
          <li data-kind={entry.kind}>
            <Time at={entry.at} /> · <strong>{kind(entry.kind)}</strong> <StatusPill status={entry.status} />{" "}
            <code>{entry.fundsStatus}</code>
            {entry.chainId !== null ? <span>{` · ${chainLabel(services, entry.chainId)}`}</span> : null}
            <EntryHash value={entry.txHash} />
          </li>
        ))}
      </TimelineCard>
    </>
  );
}
