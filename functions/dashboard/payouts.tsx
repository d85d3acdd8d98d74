import type { OpenAPIHono } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors/api-error";
import type { Language } from "../../lib/errors/error-body";
import type { AppEnv } from "../../lib/http/env";
import { PAYOUT_STATUSES, type PayoutView } from "../../lib/payouts/payout-view";
import { listPayouts, readPayout } from "../../lib/payouts/read-payouts";
import { route as listPayoutsRoute } from "../breb/list-payouts";
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

const PAYOUTS_PATH = `${DASHBOARD_PATH}/payouts`;

const TEXT = {
  es: {
    title: "Pagos BRE-B",
    intro:
      "Los pagos en pesos de la organización, del más antiguo al más reciente, tal como los lista GET /api/integrations/breb/payouts.",
    filters: "Filtros",
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
    transactions: "Transacciones",
    step: "Paso",
    chain: "Cadena",
    hash: "Hash de la transacción",
    noTransactions: "Aún no hay transacciones: el usuario no ha depositado.",
    timeline: "Línea de tiempo",
    back: "Volver a los pagos",
  },
  en: {
    title: "BRE-B payouts",
    intro: "The organization's peso payouts, oldest first, as GET /api/integrations/breb/payouts lists them.",
    filters: "Filters",
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
    transactions: "Transactions",
    step: "Step",
    chain: "Chain",
    hash: "Transaction hash",
    noTransactions: "No transactions yet: the user has not deposited.",
    timeline: "Timeline",
    back: "Back to the payouts",
  },
} as const;

type PayoutsText = (typeof TEXT)[Language];
const LIST_QUERY = listPayoutsRoute.request.query;
const FIELDS = ["status", "since", "userAddress", "limit", "cursor"] as const;

