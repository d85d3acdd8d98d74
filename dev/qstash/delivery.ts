// One delivery attempt: the HTTP request QStash makes to the destination, and how its answer is read.

import http from "node:http";
import https from "node:https";
import { signQStashDelivery } from "../../lib/kernel/jobs/signature";
import { parseRetryAfter } from "./durations";
import type { StoredMessage } from "./types";

export type AttemptOutcome =
  | { kind: "delivered"; status: number }
  | {
      kind: "failed";
      /** Absent when no response arrived (connection error, timeout). */
      status?: number;
      reason: string;
      /** What the destination asked for with Retry-After or an X-RateLimit-Reset variant. */
      retryAfterMs?: number;
      /** 489 with Upstash-NonRetryable-Error: true — QStash stops retrying at once. */
      nonRetryable: boolean;
    };

// Response headers QStash reads to schedule the next retry, in the order it documents them.
const RETRY_AFTER_HEADERS = [
  "retry-after",
  "x-ratelimit-reset",
  "x-ratelimit-reset-requests",
  "x-ratelimit-reset-tokens",
];

/** A little of a failed response's body, for the log line, so a dev sees why the job failed. */
const LOGGED_BODY_BYTES = 512;

export async function attemptDelivery(
  message: StoredMessage,
  options: { signingKey: string; timeoutMs: number; cancel: AbortSignal },
): Promise<AttemptOutcome> {
  const body = Buffer.from(message.bodyBase64, "base64");
  const headers: http.OutgoingHttpHeaders = {
    // Forwarded first: QStash's own headers below must win over a forwarded header of the same name.
    ...message.forwardHeaders,
    ...(message.contentType !== undefined && { "Content-Type": message.contentType }),
    "User-Agent": "Upstash-QStash",
    "Upstash-Signature": await signQStashDelivery({
      signingKey: options.signingKey,
      url: message.url,
      rawBody: body,
      messageId: message.messageId,
    }),
    "Upstash-Message-Id": message.messageId,
    "Upstash-Retried": String(message.retried),
    ...(message.callerIp !== undefined && { "Upstash-Caller-Ip": message.callerIp }),
    "Content-Length": String(body.length),
  };

  const abort = new AbortController();
  const timer = setTimeout(
    () => abort.abort(new Error(`no response within ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  const onCancel = () => abort.abort(new Error("local QStash is closing"));
  options.cancel.addEventListener("abort", onCancel, { once: true });
  try {
    const response = await send(message, headers, body, abort.signal);
    if (response.status >= 200 && response.status < 300)
      return { kind: "delivered", status: response.status };
    return {
      kind: "failed",
      status: response.status,
      reason: `HTTP ${response.status}${response.bodyStart ? `: ${response.bodyStart}` : ""}`,
      ...retryAfter(response.headers),
      nonRetryable: response.status === 489 && response.headers["upstash-nonretryable-error"] === "true",
    };
  } catch (error) {
    const cause = abort.signal.aborted ? abort.signal.reason : error;
    return {
      kind: "failed",
      reason: cause instanceof Error ? cause.message : String(cause),
      nonRetryable: false,
    };
  } finally {
    clearTimeout(timer);
    options.cancel.removeEventListener("abort", onCancel);
  }
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  bodyStart: string;
}

function send(
  message: StoredMessage,
  headers: http.OutgoingHttpHeaders,
  body: Buffer,
  signal: AbortSignal,
): Promise<RawResponse> {
  const transport = message.url.toLowerCase().startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    // agent: false gives each attempt its own connection, closed afterwards, so nothing lingers
    // after close() and a destination restart never meets a stale keep-alive socket.
    const request = transport.request(message.url, { method: message.method, headers, agent: false, signal });
    request.on("error", reject);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on("data", (chunk: Buffer) => {
        if (kept < LOGGED_BODY_BYTES) {
          chunks.push(chunk);
          kept += chunk.length;
        }
      });
      response.on("error", reject);
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          bodyStart: Buffer.concat(chunks).subarray(0, LOGGED_BODY_BYTES).toString("utf8"),
        }),
      );
    });
    request.end(body);
  });
}

function retryAfter(headers: http.IncomingHttpHeaders): { retryAfterMs?: number } {
  for (const name of RETRY_AFTER_HEADERS) {
    const value = headers[name];
    if (typeof value !== "string") continue;
    const ms = parseRetryAfter(value, Date.now());
    if (ms !== undefined) return { retryAfterMs: ms };
  }
  return {};
}
