import type { OpenAPIHono } from "@hono/zod-openapi";
import { DASHBOARD_PATH } from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import type { Language } from "../../lib/kernel/errors/error-body";
import { PAYOUT_STATUSES, type PayoutView } from "../../lib/payouts/payout-view";
import { listPayouts, readPayout } from "../../lib/payouts/read-payouts";
import { listPayoutsQuery } from "../payouts/schemas";
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

const PAYOUTS_PATH = `${DASHBOARD_PATH}/payouts`;

const TEXT = {
  es: {
    title: "Pagos BRE-B",
    intro:
      "Los pagos en pesos de la organización, del más antiguo al más reciente, tal como los lista GET /api/integrations/breb/payouts.",
    everyIntegration:
      "La lista tiene los pagos de todas las integraciones de la organización, como los lista la API.",
    userAddress: "Wallet del usuario",
    caption: "Pagos",
    payout: "Pago",
    cop: "Pesos al destinatario",
    source: "Paga el usuario",
    fee: "Comisión de servicio",
    key: "Llave BRE-B",
    none: "No hay pagos con estos filtros.",
    detailTitle: "Pago {id}",
    facts: "Datos del pago",
    providerAmount: "Al proveedor",
    keyType: "Tipo de llave",
    owner: "Titular de la cuenta",
    user: "Wallet del usuario",
    quote: "Cotización",
    deadline: "Plazo del depósito",
    depositTx: "Depósito",
    providerReference: "Referencia del proveedor",
    brebTransaction: "Transacción BRE-B",
    refundTx: "Reembolso",
    failure: "Motivo del fallo",
    updated: "Actualizado",
    noTransactions: "Aún no hay transacciones: el usuario no ha depositado.",
    back: "Volver a los pagos",
  },
  en: {
    title: "BRE-B payouts",
    intro: "The organization's peso payouts, oldest first, as GET /api/integrations/breb/payouts lists them.",
    everyIntegration:
      "The list holds the payouts of every integration of the organization, as the API lists them.",
    userAddress: "User wallet",
    caption: "Payouts",
    payout: "Payout",
    cop: "Pesos to the recipient",
    source: "The user pays",
    fee: "Service fee",
    key: "BRE-B key",
    none: "No payouts match these filters.",
    detailTitle: "Payout {id}",
    facts: "Payout facts",
    providerAmount: "To the provider",
    keyType: "Key type",
    owner: "Account owner",
    user: "User wallet",
    quote: "Quote",
    deadline: "Deposit deadline",
    depositTx: "Deposit",
    providerReference: "Provider reference",
    brebTransaction: "BRE-B transaction",
    refundTx: "Refund",
    failure: "Why it failed",
    updated: "Updated",
    noTransactions: "No transactions yet: the user has not deposited.",
    back: "Back to the payouts",
  },
} as const;

type PayoutsText = (typeof TEXT)[Language];
const LIST_QUERY = listPayoutsQuery;

