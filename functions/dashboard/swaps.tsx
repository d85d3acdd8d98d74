import type { OpenAPIHono } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors/api-error";
import type { Language } from "../../lib/errors/error-body";
import type { AppEnv } from "../../lib/http/env";
import { formatAmount, TOKEN_DECIMALS, type TokenSymbol } from "../../lib/money";
import { ownIntent } from "../../lib/swaps/confirm-swap";
import { listSwaps } from "../../lib/swaps/list-swaps";
import { type SwapView, swapView } from "../../lib/swaps/swap-view";
import { route as listSwapsRoute } from "../swaps/list-swaps";
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
  verbQuery,
} from "./listing";
import { notFoundPage } from "./not-found";
import { DASHBOARD_PATH, type DashboardContext } from "./request";
import { commonText } from "./texts";

const SWAPS_PATH = `${DASHBOARD_PATH}/swaps`;

const TEXT = {
  es: {
    title: "Swaps",
    intro:
      "Los swaps confirmados de esta integración, del primero confirmado al último, tal como los lista GET /api/integrations/swaps. Un swap preparado y no confirmado no aparece aquí.",
    filters: "Filtros",
    since: "Confirmados desde (UTC)",
    caption: "Swaps confirmados",
    swap: "Swap",
    pair: "Par",
    amountIn: "Entrega",
    amountOut: "Recibe",
    hash: "Hash de la transacción",
    confirmed: "Confirmado",
    none: "No hay swaps confirmados con estos filtros.",
    detailTitle: "Swap {id}",
    facts: "Datos del swap",
    wallet: "Wallet",
    amountInPrepared: "Monto preparado",
    amountInSwapped: "Monto entregado",
    expectedOut: "Esperado",
    minOut: "Mínimo",
    received: "Recibido",
    slippage: "Deslizamiento máximo",
    chain: "Cadena",
    block: "Bloque",
    expires: "Vence (si no se confirma)",
    timeline: "Línea de tiempo",
    prepared: "Swap preparado",
    confirmedEntry: "Swap confirmado por su hash",
    notConfirmed: "Aún no confirmado.",
    back: "Volver a los swaps",
  },
  en: {
    title: "Swaps",
    intro:
      "This integration's confirmed swaps, first confirmed first, as GET /api/integrations/swaps lists them. A swap prepared and never confirmed is not listed.",
    filters: "Filters",
    since: "Confirmed since (UTC)",
    caption: "Confirmed swaps",
    swap: "Swap",
    pair: "Pair",
    amountIn: "Gives",
    amountOut: "Gets",
    hash: "Transaction hash",
    confirmed: "Confirmed",
    none: "No confirmed swaps match these filters.",
    detailTitle: "Swap {id}",
    facts: "Swap facts",
    wallet: "Wallet",
    amountInPrepared: "Prepared amount",
    amountInSwapped: "Amount given",
    expectedOut: "Expected",
    minOut: "Minimum",
    received: "Received",
    slippage: "Maximum slippage",
    chain: "Chain",
    block: "Block",
    expires: "Expires (unless confirmed)",
    timeline: "Timeline",
    prepared: "Swap prepared",
    confirmedEntry: "Swap confirmed by its hash",
    notConfirmed: "Not confirmed yet.",
    back: "Back to the swaps",
  },
} as const;

type SwapsText = (typeof TEXT)[Language];
const LIST_QUERY = listSwapsRoute.request.query;
const FIELDS = ["since", "limit", "cursor"] as const;

/** Atomic units (as the swap view gives them) as a decimal string of the token: exact, no float. */
function tokens(units: string | null, token: TokenSymbol): string | null {
  return units === null ? null : formatAmount(BigInt(units), TOKEN_DECIMALS[token]);
}

