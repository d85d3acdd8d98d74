// The local BRE-B provider's HTTP API (docs/breb-provider.openapi.yaml), every route behind the Bearer key.

import type { IncomingMessage, ServerResponse } from "node:http";
import { BREB_TOKENS, type BrebPayoutRequest, type BrebToken } from "../../lib/payouts/breb-provider";
import { failureOf, HttpError, pathOf, presentsBearer, readBody, sendJson } from "../loopback-http";
import { DepositRefused } from "./chain";
import type { PayoutBook, PayoutDesk } from "./payouts";
import { reportOf } from "./payouts";
import type { Address } from "./types";

export interface ApiDependencies {
  apiKey: string;
  chainId: number;
  depositAddress: Address;
  rates: Record<BrebToken, string>;
  tokens: Record<BrebToken, Address>;
  book: PayoutBook;
  desk: PayoutDesk;
  checkDeposit(input: {
    token: Address;
    amount: bigint;
    txHash: `0x${string}`;
    logIndex?: number;
  }): Promise<void>;
}

/** A key starting with this is held by no account. */
const UNKNOWN_KEY_PREFIX = "0000";
/** An owner name containing this (any case) resolves to another holder. */
const MISMATCH_MARKER = "mismatch";
const MISMATCHED_HOLDER_NAME = "Titular Distinto";

const MAX_BODY_BYTES = 64 * 1024;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const WHOLE_NUMBER = /^\d+$/;

type Answer = { status: number; json: unknown };

export function createApiHandler(deps: ApiDependencies): (req: IncomingMessage, res: ServerResponse) => void {
  // Submissions run one at a time, so two with the same new payoutId cannot both open a payout.
  let submitting: Promise<unknown> = Promise.resolve();
  const serialized = <T>(work: () => Promise<T>): Promise<T> => {
    const next = submitting.catch(() => {}).then(work);
    submitting = next;
    return next;
  };

  return (req, res) => {
    route(deps, req, serialized)
      .then((answer) => send(res, answer))
      .catch((error: unknown) => {
        const { status, message } = failureOf(error);
        send(res, { status, json: { error: message } });
      });
  };
}

async function route(
  deps: ApiDependencies,
  req: IncomingMessage,
  serialized: <T>(work: () => Promise<T>) => Promise<T>,
): Promise<Answer> {
  if (!presentsBearer(req, deps.apiKey)) throw new HttpError(401, "invalid or missing bearer token");
  const path = pathOf(req);
  const method = req.method ?? "GET";

  const rateToken = match(path, /^\/rates\/([^/]+)$/);
  if (method === "GET" && rateToken !== undefined) {
    if (!isToken(rateToken)) throw new HttpError(404, `no rate for ${rateToken}: tokens are USDC and COPm`);
    return { status: 200, json: { token: rateToken, copPerUnit: deps.rates[rateToken] } };
  }
  if (method === "GET" && path === "/deposit-address") {
    const query = new URL(req.url ?? "/", "http://localhost").searchParams;
    const token = query.get("token") ?? "";
    const chainId = query.get("chainId") ?? "";
    if (!isToken(token)) throw new HttpError(400, "token must be USDC or COPm");
    if (!WHOLE_NUMBER.test(chainId)) throw new HttpError(400, "chainId must be a chain id");
    if (Number(chainId) !== deps.chainId) {
      throw new HttpError(
        404,
        `no deposit address on chain ${chainId}: deposits are taken on chain ${deps.chainId}`,
      );
    }
    return { status: 200, json: { address: deps.depositAddress } };
  }
  if (method === "POST" && path === "/keys/resolve") {
    const { breBKey, accountOwnerName } = objectOf(await readJson(req));
    if (typeof breBKey !== "string" || breBKey.trim() === "") throw new HttpError(400, "breBKey is required");
    if (typeof accountOwnerName !== "string" || accountOwnerName.trim() === "") {
      throw new HttpError(400, "accountOwnerName is required");
    }
    if (breBKey.startsWith(UNKNOWN_KEY_PREFIX)) return { status: 200, json: { found: false } };
    const holderName = accountOwnerName.toLowerCase().includes(MISMATCH_MARKER)
      ? MISMATCHED_HOLDER_NAME
      : accountOwnerName;
    return { status: 200, json: { found: true, holderName } };
  }
  if (method === "POST" && path === "/payouts") {
    const request = payoutRequestOf(await readJson(req));
    return serialized(() => submit(deps, request));
  }
  const refundOf = match(path, /^\/payouts\/([^/]+)\/refund$/);
  if (method === "POST" && refundOf !== undefined) {
    const request = payoutRequestOf(await readJson(req));
    if (request.payoutId !== refundOf) throw new HttpError(400, "payoutId differs from the path");
    return serialized(() => refund(deps, request));
  }
  const payoutId = match(path, /^\/payouts\/([^/]+)$/);
  if (method === "GET" && payoutId !== undefined) {
    const payout = deps.book.get(payoutId);
    if (!payout) throw new HttpError(404, `no payout ${payoutId}`);
    return { status: 200, json: reportOf(payout) };
  }
  throw new HttpError(404, `no route for ${method} ${path}`);
}

