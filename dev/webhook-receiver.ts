import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { closeServer, listen } from "./loopback-http";

/** One request as the receiver got it: the raw body and the Standard Webhooks headers. */
export interface ReceivedWebhook {
  index: number;
  headers: { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string };
  body: string;
}

export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer only after this many milliseconds (a slow receiver). */
  delayMs?: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * A webhook receiver on loopback, as a partner would run one: it keeps every request's raw body and
 * headers and answers what `answer` decides (200 by default). The demo and the tests use it; the
 * caller verifies signatures with the `standardwebhooks` package.
 */
export async function startWebhookReceiver(
  options: {
    port?: number;
    path?: string;
    answer?: (request: ReceivedWebhook) => ReceiverAnswer;
    onReceive?: (request: ReceivedWebhook) => void;
  } = {},
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const path = options.path ?? "/webhooks";
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const header = (name: string) => String(request.headers[name] ?? "");
      const webhook: ReceivedWebhook = {
        index: received.length,
        headers: {
          "webhook-id": header("webhook-id"),
          "webhook-timestamp": header("webhook-timestamp"),
          "webhook-signature": header("webhook-signature"),
        },
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(webhook);
      options.onReceive?.(webhook);
      const answer = options.answer?.(webhook) ?? { status: 200 };
      const reply = () => {
        if (response.destroyed) return;
        response.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
        response.end(answer.body ?? "ok");
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs).unref();
      else reply();
    });
  });
  const { url } = await listen(server, { port: options.port });
  return { url: `${url}${path}`, received, close: () => closeServer(server) };
}
