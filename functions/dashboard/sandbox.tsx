import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  DASHBOARD_PATH,
  type DashboardContext,
  formField,
  requirePermission,
} from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import { validationError } from "../../lib/http/validation";
import { ApiError } from "../../lib/kernel/errors/api-error";
import type { Language } from "../../lib/kernel/errors/error-body";
import { ERRORS } from "../../lib/kernel/errors/registry";
import { TOKEN_SYMBOLS } from "../../lib/kernel/money";
import { type FaucetResult, fundFromFaucet } from "../../lib/sandbox/faucet";
import { describeSandboxNetwork, type SandboxChainView } from "../../lib/sandbox/network";
import { route as faucetRoute } from "../sandbox/faucet";
import { Card } from "./card";
import { DataTable } from "./data-table";
import { Fact } from "./fact";
import { ErrorNote } from "./feedback";
import { Amount, groupedDecimal, Hash } from "./format";
import { type IntegrationScope, integrationScope } from "./integration";
import { CsrfField, dashboardHref, renderPage } from "./layout";
import { chainLabel } from "./listing";
import { notFoundPage } from "./not-found";

const SANDBOX_PATH = `${DASHBOARD_PATH}/sandbox`;
const FAUCET_FIELDS = ["address", "chainId", "token", "amount"] as const;
type FaucetForm = Record<(typeof FAUCET_FIELDS)[number], string>;

const TEXT = {
  es: {
    title: "Sandbox",
    intro:
      "Las cadenas locales del modo de prueba, con sus contratos, y un grifo que acuña tokens de prueba con transacciones reales (GET /api/integrations/sandbox/network y POST /api/integrations/sandbox/faucet).",
    network: "La red",
    role: "Papel",
    roles: { source: "origen", intermediate: "intermedia", destination: "destino" },
    chainId: "Id de la cadena",
    rpcUrl: "URL RPC",
    cctpDomain: "Dominio CCTP",
    confirmations: "Confirmaciones exigidas",
    contracts: "Contratos de {chain}",
    contract: "Contrato",
    address: "Dirección",
    exchanges: "Intercambios de Mento",
    exchangeId: "Id del intercambio",
    tokens: "Tokens",
    noChains: "Las cadenas locales no están corriendo.",
    faucet: "Grifo",
    faucetIntro:
      "Acuña el token a la dirección y le deja al menos 1 de gas nativo. Hasta 100.000 USDC, USDT o USDm, o 400.000.000 COPm por vez.",
    recipient: "Dirección que recibe",
    recipientHint: "Una dirección EVM (0x y 40 caracteres hexadecimales).",
    chain: "Cadena",
    token: "Token",
    amount: "Monto (en tokens enteros, p. ej. 250.5)",
    send: "Acuñar",
    result: "Listo: {amount} acuñados en {chain}",
    balance: "Saldo de la dirección",
    tokenAddress: "Contrato del token",
    mintTx: "Transacción de acuñación",
    gasTx: "Transacción de gas",
    noGas: "No hizo falta: ya tenía gas.",
  },
  en: {
    title: "Sandbox",
    intro:
      "The test mode's local chains, with their contracts, and a faucet that mints test tokens with real transactions (GET /api/integrations/sandbox/network and POST /api/integrations/sandbox/faucet).",
    network: "The network",
    role: "Role",
    roles: { source: "source", intermediate: "intermediate", destination: "destination" },
    chainId: "Chain id",
    rpcUrl: "RPC URL",
    cctpDomain: "CCTP domain",
    confirmations: "Confirmations required",
    contracts: "{chain} contracts",
    contract: "Contract",
    address: "Address",
    exchanges: "Mento exchanges",
    exchangeId: "Exchange id",
    tokens: "Tokens",
    noChains: "The local chains are not running.",
    faucet: "Faucet",
    faucetIntro:
      "Mints the token to the address and leaves it at least 1 native gas. Up to 100,000 USDC, USDT or USDm, or 400,000,000 COPm at a time.",
    recipient: "Receiving address",
    recipientHint: "An EVM address (0x and 40 hexadecimal characters).",
    chain: "Chain",
    token: "Token",
    amount: "Amount (in whole tokens, e.g. 250.5)",
    send: "Mint",
    result: "Done: {amount} minted on {chain}",
    balance: "The address's balance",
    tokenAddress: "Token contract",
    mintTx: "Mint transaction",
    gasTx: "Gas transaction",
    noGas: "Not needed: it had gas already.",
  },
} as const;