/**
 * GET /dashboard/swaps: the chosen integration's confirmed swaps through the API's own verb and
 * query rules; GET /dashboard/swaps/{intentId}: one swap, prepared or confirmed.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(SWAPS_PATH, async (c) => {
    const scope = await integrationScope(c);
    if (!scope) return notFoundPage(c, { section: "swaps", back: SWAPS_PATH });
    const { all, current, partner } = scope;
    const language = c.get("dashboard").language;
    const t = TEXT[language];
    const filters = listFilters(c);
    const checked = checkedQuery(LIST_QUERY, filters, FIELDS, { integration_id: current?.id ?? "" });
    if (!checked.ok) c.status(400);
    let page: { swaps: SwapView[]; nextCursor: string | null } | undefined;
    if (partner && checked.ok) {
      const { integration_id: integrationId, ...query } = checked.query;
      page = await listSwaps(partner, { integrationId, ...verbQuery(query) });
    }
    return renderPage(c, {
      title: t.title,
      section: "swaps",
      integrations: { all, current },
      children: current ? (
        <>
          <p>{t.intro}</p>
          <SwapFilters language={language} integrationId={current.id} filters={filters} />
          {checked.ok ? null : <ErrorNote c={c} error={checked.error} />}
          {page ? (
            <>
              {page.swaps.length === 0 ? (
                <p>{t.none}</p>
              ) : (
                <SwapTable c={c} t={t} swaps={page.swaps} integrationId={current.id} />
              )}
              <Pager
                c={c}
                path="/swaps"
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

  app.get(`${SWAPS_PATH}/:intentId`, async (c) => {
    const scope = await integrationScope(c);
    const back = dashboardHref("/swaps", { integration: scope?.current?.id });
    if (!scope?.partner || !scope.current) return notFoundPage(c, { section: "swaps", back });
    let swap: SwapView;
    try {
      swap = swapView(await ownIntent(scope.partner, c.req.param("intentId")));
    } catch (error) {
      if (error instanceof ApiError && error.code === "SWAP_NOT_FOUND") {
        return notFoundPage(c, { section: "swaps", back });
      }
      throw error;
    }
    const language = c.get("dashboard").language;
    const t = TEXT[language];
    return renderPage(c, {
      title: t.detailTitle.replace("{id}", swap.intentId),
      section: "swaps",
      integrations: { all: scope.all, current: scope.current },
      children: <SwapDetail c={c} t={t} swap={swap} back={back} />,
    });
  });
}

function SwapFilters(props: { language: Language; integrationId: string; filters: ListFilters }) {
  const t = TEXT[props.language];
  return (
    <form method="get" action={SWAPS_PATH} class="filters" aria-label={t.filters}>
      <KeptFields integrationId={props.integrationId} filters={props.filters} />
      <SinceField language={props.language} filters={props.filters} label={t.since} />
      <button type="submit" class="secondary">
        {commonText(props.language).filter}
      </button>
    </form>
  );
}

function SwapTable(props: { c: DashboardContext; t: SwapsText; swaps: SwapView[]; integrationId: string }) {
  const { c, t } = props;
  const language = c.get("dashboard").language;
  return (
    <div class="table-wrap">
      <table>
        <caption>{t.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.swap}</th>
            <th scope="col">{t.pair}</th>
            <th scope="col" class="num">
              {t.amountIn}
            </th>
            <th scope="col" class="num">
              {t.amountOut}
            </th>
            <th scope="col">{t.hash}</th>
            <th scope="col">{t.confirmed}</th>
          </tr>
        </thead>
        <tbody>
          {props.swaps.map((swap) => (
            <tr data-swap-id={swap.intentId}>
              <td class="mono">
                <a href={dashboardHref(`/swaps/${swap.intentId}`, { integration: props.integrationId })}>
                  {swap.intentId}
                </a>
              </td>
              <td>{`${swap.tokenIn} → ${swap.tokenOut}`}</td>
              <td class="num">
                <Amount
                  value={tokens(swap.amountInSwapped ?? swap.amountIn, swap.tokenIn)}
                  token={swap.tokenIn}
                  language={language}
                />
              </td>
              <td class="num">
                <Amount
                  value={tokens(swap.amountOutReceived, swap.tokenOut)}
                  token={swap.tokenOut}
                  language={language}
                />
              </td>
              <td>
                <Hash value={swap.txHash} />
              </td>
              <td>
                <Time at={swap.confirmedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SwapDetail(props: { c: DashboardContext; t: SwapsText; swap: SwapView; back: string }) {
  const { c, t, swap } = props;
  const language = c.get("dashboard").language;
  const services = c.get("services");
  const common = commonText(language);
  const amount = (units: string | null, token: TokenSymbol) => (
    <Amount value={tokens(units, token)} token={token} language={language} />
  );
  return (
    <>
      <p>
        <a href={props.back}>{t.back}</a>
      </p>
      <section class="card" aria-labelledby="swap-facts">
        <h2 id="swap-facts">{t.facts}</h2>
        <dl class="facts">
          <dt>{common.status}</dt>
          <dd>
            <StatusPill status={swap.status} />
          </dd>
          <dt>{t.pair}</dt>
          <dd>{`${swap.tokenIn} → ${swap.tokenOut}`}</dd>
          <dt>{t.wallet}</dt>
          <dd>
            <Hash value={swap.wallet} />
          </dd>
          <dt>{t.amountInPrepared}</dt>
          <dd>{amount(swap.amountIn, swap.tokenIn)}</dd>
          <dt>{t.amountInSwapped}</dt>
          <dd>{amount(swap.amountInSwapped, swap.tokenIn)}</dd>
          <dt>{t.expectedOut}</dt>
          <dd>{amount(swap.expectedAmountOut, swap.tokenOut)}</dd>
          <dt>{t.minOut}</dt>
          <dd>{amount(swap.minAmountOut, swap.tokenOut)}</dd>
          <dt>{t.received}</dt>
          <dd>{amount(swap.amountOutReceived, swap.tokenOut)}</dd>
          <dt>{t.slippage}</dt>
          <dd>{`${swap.slippageBps} bps`}</dd>
          <dt>{t.chain}</dt>
          <dd>{chainLabel(services, swap.chainId)}</dd>
          <dt>{t.hash}</dt>
          <dd>
            <Hash value={swap.txHash} />
          </dd>
          <dt>{t.block}</dt>
          <dd class="mono">{swap.blockNumber ?? "—"}</dd>
          <dt>{common.created}</dt>
          <dd>
            <Time at={swap.createdAt} />
          </dd>
          <dt>{t.expires}</dt>
          <dd>
            <Time at={swap.expiresAt} />
          </dd>
          <dt>{t.confirmed}</dt>
          <dd>
            <Time at={swap.confirmedAt} />
          </dd>
        </dl>
      </section>

      <section class="card" aria-labelledby="swap-timeline">
        <h2 id="swap-timeline">{t.timeline}</h2>
        <ol class="timeline">
          <li>
            <Time at={swap.createdAt} /> · <strong>{t.prepared}</strong>
          </li>
          {swap.confirmedAt ? (
            <li>
              <Time at={swap.confirmedAt} /> · <strong>{t.confirmedEntry}</strong>
              {" · "}
              <span>{chainLabel(services, swap.chainId)}</span>
              {" · "}
              <Hash value={swap.txHash} />
            </li>
          ) : null}
        </ol>
        {swap.confirmedAt ? null : <p>{t.notConfirmed}</p>}
      </section>
    </>
  );
}
