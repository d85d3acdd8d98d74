import type { IncomingMessage, ServerResponse } from "node:http";
import { failureOf, pathOf, sendJson } from "../loopback-http";
import type { VendorRateLimiter } from "../vendor-rate-limit";
import type { Attester } from "./attester";
import { feeEntries, type LocalCircleFees } from "./fees";

const HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * Iris's HTTP API (developers.circle.com/api-reference/cctp): `GET /v2/messages/{sourceDomainId}
 * ?transactionHash=`, `GET /v2/burn/USDC/fees/{sourceDomainId}/{destDomainId}`, `POST
 * /v2/reattest/{nonce}`, with Circle's field names, statuses and error bodies (`{ code, message }`),
 * and its rate limit: past it, 429 and the caller blocked (Circle documents no Retry-After).
 */
export function createIrisHandler(input: {
  attester: Attester;
  fees: LocalCircleFees;
  limiter: VendorRateLimiter;
  log: (line: Record<string, unknown>) => void;
  /** Told of every request, answered or refused. */
  onRequest?: () => void;
  /** Told of every fee route answered, as `{source}/{destination}` domains. */
  onFeeRoute?: (route: string) => void;
}) {
  const { attester, fees, limiter } = input;
  const notFound = (res: ServerResponse, message: string) => sendJson(res, 404, { code: 404, message });
  const badRequest = (res: ServerResponse, message: string) => sendJson(res, 400, { code: 400, message });

  return async (req: IncomingMessage, res: ServerResponse) => {
    input.onRequest?.();
    try {
      if (limiter.admit(req.socket.remoteAddress ?? "unknown") !== undefined) {
        sendJson(res, 429, { code: 429, message: "Too Many Requests" });
        return;
      }
      const path = pathOf(req);
      const url = new URL(req.url ?? "/", "http://iris.local");
      const messages = /^\/v2\/messages\/(\d+)$/.exec(path);
      if (req.method === "GET" && messages) {
        const from = attester.endOf(Number(messages[1]));
        const txHash = url.searchParams.get("transactionHash");
        if (!txHash && !url.searchParams.get("nonce")) {
          badRequest(res, "At least one of transactionHash or nonce is required");
          return;
        }
        if (!txHash || !HASH.test(txHash)) {
          badRequest(res, "Invalid transactionHash");
          return;
        }
        const found = from ? await attester.messages(from, txHash as `0x${string}`) : [];
        if (found.length === 0) {
          notFound(res, "Message not found");
          return;
        }
        sendJson(res, 200, { messages: found, sourceTxHash: txHash });
        return;
      }
      const fee = /^\/v2\/burn\/USDC\/fees\/(\d+)\/(\d+)$/.exec(path);
      if (req.method === "GET" && fee) {
        const [source, destination] = [Number(fee[1]), Number(fee[2])];
        if (source === destination || !attester.endOf(source) || !attester.endOf(destination)) {
          badRequest(res, `Unsupported route: ${source} to ${destination}`);
          return;
        }
        input.onFeeRoute?.(`${source}/${destination}`);
        sendJson(res, 200, feeEntries(fees, url.searchParams.get("forward") === "true"));
        return;
      }
      const reattest = /^\/v2\/reattest\/(0x[0-9a-fA-F]{64})$/.exec(path);
      if (req.method === "POST" && reattest?.[1]) {
        const nonce = reattest[1] as `0x${string}`;
        if (!attester.reattest(nonce)) {
          notFound(res, "Message not found");
          return;
        }
        sendJson(res, 200, { message: "Re-attestation successfully requested for nonce.", nonce });
        return;
      }
      notFound(res, "Not Found");
    } catch (error) {
      const failure = failureOf(error);
      input.log({ level: "error", msg: "local Circle failed a request", error: failure.message });
      sendJson(res, failure.status, { code: failure.status, message: failure.message });
    }
  };
}
