// The HTTP surface of the local mailbox: Resend's `POST /emails` behind the API key, and the inbox
// (HTML pages for a browser, JSON for tests) without one.

import { randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { MailboxStore } from "./mailbox-store";
import { emailPage, inboxPage, PAGE_SECURITY_POLICY } from "./pages";
import { parseSendRequest } from "./send-request";
import type { Logger, StoredEmail } from "./types";

export interface ApiDependencies {
  apiKey: string;
  store: MailboxStore;
  log: Logger;
}

/** Far above any sign-in email; keeps a runaway client from filling memory. */
const MAX_BODY_BYTES = 1024 * 1024;

const EMAIL_PAGE = /^\/emails\/([^/]+)$/;

/** An answer in Resend's error shape: `{ statusCode, name, message }`. */
class ResendError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorName: string,
    message: string,
  ) {
    super(message);
  }
}

export function createApiHandler(deps: ApiDependencies): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    route(deps, req, res).catch((error: unknown) => {
      const failure =
        error instanceof ResendError
          ? error
          : new ResendError(500, "application_error", error instanceof Error ? error.message : String(error));
      deps.log({
        event: "mailbox.request_rejected",
        method: req.method,
        path: pathOf(req),
        status: failure.statusCode,
        error: failure.message,
      });
      sendJson(res, failure.statusCode, {
        statusCode: failure.statusCode,
        name: failure.errorName,
        message: failure.message,
      });
    });
  };
}

async function route(deps: ApiDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = pathOf(req);
  if (path === "/emails") {
    if (req.method !== "POST") throw methodNotAllowed(req, path);
    return sendJson(res, 200, await storeEmail(deps, req));
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    if (path === "/" || path === "/api/emails" || EMAIL_PAGE.test(path)) throw methodNotAllowed(req, path);
    throw notFound();
  }
  if (path === "/") return sendHtml(res, 200, inboxPage(deps.store.newestFirst()));
  if (path === "/api/emails") return sendJson(res, 200, { data: deps.store.newestFirst() });
  const pageId = EMAIL_PAGE.exec(path)?.[1];
  if (pageId !== undefined) {
    const email = deps.store.find(decodeId(pageId));
    if (!email) throw notFound();
    return sendHtml(res, 200, emailPage(email));
  }
  throw notFound();
}

async function storeEmail(deps: ApiDependencies, req: IncomingMessage): Promise<{ id: string }> {
  // Authorise before reading the body, as Resend does: an unauthorised caller learns nothing about it.
  const presented = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
  if (presented === undefined)
    throw new ResendError(
      401,
      "missing_api_key",
      "Missing API key in the authorization header. Include the following header in the request: Authorization: Bearer YOUR_API_KEY",
    );
  if (!sameSecret(presented, deps.apiKey))
    throw new ResendError(401, "invalid_api_key", "API key is invalid");

  const parsed = parseSendRequest((await readBody(req)).toString("utf8"));
  if (!parsed.ok) throw new ResendError(422, "validation_error", parsed.error);
  const email: StoredEmail = { id: randomUUID(), ...parsed.draft, createdAt: new Date().toISOString() };
  await deps.store.add(email);
  deps.log({ event: "mailbox.email_stored", id: email.id, to: email.to.map(maskAddress) });
  return { id: email.id };
}

/** `jane@example.com` → `j***@example.com`: enough to tell test recipients apart in a log. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf("@");
  return at <= 0 ? "***" : `${address[0]}***${address.slice(at)}`;
}

function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      // Keep draining past the limit so the client can still read the 413.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > MAX_BODY_BYTES) {
        reject(
          new ResendError(
            413,
            "payload_too_large",
            `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
          ),
        );
      } else resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
  });
}

function decodeId(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

function notFound(): ResendError {
  return new ResendError(404, "not_found", "The requested endpoint does not exist.");
}

function methodNotAllowed(req: IncomingMessage, path: string): ResendError {
  return new ResendError(405, "method_not_allowed", `${req.method} is not allowed on ${path}.`);
}

function pathOf(req: IncomingMessage): string {
  return (req.url ?? "/").split("?")[0] ?? "/";
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(html),
    "Content-Security-Policy": PAGE_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
  });
  res.end(html);
}
