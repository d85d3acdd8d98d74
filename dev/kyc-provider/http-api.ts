// The sandbox KYC provider's HTTP surface: the API behind the Bearer key, and the hosted pages.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { KycCallback, KycStatus } from "../../lib/identity/ports";
import { failureOf, HttpError, pathOf, presentsBearer, readBody, sendHtml, sendJson } from "../loopback-http";
import type { CallbackSender, DeliveryOutcome } from "./callbacks";
import type { CustomerStore, SandboxCustomer } from "./customers";
import { decisionRecordedPage, kycPage, messagePage, termsPage } from "./pages";

export interface ApiDependencies {
  apiKey: string;
  store: CustomerStore;
  callbacks: CallbackSender;
  /** The base of the links handed out and of the pages' forms. */
  publicBase: () => string;
  now: () => Date;
}

const MAX_BODY_BYTES = 64 * 1024;
const DECISIONS: ReadonlySet<string> = new Set(["pending", "approved", "rejected"]);
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const WALLET_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

type Answer = { status: number; json: unknown } | { status: number; html: string };

export function createApiHandler(deps: ApiDependencies): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    route(deps, req)
      .then((answer) => send(res, answer))
      .catch((error: unknown) => {
        const { status, message } = failureOf(error);
        const page = pathOf(req).startsWith("/customers") ? undefined : messagePage("Error", message);
        send(res, page === undefined ? { status, json: { error: message } } : { status, html: page });
      });
  };
}

async function route(deps: ApiDependencies, req: IncomingMessage): Promise<Answer> {
  const path = pathOf(req);
  const method = req.method ?? "GET";

  if (path === "/customers" || path.startsWith("/customers/")) {
    if (!presentsBearer(req, deps.apiKey)) throw new HttpError(401, "invalid or missing bearer token");
    if (method === "POST" && path === "/customers") return createCustomer(deps, await readJson(req));
    const id = match(path, /^\/customers\/([^/]+)$/);
    if (method === "GET" && id !== undefined)
      return { status: 200, json: view(deps, customerOrThrow(deps, id)) };
    const decided = match(path, /^\/customers\/([^/]+)\/decision$/);
    if (method === "POST" && decided !== undefined) {
      const { status } = (await readJson(req)) as { status?: unknown };
      const { customer, callback } = await decide(deps, decided, status);
      return { status: 200, json: { ...view(deps, customer), callback } };
    }
    throw new HttpError(404, `no route for ${method} ${path}`);
  }

  const kycId = match(path, /^\/kyc\/([^/]+)$/);
  if (method === "GET" && kycId !== undefined) {
    return { status: 200, html: kycPage(customerOrThrow(deps, kycId), deps.publicBase()) };
  }
  const termsId = match(path, /^\/terms\/([^/]+)$/);
  if (method === "GET" && termsId !== undefined) {
    return { status: 200, html: termsPage(customerOrThrow(deps, termsId), deps.publicBase()) };
  }
  const decidedOnPage = match(path, /^\/kyc\/([^/]+)\/decision$/);
  if (method === "POST" && decidedOnPage !== undefined) {
    const form = new URLSearchParams((await readRequestBody(req)).toString("utf8"));
    const decision = form.get("decision");
    // The page offers only approve and reject; "pending" is for scripts resetting a customer.
    if (decision !== "approved" && decision !== "rejected") {
      throw new HttpError(400, "decision must be approved or rejected");
    }
    const { customer, callback } = await decide(deps, decidedOnPage, decision);
    return { status: 200, html: decisionRecordedPage(customer, deps.publicBase(), callback) };
  }
  throw new HttpError(404, `no route for ${method} ${path}`);
}

function createCustomer(deps: ApiDependencies, body: unknown): Answer {
  const { externalId, email, walletAddress } = (body ?? {}) as Record<string, unknown>;
  if (typeof externalId !== "string" || externalId === "") throw new HttpError(400, "externalId is required");
  if (typeof email !== "string" || !EMAIL.test(email))
    throw new HttpError(400, "email must be an email address");
  if (typeof walletAddress !== "string" || !WALLET_ADDRESS.test(walletAddress)) {
    throw new HttpError(400, "walletAddress must be a 0x address");
  }
  const { customer, created } = deps.store.upsert({ externalId, email, walletAddress }, deps.now());
  return { status: created ? 201 : 200, json: view(deps, customer) };
}

/** Sets the status, then sends the signed callback (with its retries) before answering. */
async function decide(
  deps: ApiDependencies,
  customerId: string,
  status: unknown,
): Promise<{ customer: SandboxCustomer; callback: DeliveryOutcome }> {
  if (typeof status !== "string" || !DECISIONS.has(status)) {
    throw new HttpError(400, "status must be pending, approved or rejected");
  }
  const customer = deps.store.setStatus(customerId, status as KycStatus, deps.now());
  if (!customer) throw new HttpError(404, `no customer ${customerId}`);
  const callback: KycCallback = {
    customerId: customer.customerId,
    externalId: customer.externalId,
    status: status as KycCallback["status"],
    updatedAt: customer.updatedAt.toISOString(),
  };
  return { customer, callback: await deps.callbacks.send(callback) };
}

/** The contract's customer shape: the email stays at the provider. */
function view(deps: ApiDependencies, customer: SandboxCustomer) {
  const id = encodeURIComponent(customer.customerId);
  return {
    customerId: customer.customerId,
    status: customer.status,
    kycLink: `${deps.publicBase()}/kyc/${id}`,
    termsLink: `${deps.publicBase()}/terms/${id}`,
  };
}

function customerOrThrow(deps: ApiDependencies, customerId: string): SandboxCustomer {
  const customer = deps.store.get(customerId);
  if (!customer) throw new HttpError(404, `no customer ${customerId}`);
  return customer;
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
  const body = await readRequestBody(req);
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new HttpError(400, "body must be JSON");
  }
}

function readRequestBody(req: IncomingMessage): Promise<Buffer> {
  return readBody(req, MAX_BODY_BYTES, () => new HttpError(413, `body larger than ${MAX_BODY_BYTES} bytes`));
}

// The pages load nothing from elsewhere and run no script.
const PAGE_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
};

function send(res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return;
  if ("html" in answer) sendHtml(res, answer.status, answer.html, PAGE_HEADERS);
  else sendJson(res, answer.status, answer.json, PAGE_HEADERS);
}