/**
 * GET /dashboard/payouts: the organization's BRE-B payouts through the API's own verb and query
 * rules; GET /dashboard/payouts/{payoutId}: one payout with its hashes, references and timeline.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(PAYOUTS_PATH, (c) => listPage(c, PAYOUT_LIST));
  app.get(`${PAYOUTS_PATH}/:payoutId`, (c) => detailPage(c, PAYOUT_DETAIL, c.req.param("payoutId")));
}

const PAYOUT_LIST: ListPage<typeof LIST_QUERY, PayoutView, PayoutsText> = {
  section: "payouts",
  text: TEXT,
  schema: LIST_QUERY,
  fields: ["status", "since", "userAddress", "limit", "cursor"],
  async load(partner, query) {
    const { payouts, nextCursor } = await listPayouts(partner, verbQuery(query));
    return { rows: payouts, nextCursor };
  },
  filterFields: ({ language, t, filters }) => (
    <>
      <StatusSelect language={language} statuses={PAYOUT_STATUSES} value={filters.status} />
      <SinceField language={language} filters={filters} />
      <div>
        <label for="filter-user">{t.userAddress}</label>
        <input
          id="filter-user"
          name="userAddress"
          type="text"
          autocomplete="off"
          spellcheck={false}
          placeholder="0x…"
          value={filters.userAddress ?? ""}
        />
      </div>
    </>
  ),
  columns({ language, t, integrationId }) {
    const common = commonText(language);
    return [
      {
        head: t.payout,
        kind: "mono",
        cell: (payout) => (
          <a href={dashboardHref(`/payouts/${payout.payoutId}`, { integration: integrationId })}>
            {payout.payoutId}
          </a>
        ),
      },
      { head: common.status, cell: (payout) => <StatusPill status={payout.status} /> },
      {
        head: t.cop,
        kind: "num",
        cell: (payout) => <Amount value={payout.destinationCop} token="COP" language={language} />,
      },
      {
        head: t.source,
        kind: "num",
        cell: (payout) => <Amount value={payout.sourceAmount} token={payout.fromToken} language={language} />,
      },
      {
        head: t.fee,
        kind: "num",
        cell: (payout) => <Amount value={payout.serviceFee} token={payout.fromToken} language={language} />,
      },
      { head: t.key, kind: "mono", cell: (payout) => payout.destination.breBKey },
      { head: common.created, cell: (payout) => <Time at={payout.createdAt} /> },
    ];
  },
  rowAttributes: (payout) => ({ "data-payout-id": payout.payoutId }),
};

const PAYOUT_DETAIL: DetailPage<PayoutView, PayoutsText> = {
  section: "payouts",
  text: TEXT,
  missing: "PAYOUT_NOT_FOUND",
  read: readPayout,
  id: (payout) => payout.payoutId,
  body: PayoutDetail,
};

function PayoutDetail({ c, language, t, item: payout }: DetailView<PayoutView, PayoutsText>) {
  const services = c.get("services");
  const common = commonText(language);
  const amount = (value: string, token: string) => <Amount value={value} token={token} language={language} />;
  // Deposits and refunds happen on the payout chain: the destination chain (lib/payouts/confirm-payout.ts).
  const chain = chainLabel(services, services.chains.byRole("destination")?.chainId);
  const transactions = [
    ...(payout.depositTxHash ? [{ step: t.depositTx, chain, txHash: payout.depositTxHash }] : []),
    ...(payout.refundTxHash ? [{ step: t.refundTx, chain, txHash: payout.refundTxHash }] : []),
  ];
  return (
    <>
      <Card id="payout-facts" title={t.facts}>
        <dl class="facts">
          <Fact term={common.status}>
            <StatusPill status={payout.status} />
          </Fact>
          <Fact term={t.cop}>{amount(payout.destinationCop, "COP")}</Fact>
          <Fact term={t.source}>{amount(payout.sourceAmount, payout.fromToken)}</Fact>
          <Fact term={t.providerAmount}>{amount(payout.providerAmount, payout.fromToken)}</Fact>
          <Fact term={t.fee}>{amount(payout.serviceFee, payout.fromToken)}</Fact>
          <Fact term={t.key} mono>
            {payout.destination.breBKey}
          </Fact>
          <Fact term={t.keyType}>
            <code>{payout.destination.keyType}</code>
          </Fact>
          <Fact term={t.owner}>{payout.destination.accountOwnerName}</Fact>
          <Fact term={t.user}>
            <Hash value={payout.userAddress} />
          </Fact>
          <Fact term={t.quote} mono>
            {payout.quoteId}
          </Fact>
          <Fact term={t.deadline}>
            <Time at={payout.depositDeadline} />
          </Fact>
          <Fact term={t.depositTx}>
            <Hash value={payout.depositTxHash} />
          </Fact>
          <Fact term={t.providerReference} mono>
            {payout.providerPayoutId ?? "—"}
          </Fact>
          <Fact term={t.brebTransaction} mono>
            {payout.brebTransactionId ?? "—"}
          </Fact>
          {payout.refundTxHash ? (
            <Fact term={t.refundTx}>
              <Hash value={payout.refundTxHash} />
            </Fact>
          ) : null}
          {payout.failureReason ? <Fact term={t.failure}>{payout.failureReason}</Fact> : null}
          <Fact term={common.created}>
            <Time at={payout.createdAt} />
          </Fact>
          <Fact term={t.updated}>
            <Time at={payout.updatedAt} />
          </Fact>
        </dl>
      </Card>

      <TransactionsSection
        language={language}
        id="payout-transactions"
        none={t.noTransactions}
        rows={transactions}
      />

      <TimelineCard language={language} id="payout-timeline">
        {payout.timeline.map((entry) => (
          <li data-status={entry.status}>
            <Time at={entry.at} /> · <StatusPill status={entry.status} />
            {entry.detail ? <span>{` · ${entry.detail}`}</span> : null}
            <EntryHash value={entry.txHash} />
          </li>
        ))}
      </TimelineCard>
    </>
  );
}
