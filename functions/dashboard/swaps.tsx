import type { OpenAPIHono } from "@hono/zod-openapi";
import { DASHBOARD_PATH } from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import type { Language } from "../../lib/kernel/errors/error-body";
import { formatAmount, TOKEN_DECIMALS, type TokenSymbol } from "../../lib/kernel/money";
import { ownIntent } from "../../lib/swaps/confirm-swap";
import { listSwaps } from "../../lib/swaps/list-swaps";
import { type SwapView, swapView } from "../../lib/swaps/swap-view";
import { listSwapsQuery } from "../swaps/schemas";
import { Card } from "./card";
import { type DetailPage, type DetailView, detailPage } from "./detail-page";
import { Fact } from "./fact";
import { Amount, Hash, StatusPill, Time } from "./format";
import { dashboardHref } from "./layout";
import { type ListPage, listPage } from "./list-page";
import { chainLabel, SinceField, verbQuery } from "./listing";
import { commonText } from "./texts";
import { TimelineCard } from "./timeline";

const SWAPS_PATH = `${DASHBOARD_PATH}/swaps`;

const TEXT = {
  es: {
    title: "Swaps",
    intro:
      "Los swaps confirmados de esta integración, del primero confirmado al último, tal como los lista GET /api/integrations/swaps. Un swap preparado y no confirmado no aparece aquí.",
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
    prepared: "Swap preparado",
    confirmedEntry: "Swap confirmado por su hash",
    notConfirmed: "Aún no confirmado.",
    back: "Volver a los swaps",
  },
  en: {
    title: "Swaps",
    intro:
      "This integration's confirmed swaps, first confirmed first, as GET /api/integrations/swaps lists them. A swap prepared and never confirmed is not listed.",
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
    prepared: "Swap prepared",
    confirmedEntry: "Swap confirmed by its hash",
    notConfirmed: "Not confirmed yet.",
    back: "Back to the swaps",
  },
} as const;

type SwapsText = (typeof TEXT)[Language];
const LIST_QUERY = listSwapsQuery;

/** Atomic units (as the swap view gives them) as a decimal string of the token: exact, no float. */
function tokens(units: string | null, token: TokenSymbol): string | null {
  return units === null ? null : formatAmount(BigInt(units), TOKEN_DECIMALS[token]);
}

/**
 * GET /dashboard/swaps: the chosen integration's confirmed swaps through the API's own verb and
 * query rules; GET /dashboard/swaps/{intentId}: one swap, prepared or confirmed.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(SWAPS_PATH, (c) => listPage(c, SWAP_LIST));
  app.get(`${SWAPS_PATH}/:intentId`, (c) => detailPage(c, SWAP_DETAIL, c.req.param("intentId")));
}

const SWAP_LIST: ListPage<typeof LIST_QUERY, SwapView, SwapsText> = {
  section: "swaps",
  text: TEXT,
  schema: LIST_QUERY,
  fields: ["since", "limit", "cursor"],
  // The API lists one integration's swaps: the chosen one's.
  fixed: (integrationId) => ({ integration_id: integrationId ?? "" }),
  async load(partner, query) {
    const { integration_id: integrationId, ...rest } = query;
    const { swaps, nextCursor } = await listSwaps(partner, { integrationId, ...verbQuery(rest) });
    return { rows: swaps, nextCursor };
  },
  filterFields: ({ language, t, filters }) => (
    <SinceField language={language} filters={filters} label={t.since} />
  ),
  columns: ({ language, t, integrationId }) => [
    {
      head: t.swap,
      kind: "mono",
      cell: (swap) => (
        <a href={dashboardHref(`/swaps/${swap.intentId}`, { integration: integrationId })}>{swap.intentId}</a>
      ),
    },
    { head: t.pair, cell: (swap) => `${swap.tokenIn} → ${swap.tokenOut}` },
    {
      head: t.amountIn,
      kind: "num",
      cell: (swap) => (
        <Amount
          value={tokens(swap.amountInSwapped ?? swap.amountIn, swap.tokenIn)}
          token={swap.tokenIn}
          language={language}
        />
      ),
    },
    {
      head: t.amountOut,
      kind: "num",
      cell: (swap) => (
        <Amount
          value={tokens(swap.amountOutReceived, swap.tokenOut)}
          token={swap.tokenOut}
          language={language}
        />
      ),
    },
    { head: t.hash, cell: (swap) => <Hash value={swap.txHash} /> },
    { head: t.confirmed, cell: (swap) => <Time at={swap.confirmedAt} /> },
  ],
  rowAttributes: (swap) => ({ "data-swap-id": swap.intentId }),
};

const SWAP_DETAIL: DetailPage<SwapView, SwapsText> = {
  section: "swaps",
  text: TEXT,
  missing: "SWAP_NOT_FOUND",
  read: async (partner, intentId) => swapView(await ownIntent(partner, intentId)),
  id: (swap) => swap.intentId,
  body: SwapDetail,
};

function SwapDetail({ c, language, t, item: swap }: DetailView<SwapView, SwapsText>) {
  const services = c.get("services");
  const common = commonText(language);
  const amount = (units: string | null, token: TokenSymbol) => (
    <Amount value={tokens(units, token)} token={token} language={language} />
  );
  return (
    <>
      <Card id="swap-facts" title={t.facts}>
        <dl class="facts">
          <Fact term={common.status}>
            <StatusPill status={swap.status} />
          </Fact>
          <Fact term={t.pair}>{`${swap.tokenIn} → ${swap.tokenOut}`}</Fact>
          <Fact term={t.wallet}>
            <Hash value={swap.wallet} />
          </Fact>
          <Fact term={t.amountInPrepared}>{amount(swap.amountIn, swap.tokenIn)}</Fact>
          <Fact term={t.amountInSwapped}>{amount(swap.amountInSwapped, swap.tokenIn)}</Fact>
          <Fact term={t.expectedOut}>{amount(swap.expectedAmountOut, swap.tokenOut)}</Fact>
          <Fact term={t.minOut}>{amount(swap.minAmountOut, swap.tokenOut)}</Fact>
          <Fact term={t.received}>{amount(swap.amountOutReceived, swap.tokenOut)}</Fact>
          <Fact term={t.slippage}>{`${swap.slippageBps} bps`}</Fact>
          <Fact term={t.chain}>{chainLabel(services, swap.chainId)}</Fact>
          <Fact term={t.hash}>
            <Hash value={swap.txHash} />
          </Fact>
          <Fact term={t.block} mono>
            {swap.blockNumber ?? "—"}
          </Fact>
          <Fact term={common.created}>
            <Time at={swap.createdAt} />
          </Fact>
          <Fact term={t.expires}>
            <Time at={swap.expiresAt} />
          </Fact>
          <Fact term={t.confirmed}>
            <Time at={swap.confirmedAt} />
          </Fact>
        </dl>
      </Card>

      <TimelineCard
        language={language}
        id="swap-timeline"
        note={swap.confirmedAt ? null : <p>{t.notConfirmed}</p>}
      >
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
      </TimelineCard>
    </>
  );
}
