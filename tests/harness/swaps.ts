import { type Account, type Hex, isHex, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import {
  DEFAULT_RATES,
  DEFAULT_TRADING_LIMIT,
  type ExchangePair,
  exchangeIdOf,
  fundFreshWallet,
  mentoBrokerAdminAbi,
  repriceMentoPool,
  type SandboxChain,
  sandboxChainOf,
  sandboxOperator,
  sandboxPublicClient,
  sandboxWalletClient,
  type TradingLimitConfig,
} from "../../dev/chains";
import { type PrepareSwapResponse, route as prepareSwapRoute } from "../../functions/swaps/prepare-swap";
import type { ErrorResponseBody } from "../../lib/http/openapi-errors";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { TOKEN_DECIMALS, type TokenSymbol } from "../../lib/kernel/money";
import type { Harness } from "./app";
import { bodyOf } from "./bodies";
import { partnerRequest } from "./settlement";
import type { Tenant } from "./tenants";

/** `value` with `keys` checked to hold hex, typed as viem's Hex (the route's schema says string). */
function withHex<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> & Record<K, Hex> {
  for (const key of keys) expect(isHex(value[key]), `${String(key)}: ${String(value[key])}`).toBe(true);
  return value as Omit<T, K> & Record<K, Hex>;
}

/** What POST /api/integrations/swaps/prepare answers, its addresses and calldata checked as hex. */
function preparedWithHex(prepared: PrepareSwapResponse) {
  const { quote, transaction, approval, ...rest } = prepared;
  return {
    ...rest,
    quote: {
      ...quote,
      path: quote.path.map((step) => withHex(step, "exchangeProvider", "exchangeId", "assetIn", "assetOut")),
    },
    transaction: withHex(transaction, "target", "calldata", "token"),
    ...(approval ? { approval: withHex(approval, "target", "calldata") } : {}),
  };
}

/** What POST /api/integrations/swaps/prepare answers, typed for viem. */
export type PreparedSwap = ReturnType<typeof preparedWithHex>;

export type ErrorBody = ErrorResponseBody;

/** Atomic units of `whole` tokens ("12.5" USDC → 12500000n). */
export const unitsOf = (symbol: TokenSymbol, whole: string) => parseUnits(whole, TOKEN_DECIMALS[symbol]);

export function destinationOf(h: Harness): SandboxChain {
  if (!h.network) throw new Error("the harness has no chains");
  return sandboxChainOf(h.network, "destination");
}

export function tokenAddress(h: Harness, symbol: TokenSymbol): Hex {
  const key = ({ USDC: "usdc", USDT: "usdt", USDm: "usdm", COPm: "copm" } as const)[symbol];
  const address = destinationOf(h).contracts[key];
  if (!address) throw new Error(`no ${symbol} on the destination chain`);
  return address;
}

export const reader = (h: Harness) => sandboxPublicClient(destinationOf(h));

/** A fresh wallet with gas, holding `holdings` (whole tokens) minted by the sandbox operator. */
export function swapWallet(
  h: Harness,
  holdings: Partial<Record<TokenSymbol, string>> = {},
): Promise<Account> {
  return fundFreshWallet(
    destinationOf(h),
    Object.entries(holdings).map(([symbol, whole]) => ({
      token: tokenAddress(h, symbol as TokenSymbol),
      amount: unitsOf(symbol as TokenSymbol, whole as string),
    })),
  );
}

/** An address nobody holds a key to, for requests that never reach the chain's wallets. */
export const anyAddress = () => privateKeyToAccount(generatePrivateKey()).address;

export function prepareRequest(h: Harness, tenant: Tenant, body: unknown) {
  return partnerRequest(h, tenant, "/api/integrations/swaps/prepare", { method: "POST", body });
}

export async function prepareSwap(h: Harness, tenant: Tenant, body: Record<string, unknown>) {
  return preparedWithHex(await bodyOf(await prepareRequest(h, tenant, body), prepareSwapRoute, 201));
}

export function confirmRequest(h: Harness, tenant: Tenant, intentId: string, body: unknown) {
  return partnerRequest(h, tenant, `/api/integrations/swaps/${intentId}/confirm`, { method: "POST", body });
}

export function getSwapRequest(h: Harness, tenant: Tenant, intentId: string) {
  return partnerRequest(h, tenant, `/api/integrations/swaps/${intentId}`);
}

export function listRequest(h: Harness, tenant: Tenant, query: Record<string, string | number>) {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return partnerRequest(h, tenant, `/api/integrations/swaps?${search}`);
}

/** An error body without its per-request id, to compare two refusals. */
export const withoutRequestId = (body: ErrorBody) => ({ ...body.error, requestId: undefined });

/** Sends one transaction from `account` and waits for its receipt (a revert is mined, not thrown). */
export async function sendFrom(
  h: Harness,
  account: Account,
  request: { to: Hex; data: Hex; gas?: bigint },
): Promise<{ hash: Hex; status: "success" | "reverted" }> {
  const hash = await sandboxWalletClient(destinationOf(h), account).sendTransaction(request);
  const receipt = await reader(h).waitForTransactionReceipt({ hash });
  return { hash, status: receipt.status };
}

/** `approve(spender, amount)` of `token` from `account`, mined. */
export async function approve(h: Harness, account: Account, token: Hex, spender: Hex, amount: bigint) {
  const hash = await sandboxWalletClient(destinationOf(h), account).writeContract({
    address: token,
    abi: erc20Abi,
    functionName: "approve",
    args: [spender, amount],
  });
  expect((await reader(h).waitForTransactionReceipt({ hash })).status).toBe("success");
}

/** The wallet sends the approval when asked, then the swap exactly as prepared; the swap's hash. */
export async function sendPrepared(h: Harness, account: Account, prepared: PreparedSwap): Promise<Hex> {
  if (prepared.approval) {
    const approval = await sendFrom(h, account, {
      to: prepared.approval.target,
      data: prepared.approval.calldata,
    });
    expect(approval.status).toBe("success");
  }
  const sent = await sendFrom(h, account, {
    to: prepared.transaction.target,
    data: prepared.transaction.calldata,
  });
  expect(sent.status).toBe("success");
  return sent.hash;
}

export const rpc = (h: Harness, method: string, params: unknown[] = []) =>
  reader(h).request({ method, params } as never) as Promise<unknown>;

/** Mines `blocks` empty blocks on the destination chain. */
export const mine = (h: Harness, blocks: number) => rpc(h, "hardhat_mine", [`0x${blocks.toString(16)}`]);

/** The sandbox operator's levers on the destination's Mento: pricing, trading limits, providers. */
export function mentoOperator(h: Harness) {
  const chain = destinationOf(h);
  const operator = sandboxWalletClient(chain, sandboxOperator);
  const { broker, exchangeProvider } = chain.contracts;
  if (!broker || !exchangeProvider) throw new Error("no Mento on the destination chain");
  const mined = async (hash: Promise<Hex>) => {
    const receipt = await reader(h).waitForTransactionReceipt({ hash: await hash });
    expect(receipt.status).toBe("success");
  };
  const configure = (pair: ExchangePair, token: TokenSymbol, config: TradingLimitConfig) =>
    mined(
      operator.writeContract({
        address: broker,
        abi: mentoBrokerAdminAbi,
        functionName: "configureTradingLimit",
        args: [exchangeIdOf(pair), tokenAddress(h, token), config],
      }),
    );
  return {
    /** Re-lists one pool at a rate (whole asset1 per asset0, 18 decimals) and spread (18 decimals). */
    setPricing: (pair: ExchangePair, rate: bigint, spread: bigint) =>
      repriceMentoPool(chain, pair, { rate, spread }),
    restorePricing: (pair: ExchangePair) =>
      repriceMentoPool(chain, pair, {
        rate: pair === "USDm/COPm" ? DEFAULT_RATES.copmPerUsdm : 10n ** 18n,
        spread: DEFAULT_RATES.spread,
      }),
    /** Switching the limit off first forgets earlier flows; then `config` starts from zero. */
    async setLimit(pair: ExchangePair, token: TokenSymbol, config: TradingLimitConfig) {
      await configure(pair, token, { ...DEFAULT_TRADING_LIMIT, flags: 0 });
      await configure(pair, token, config);
    },
    async restoreLimit(pair: ExchangePair, token: TokenSymbol) {
      await configure(pair, token, { ...DEFAULT_TRADING_LIMIT, flags: 0 });
      await configure(pair, token, DEFAULT_TRADING_LIMIT);
    },
    /** Takes the exchange provider off the broker: no exchange prices any pair. */
    async removeExchangeProvider() {
      const providers = await reader(h).readContract({
        address: broker,
        abi: mentoBrokerAdminAbi,
        functionName: "getExchangeProviders",
      });
      const index = providers.findIndex((p) => p.toLowerCase() === exchangeProvider.toLowerCase());
      expect(index).toBeGreaterThanOrEqual(0);
      await mined(
        operator.writeContract({
          address: broker,
          abi: mentoBrokerAdminAbi,
          functionName: "removeExchangeProvider",
          args: [exchangeProvider, BigInt(index)],
        }),
      );
    },
    restoreExchangeProvider: () =>
      mined(
        operator.writeContract({
          address: broker,
          abi: mentoBrokerAdminAbi,
          functionName: "addExchangeProvider",
          args: [exchangeProvider],
        }),
      ),
  };
}

/**
 * A 10 USDC → COPm swap the owner prepared and the wallet sent and mined: its request body (for
 * look-alike intents of the same wallet, pair and amount) and its hash.
 */
export async function minedSwap(h: Harness, owner: Tenant) {
  const wallet = await swapWallet(h, { USDC: "10" });
  const body = {
    wallet: wallet.address,
    tokenIn: "USDC",
    tokenOut: "COPm",
    amountIn: unitsOf("USDC", "10").toString(),
  };
  const prepared = await prepareSwap(h, owner, body);
  const hash = await sendPrepared(h, wallet, prepared);
  return { body, prepared, hash };
}

/** A USDm → COPm swap of `owner`'s, prepared, sent from a fresh wallet and confirmed: its id and hash. */
export async function confirmedSwap(
  h: Harness,
  owner: Tenant,
  usdm = "2",
): Promise<{ intentId: string; hash: Hex }> {
  const wallet = await swapWallet(h, { USDm: usdm });
  const prepared = await prepareSwap(h, owner, {
    wallet: wallet.address,
    tokenIn: "USDm",
    tokenOut: "COPm",
    amountIn: unitsOf("USDm", usdm).toString(),
  });
  const hash = await sendPrepared(h, wallet, prepared);
  const confirmed = await confirmRequest(h, owner, prepared.intentId, { txHash: hash });
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  return { intentId: prepared.intentId, hash };
}
