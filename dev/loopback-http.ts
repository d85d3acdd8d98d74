// The HTTP plumbing the local stand-in servers (QStash, mailbox, KYC sandbox, webhook receiver) share,
// so each of them holds only its own routes, limits and error texts.

import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ListenPort } from "./listen-port";

export const LOOPBACK = "127.0.0.1";

export type Logger = (line: Record<string, unknown>) => void;

/** A failure the handler answers with `status` and the message, instead of a 500. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The status and message to answer a rejected request with: anything not an HttpError is a 500. */
export function failureOf(error: unknown): { status: number; message: string } {
  return {
    status: error instanceof HttpError ? error.status : 500,
    message: error instanceof Error ? error.message : String(error),
  };
}

/** The body, or `tooLarge()` once it ends when it was longer than `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      // Keep draining past the limit so the client can still read the 413.
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > maxBytes) reject(tooLarge());
      else resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
  });
}

export function bearerToken(req: IncomingMessage): string | undefined {
  return /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
}

/** Constant time, so response timing does not reveal how much of a guessed key was right. */
export function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function presentsBearer(req: IncomingMessage, secret: string): boolean {
  const presented = bearerToken(req);
  return presented !== undefined && sameSecret(presented, secret);
}

export function pathOf(req: IncomingMessage): string {
  return (req.url ?? "/").split("?")[0] ?? "/";
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
): void {
  sendText(res, status, "application/json", JSON.stringify(body), headers);
}

export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: OutgoingHttpHeaders,
): void {
  sendText(res, status, "text/html; charset=utf-8", html, headers);
}

function sendText(
  res: ServerResponse,
  status: number,
  type: string,
  text: string,
  headers: OutgoingHttpHeaders,
): void {
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Starts listening; a busy fixed port rejects here instead of surfacing later as an unhandled
 * 'error', and a busy preferred one gives way to any free port (see ListenPort).
 */
export async function listen(
  server: Server,
  { port = 0, host = LOOPBACK }: { port?: ListenPort | undefined; host?: string | undefined } = {},
): Promise<{ url: string; port: number }> {
  try {
    await bind(server, typeof port === "number" ? port : port.prefer, host);
  } catch (error) {
    if (typeof port === "number" || (error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    await bind(server, 0, host);
  }
  const bound = (server.address() as AddressInfo).port;
  return { url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}`, port: bound };
}

function bind(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    // Clients' keep-alive connections would otherwise hold the server open.
    server.closeAllConnections();
  });
}

/** A throwing log hook must not break the request or delivery being logged. */
export function safeLogger(log: Logger | undefined): Logger {
  if (!log) return () => {};
  return (line) => {
    try {
      log({ time: new Date().toISOString(), ...line });
    } catch {
      // Logging is best effort.
    }
  };
}