type SandboxText = (typeof TEXT)[Language];
const FAUCET_BODY = faucetRoute.request.body.content["application/json"].schema;

/**
 * GET /dashboard/sandbox: the sandbox network and the faucet form; POST /dashboard/sandbox: the
 * faucet, through the same schema and verb as its API route. Mock mode only: in live mode both are
 * the 404 page, as the API's sandbox routes are 404.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(SANDBOX_PATH, requirePermission("sandbox:write"), async (c) => {
    const scope = await integrationScope(c);
    if (!scope || c.get("services").config.MODE !== "mock") {
      return notFoundPage(c, { section: "sandbox", back: DASHBOARD_PATH });
    }
    return sandboxPage(c, scope, {});
  });

  app.post(SANDBOX_PATH, requirePermission("sandbox:write"), async (c) => {
    const scope = await integrationScope(c);
    if (!scope || c.get("services").config.MODE !== "mock") {
      return notFoundPage(c, { section: "sandbox", back: DASHBOARD_PATH });
    }
    const form = Object.fromEntries(
      await Promise.all(FAUCET_FIELDS.map(async (name) => [name, (await formField(c, name)).trim()])),
    ) as FaucetForm;
    try {
      // The API takes the chain id as a number: a form's digits become one, anything else goes to
      // the schema as typed, so it is refused with the API's own body.chainId error.
      const chainId = /^\d+$/.test(form.chainId) ? Number(form.chainId) : form.chainId;
      const parsed = FAUCET_BODY.safeParse({ ...form, chainId });
      if (!parsed.success) throw validationError("json", parsed.error.issues);
      const result = await fundFromFaucet(c.get("services"), parsed.data);
      return sandboxPage(c, scope, { form, result });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      c.status(ERRORS[error.code].status);
      return sandboxPage(c, scope, { form, error });
    }
  });
}

function sandboxPage(
  c: DashboardContext,
  scope: IntegrationScope,
  props: { form?: FaucetForm; result?: FaucetResult; error?: ApiError },
) {
  const language = c.get("dashboard").language;
  const t = TEXT[language];
  const { chains } = describeSandboxNetwork(c.get("services"));
  return renderPage(c, {
    title: t.title,
    section: "sandbox",
    integrations: { all: scope.all, current: scope.current },
    children: (
      <>
        <p>{t.intro}</p>
        <Card id="faucet-title" title={t.faucet}>
          <p>{t.faucetIntro}</p>
          <ErrorNote c={c} error={props.error} />
          <Problems error={props.error} />
          {props.result ? <FaucetDone c={c} t={t} result={props.result} /> : null}
          <FaucetForm c={c} t={t} chains={chains} form={props.form} integrationId={scope.current?.id} />
        </Card>
        <h2>{t.network}</h2>
        {chains.length === 0 ? <p class="note">{t.noChains}</p> : null}
        {chains.map((chain) => (
          <ChainCard t={t} chain={chain} />
        ))}
      </>
    ),
  });
}

function FaucetForm(props: {
  c: DashboardContext;
  t: SandboxText;
  chains: SandboxChainView[];
  form: FaucetForm | undefined;
  integrationId: string | undefined;
}) {
  const { t, form } = props;
  const chainId =
    form?.chainId || String(props.chains.find((chain) => chain.role === "destination")?.chainId);
  const token = form?.token || "USDC";
  return (
    <form method="post" action={dashboardHref("/sandbox", { integration: props.integrationId })}>
      <CsrfField c={props.c} />
      <label for="faucet-address">{t.recipient}</label>
      <input
        id="faucet-address"
        name="address"
        type="text"
        required
        autocomplete="off"
        spellcheck={false}
        placeholder="0x…"
        aria-describedby="faucet-address-hint"
        value={form?.address ?? ""}
      />
      <p id="faucet-address-hint">{t.recipientHint}</p>
      <label for="faucet-chain">{t.chain}</label>
      {/* By id, not by role: a role may have several chains (the two source chains). */}
      <select id="faucet-chain" name="chainId">
        {props.chains.map((chain) => (
          <option value={chain.chainId} selected={String(chain.chainId) === chainId}>
            {`${chain.name} (${chain.chainId}) · ${t.roles[chain.role]}`}
          </option>
        ))}
      </select>
      <label for="faucet-token">{t.token}</label>
      <select id="faucet-token" name="token">
        {TOKEN_SYMBOLS.map((symbol) => (
          <option value={symbol} selected={symbol === token}>
            {symbol}
          </option>
        ))}
      </select>
      <label for="faucet-amount">{t.amount}</label>
      <input
        id="faucet-amount"
        name="amount"
        type="text"
        inputmode="decimal"
        required
        autocomplete="off"
        value={form?.amount ?? ""}
      />
      <div class="actions">
        <button type="submit">{t.send}</button>
      </div>
    </form>
  );
}