/** The existing payout for a known payoutId; otherwise the deposit is checked on the chain first. */
async function submit(deps: ApiDependencies, request: BrebPayoutRequest): Promise<Answer> {
  const existing = deps.book.get(request.payoutId);
  if (existing) return { status: 200, json: reportOf(existing) };
  await checkNewDeposit(deps, request);
  const payout = await deps.desk.open(request);
  return { status: 201, json: reportOf(payout) };
}

/**
 * Sends a deposit back instead of paying it: a payout not yet paid is failed now and refunded by
 * the desk; one already failed or refunded is answered as it is; a paid one is refused (422). A
 * deposit the provider never took as a payout is checked on the chain first, as a submission's is.
 */
async function refund(deps: ApiDependencies, request: BrebPayoutRequest): Promise<Answer> {
  const existing = deps.book.get(request.payoutId);
  if (existing?.status === "completed") throw new HttpError(422, `payout ${request.payoutId} was paid`);
  if (existing) return { status: 200, json: reportOf(await deps.desk.returnDeposit(existing)) };
  await checkNewDeposit(deps, request);
  return { status: 200, json: reportOf(await deps.desk.openReturn(request)) };
}

async function checkNewDeposit(deps: ApiDependencies, request: BrebPayoutRequest): Promise<void> {
  if (request.chainId !== deps.chainId) {
    throw new HttpError(422, `deposits are taken on chain ${deps.chainId}, not ${request.chainId}`);
  }
  const taken = deps.book.byDeposit(request.depositTxHash, request.depositLogIndex);
  if (taken) {
    throw new HttpError(
      422,
      `the deposit transaction ${request.depositTxHash} already paid for another payout`,
    );
  }
  try {
    await deps.checkDeposit({
      token: deps.tokens[request.token],
      amount: BigInt(request.amount),
      txHash: request.depositTxHash as `0x${string}`,
      ...(request.depositLogIndex === undefined ? {} : { logIndex: request.depositLogIndex }),
    });
  } catch (error) {
    if (error instanceof DepositRefused) throw new HttpError(error.status, error.message);
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new HttpError(503, `the chain could not be read: ${reason}`);
  }
}

function payoutRequestOf(body: unknown): BrebPayoutRequest {
  const fields = objectOf(body);
  const text = (name: string, pattern?: RegExp, what = "a non-empty string"): string => {
    const value = fields[name];
    if (typeof value !== "string" || value.trim() === "" || (pattern && !pattern.test(value))) {
      throw new HttpError(400, `${name} must be ${what}`);
    }
    return value;
  };
  const token = text("token");
  if (!isToken(token)) throw new HttpError(400, "token must be USDC or COPm");
  const { chainId } = fields;
  if (typeof chainId !== "number" || !Number.isSafeInteger(chainId) || chainId <= 0) {
    throw new HttpError(400, "chainId must be a positive integer");
  }
  const amount = text("amount", WHOLE_NUMBER, "a whole number of atomic units");
  if (BigInt(amount) === 0n) throw new HttpError(400, "amount must be more than zero");
  const { depositLogIndex } = fields;
  if (
    depositLogIndex !== undefined &&
    (typeof depositLogIndex !== "number" || !Number.isSafeInteger(depositLogIndex) || depositLogIndex < 0)
  ) {
    throw new HttpError(400, "depositLogIndex must be a non-negative integer");
  }
  return {
    payoutId: text("payoutId"),
    breBKey: text("breBKey"),
    accountOwnerName: text("accountOwnerName"),
    destinationCop: text("destinationCop", WHOLE_NUMBER, "a whole number of pesos"),
    token,
    chainId,
    amount,
    depositTxHash: text("depositTxHash", TX_HASH, "a transaction hash"),
    ...(depositLogIndex === undefined ? {} : { depositLogIndex }),
    refundAddress: text("refundAddress", ADDRESS, "an address"),
  };
}

function objectOf(body: unknown): Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

function isToken(text: string): text is BrebToken {
  return (BREB_TOKENS as readonly string[]).includes(text);
}

function match(path: string, pattern: RegExp): string | undefined {
  const raw = pattern.exec(path)?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(
    req,
    MAX_BODY_BYTES,
    () => new HttpError(413, `body larger than ${MAX_BODY_BYTES} bytes`),
  );
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new HttpError(400, "body must be JSON");
  }
}

function send(res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return;
  sendJson(res, answer.status, answer.json);
}
