import type { IncomingMessage, ServerResponse } from "node:http";

export function sendJson(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  body: unknown,
  extraHeaders: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    ...extraHeaders,
    // A body we stopped reading (too large, rejected early) would corrupt a kept-alive connection.
    ...(request.complete ? {} : { Connection: "close" }),
  });
  response.end(text);
}
