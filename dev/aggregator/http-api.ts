import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { failureOf, pathOf, sendJson } from "../loopback-http";
import type { VendorRateLimiter } from "../vendor-rate-limit";
import { type Carriage, NO_QUOTE, type QuoteQuery, quoteOf } from "./quotes";
import type { Relayer } from "./relayer";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * LI.FI's HTTP API as the service uses it (docs.li.fi; `@lifi/types`): `GET /v1/quote` and
 * `GET /v1/status`, with LI.FI's error bodies (`{ message, code }`: 1011 ValidationError, 1002
 * NoQuoteError) and its rate limit (429, code 1005, with `ratelimit-reset` in seconds). `onRequest`
 * runs first on every request: the market's clock moves with the calls it gets.
 */
export function createLifiHandler(input: {
  carriages: Carriage[];
  relayer: Relayer;
  limiter: VendorRateLimiter;
  onRequest: () => Promise<void>;
  log: (line: Record<string, unknown>) => void;
  /** Every `GET /v1/quote` asked of it, refused ones included: what the service's callers cost LI.FI. */
  served: { quotes: number };
}) {
  const invalid = (res: ServerResponse, message: string) => sendJson(res, 400, { message, code: 1011 });

  return async (req: IncomingMessage, res: ServerResponse) => {
    try {
      if (req.method === "GET" && pathOf(req) === "/v1/quote") input.served.quotes += 1;
      const wait = input.limiter.admit(
        req.headers["x-lifi-api-key"]?.toString() ?? req.socket.remoteAddress ?? "",
      );
      if (wait !== undefined) {
        sendJson(
          res,
          429,
          { message: `Rate limit exceeded; it is lifted in ${Math.ceil(wait / 1000)} s`, code: 1005 },
          { "ratelimit-reset": String(Math.ceil(wait / 1000)) },
        );
        return;
      }
      await input.onRequest();
      const url = new URL(req.url ?? "/", "http://lifi.local");
      const query = url.searchParams;
      const path = pathOf(req);
      if (req.method === "GET" && path === "/v1/quote") {
        const parsed = quoteQueryOf(query);
        if (typeof parsed === "string") {
          invalid(res, parsed);
          return;
        }
        const carriage = input.carriages.find(
          (candidate) =>
            candidate.fromChainId === parsed.fromChain &&
            candidate.toChainId === parsed.toChain &&
            candidate.tokenIn.toLowerCase() === parsed.fromToken.toLowerCase() &&
            candidate.tokenOut.toLowerCase() === parsed.toToken.toLowerCase(),
        );
        if (!carriage) {
          sendJson(res, 404, { ...NO_QUOTE, errors: [] });
          return;
        }
        sendJson(res, 200, quoteOf(carriage, parsed, randomUUID()));
        return;
      }
      if (req.method === "GET" && path === "/v1/status") {
        const txHash = query.get("txHash") ?? "";
        const [fromChain, toChain] = [Number(query.get("fromChain")), Number(query.get("toChain"))];
        if (!HASH.test(txHash)) {
          invalid(res, "txHash must be a transaction hash");
          return;
        }
        sendJson(res, 200, await input.relayer.status(txHash as `0x${string}`, fromChain, toChain));
        return;
      }
      sendJson(res, 404, { message: "Not Found", code: 1003 });
    } catch (error) {
      const failure = failureOf(error);
      input.log({ level: "error", msg: "local aggregator failed a request", error: failure.message });
      sendJson(res, failure.status, { message: failure.message, code: 1000 });
    }
  };
}

function quoteQueryOf(query: URLSearchParams): QuoteQuery | string {
  const text = (name: string) => query.get(name) ?? "";
  const [fromChain, toChain] = [Number(text("fromChain")), Number(text("toChain"))];
  if (!Number.isInteger(fromChain) || !Number.isInteger(toChain))
    return "fromChain and toChain must be chain ids";
  for (const name of ["fromToken", "toToken", "fromAddress"]) {
    if (!ADDRESS.test(text(name))) return `${name} must be an address`;
  }
  if (!/^\d+$/.test(text("fromAmount")) || BigInt(text("fromAmount")) === 0n) {
    return "fromAmount must be a positive whole number";
  }
  const toAddress = query.get("toAddress") ?? text("fromAddress");
  if (!ADDRESS.test(toAddress)) return "toAddress must be an address";
  const slippage = query.get("slippage") ?? "0.005";
  if (!/^(0(\.\d+)?|1)$/.test(slippage) || Number(slippage) >= 1)
    return "slippage must be a fraction below 1";
  const referrer = query.get("referrer");
  if (referrer !== null && !ADDRESS.test(referrer)) return "referrer must be an address";
  return {
    fromChain,
    toChain,
    fromToken: text("fromToken") as `0x${string}`,
    toToken: text("toToken") as `0x${string}`,
    fromAmount: BigInt(text("fromAmount")),
    fromAddress: text("fromAddress") as `0x${string}`,
    toAddress: toAddress as `0x${string}`,
    slippage,
    ...(referrer ? { referrer: referrer as `0x${string}` } : {}),
  };
}
