// The HTTP surface of the local mailbox: Resend's `POST /emails` behind the API key, and the inbox
// (HTML pages for a browser, JSON for tests) without one.

import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { bearerToken, HttpError, pathOf, readBody, sameSecret, sendHtml, sendJson } from "../loopback-http";
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
class ResendError extends HttpError {
  constructor(
    status: number,
    readonly errorName: string,
    message: string,
  ) {
    super(status, message);
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
        status: failure.status,
        error: failure.message,
      });
      sendJson(res, failure.status, {
        statusCode: failure.status,
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
  if (path === "/") return sendPage(res, inboxPage(deps.store.newestFirst()));
  if (path === "/api/emails") return sendJson(res, 200, { data: deps.store.newestFirst() });
  const pageId = EMAIL_PAGE.exec(path)?.[1];
  if (pageId !== undefined) {
    const email = deps.store.find(decodeId(pageId));
    if (!email) throw notFound();
    return sendPage(res, emailPage(email));
  }
  throw notFound();
}

async function storeEmail(deps: ApiDependencies, req: IncomingMessage): Promise<{ id: string }> {
  // Authorise before reading the body, as Resend does: an unauthorised caller learns nothing about it.
  const presented = bearerToken(req);
  if (presented === undefined)
    throw new ResendError(
      401,
      "missing_api_key",
      "Missing API key in the authorization header. Include the following header in the request: Authorization: Bearer YOUR_API_KEY",
    );
  if (!sameSecret(presented, deps.apiKey))
    throw new ResendError(401, "invalid_api_key", "API key is invalid");

  const parsed = parseSendRequest((await readRequestBody(req)).toString("utf8"));
  if (!parsed.ok) throw new ResendError(422, "validation_error", parsed.error);
  const email: StoredEmail = { id: randomUUID(), ...parsed.draft, createdAt: new Date().toISOString() };
  await deps.store.add(email);
  deps.log({ event: "mailbox.email_stored", id: email.id, to: email.to.map(maskAddress) });
  return { id: email.id };
}

/** `jane@example.com` → `j***@example.com`: enough to tell test recipients apart in a log. */
function maskAddress(address: string): string {
  const at = address.lastIndexOf("@");
  return at <= 0 ? "***" : `${address[0]}***${address.slice(at)}`;
}

function readRequestBody(req: IncomingMessage): Promise<Buffer> {
  return readBody(
    req,
    MAX_BODY_BYTES,
    () =>
      new ResendError(413, "payload_too_large", `The request body is larger than ${MAX_BODY_BYTES} bytes.`),
  );
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

function sendPage(res: ServerResponse, html: string): void {
  sendHtml(res, 200, html, {
    "Content-Security-Policy": PAGE_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
  });
}