/** The refused fields as the API lists them (`body.chainId`…): the message alone does not say which. */
function Problems(props: { error: ApiError | undefined }) {
  const problems = props.error?.options.problems ?? [];
  if (problems.length === 0) return null;
  return (
    <ul>
      {problems.map((problem) => (
        <li>
          <code>{problem.field}</code> {problem.problem}
        </li>
      ))}
    </ul>
  );
}

function FaucetDone(props: { c: DashboardContext; t: SandboxText; result: FaucetResult }) {
  const { t, result } = props;
  const language = props.c.get("dashboard").language;
  const chain = chainLabel(props.c.get("services"), result.chainId);
  return (
    <div class="note" role="status">
      <p>
        <strong>
          {t.result
            .replace("{chain}", chain)
            .replace("{amount}", `${groupedDecimal(result.amount, language)} ${result.token}`)}
        </strong>
      </p>
      <dl class="facts">
        <Fact term={t.recipient}>
          <Hash value={result.address} />
        </Fact>
        <Fact term={t.balance}>
          <Amount value={result.balance} token={result.token} language={language} />
        </Fact>
        <Fact term={t.tokenAddress}>
          <Hash value={result.tokenAddress} />
        </Fact>
        <Fact term={t.mintTx}>
          <Hash value={result.mintTxHash} />
        </Fact>
        <Fact term={t.gasTx}>{result.gasTxHash ? <Hash value={result.gasTxHash} /> : t.noGas}</Fact>
      </dl>
    </div>
  );
}

function ChainCard(props: { t: SandboxText; chain: SandboxChainView }) {
  const { t, chain } = props;
  const contracts = Object.entries(chain.contracts).flatMap(([name, address]) =>
    typeof address === "string" ? [[name, address] as const] : [],
  );
  const nameOf = (address: string) =>
    contracts.find(([, candidate]) => candidate.toLowerCase() === address.toLowerCase())?.[0];
  return (
    <Card id={`chain-${chain.chainId}`} level={3} title={`${chain.name} (${chain.chainId})`}>
      <dl class="facts">
        <Fact term={t.role}>{t.roles[chain.role]}</Fact>
        <Fact term={t.chainId} mono>
          {chain.chainId}
        </Fact>
        <Fact term={t.rpcUrl} mono>
          {chain.rpcUrl}
        </Fact>
        {chain.cctpDomain !== undefined ? (
          <Fact term={t.cctpDomain} mono>
            {chain.cctpDomain}
          </Fact>
        ) : null}
        <Fact term={t.confirmations}>{chain.confirmations}</Fact>
      </dl>
      <DataTable
        caption={t.contracts.replace("{chain}", chain.name)}
        rows={contracts}
        columns={[
          { head: t.contract, cell: ([name]) => <code>{name}</code> },
          { head: t.address, cell: ([, address]) => <Hash value={address} /> },
        ]}
      />
      {chain.exchanges && chain.exchanges.length > 0 ? (
        <DataTable
          caption={t.exchanges}
          rows={chain.exchanges}
          columns={[
            { head: t.exchangeId, cell: (exchange) => <Hash value={exchange.exchangeId} /> },
            {
              head: t.tokens,
              cell: (exchange) =>
                exchange.tokens.map((token) => (
                  <span style="display:block">
                    {nameOf(token) ? <code>{`${nameOf(token)} `}</code> : null}
                    <Hash value={token} />
                  </span>
                )),
            },
          ]}
        />
      ) : null}
    </Card>
  );
}