/**
 * GET /dashboard/payouts: the organization's BRE-B payouts through the API's own verb and query
 * rules; GET /dashboard/payouts/{payoutId}: one payout with its hashes, references and timeline.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(PAYOUTS_PATH, async (c) => {
    const scope = await integrationScope(c);
    if (!scope) return notFoundPage(c, { section: "payouts", back: PAYOUTS_PATH });
    const { all, current, partner } = scope;
    const language = c.get("dashboard").language;
    const t = TEXT[language];
    const filters = listFilters(c);
    const checked = checkedQuery(LIST_QUERY, filters, FIELDS);
    if (!checked.ok) c.status(400);
    const page = partner && checked.ok ? await listPayouts(partner, verbQuery(checked.query)) : undefined;
    return renderPage(c, {
      title: t.title,
      section: "payouts",
      integrations: { all, current },
      children: current ? (
        <>
          <p>{t.intro}</p>
          <PayoutFilters language={language} integrationId={current.id} filters={filters} />
          {checked.ok ? null : <ErrorNote c={c} error={checked.error} />}
          {page ? (
            <>
              {page.payouts.length === 0 ? (
                <p>{t.none}</p>
              ) : (
                <PayoutTable c={c} t={t} payouts={page.payouts} integrationId={current.id} />
              )}
              <Pager
                c={c}
                path="/payouts"
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

  app.get(`${PAYOUTS_PATH}/:payoutId`, async (c) => {
    const scope = await integrationScope(c);
    const back = dashboardHref("/payouts", { integration: scope?.current?.id });
    if (!scope?.partner || !scope.current) return notFoundPage(c, { section: "payouts", back });
    let payout: PayoutView;
    try {
      payout = await readPayout(scope.partner, c.req.param("payoutId"));
    } catch (error) {
      if (error instanceof ApiError && error.code === "PAYOUT_NOT_FOUND") {
        return notFoundPage(c, { section: "payouts", back });
      }
      throw error;
    }
    const language = c.get("dashboard").language;
    const t = TEXT[language];
    return renderPage(c, {
      title: t.detailTitle.replace("{id}", payout.payoutId),
      section: "payouts",
      integrations: { all: scope.all, current: scope.current },
      children: <PayoutDetail c={c} t={t} payout={payout} back={back} />,
    });
  });
}

function PayoutFilters(props: { language: Language; integrationId: string; filters: ListFilters }) {
  const t = TEXT[props.language];
  return (
    <form method="get" action={PAYOUTS_PATH} class="filters" aria-label={t.filters}>
      <KeptFields integrationId={props.integrationId} filters={props.filters} />
      <StatusSelect language={props.language} statuses={PAYOUT_STATUSES} value={props.filters.status} />
      <SinceField language={props.language} filters={props.filters} />
      <div>
        <label for="filter-user">{t.userAddress}</label>
        <input
          id="filter-user"
          name="userAddress"
          type="text"
          autocomplete="off"
          spellcheck={false}
          placeholder="0x…"
          value={props.filters.userAddress ?? ""}
        />
      </div>
      <button type="submit" class="secondary">
        {commonText(props.language).filter}
      </button>
    </form>
  );
}

function PayoutTable(props: {
  c: DashboardContext;
  t: PayoutsText;
  payouts: PayoutView[];
  integrationId: string;
}) {
  const { c, t } = props;
  const language = c.get("dashboard").language;
  const common = commonText(language);
  return (
    <div class="table-wrap">
      <table>
        <caption>{t.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.payout}</th>
            <th scope="col">{common.status}</th>
            <th scope="col" class="num">
              {t.cop}
            </th>
            <th scope="col" class="num">
              {t.source}
            </th>
            <th scope="col" class="num">
              {t.fee}
            </th>
            <th scope="col">{t.key}</th>
            <th scope="col">{common.created}</th>
          </tr>
        </thead>
        <tbody>
          {props.payouts.map((payout) => (
            <tr data-payout-id={payout.payoutId}>
              <td class="mono">
                <a href={dashboardHref(`/payouts/${payout.payoutId}`, { integration: props.integrationId })}>
                  {payout.payoutId}
                </a>
              </td>
              <td>
                <StatusPill status={payout.status} />
              </td>
              <td class="num">
                <Amount value={payout.destinationCop} token="COP" language={language} />
              </td>
              <td class="num">
                <Amount value={payout.sourceAmount} token={payout.fromToken} language={language} />
              </td>
              <td class="num">
                <Amount value={payout.serviceFee} token={payout.fromToken} language={language} />
              </td>
              <td class="mono">{payout.destination.breBKey}</td>
              <td>
                <Time at={payout.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PayoutDetail(props: { c: DashboardContext; t: PayoutsText; payout: PayoutView; back: string }) {
  const { c, t, payout } = props;
  const language = c.get("dashboard").language;
  const services = c.get("services");
  const common = commonText(language);
  // Deposits and refunds happen on the payout chain: the destination chain (lib/payouts/confirm-payout.ts).
  const chain = chainLabel(services, services.chains.byRole("destination")?.chainId);
  const transactions = [
    ...(payout.depositTxHash ? [{ step: t.depositTx, txHash: payout.depositTxHash }] : []),
    ...(payout.refundTxHash ? [{ step: t.refundTx, txHash: payout.refundTxHash }] : []),
  ];
  return (
    <>
      <p>
        <a href={props.back}>{t.back}</a>
      </p>
      <section class="card" aria-labelledby="payout-facts">
        <h2 id="payout-facts">{t.facts}</h2>
        <dl class="facts">
          <dt>{common.status}</dt>
          <dd>
            <StatusPill status={payout.status} />
          </dd>
          <dt>{t.cop}</dt>
          <dd>
            <Amount value={payout.destinationCop} token="COP" language={language} />
          </dd>
          <dt>{t.source}</dt>
          <dd>
            <Amount value={payout.sourceAmount} token={payout.fromToken} language={language} />
          </dd>
          <dt>{t.providerAmount}</dt>
          <dd>
            <Amount value={payout.providerAmount} token={payout.fromToken} language={language} />
          </dd>
          <dt>{t.fee}</dt>
          <dd>
            <Amount value={payout.serviceFee} token={payout.fromToken} language={language} />
          </dd>
          <dt>{t.key}</dt>
          <dd class="mono">{payout.destination.breBKey}</dd>
          <dt>{t.keyType}</dt>
          <dd>
            <code>{payout.destination.keyType}</code>
          </dd>
          <dt>{t.owner}</dt>
          <dd>{payout.destination.accountOwnerName}</dd>
          <dt>{t.user}</dt>
          <dd>
            <Hash value={payout.userAddress} />
          </dd>
          <dt>{t.quote}</dt>
          <dd class="mono">{payout.quoteId}</dd>
          <dt>{t.deadline}</dt>
          <dd>
            <Time at={payout.depositDeadline} />
          </dd>
          <dt>{t.depositTx}</dt>
          <dd>
            <Hash value={payout.depositTxHash} />
          </dd>
          <dt>{t.providerReference}</dt>
          <dd class="mono">{payout.providerPayoutId ?? "—"}</dd>
          <dt>{t.brebTransaction}</dt>
          <dd class="mono">{payout.brebTransactionId ?? "—"}</dd>
          {payout.refundTxHash ? (
            <>
              <dt>{t.refundTx}</dt>
              <dd>
                <Hash value={payout.refundTxHash} />
              </dd>
            </>
          ) : null}
          {payout.failureReason ? (
            <>
              <dt>{t.failure}</dt>
              <dd>{payout.failureReason}</dd>
            </>
          ) : null}
          <dt>{common.created}</dt>
          <dd>
            <Time at={payout.createdAt} />
          </dd>
          <dt>{t.updated}</dt>
          <dd>
            <Time at={payout.updatedAt} />
          </dd>
        </dl>
      </section>

      <section aria-labelledby="payout-transactions" style="margin-bottom:1rem">
        <h2 id="payout-transactions">{t.transactions}</h2>
        {transactions.length === 0 ? (
          <p>{t.noTransactions}</p>
        ) : (
          <div class="table-wrap">
            <table aria-labelledby="payout-transactions">
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
                    <td>{entry.step}</td>
                    <td>{chain}</td>
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

      <section class="card" aria-labelledby="payout-timeline">
        <h2 id="payout-timeline">{t.timeline}</h2>
        <ol class="timeline">
          {payout.timeline.map((entry) => (
            <li data-status={entry.status}>
              <Time at={entry.at} /> · <StatusPill status={entry.status} />
              {entry.detail ? <span>{` · ${entry.detail}`}</span> : null}
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
