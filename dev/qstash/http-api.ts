// The QStash REST surface the stand-in serves: publish, batch and signing keys, behind the bearer token.

import type { IncomingMessage, ServerResponse } from "node:http";
import { failureOf, HttpError, pathOf, presentsBearer, readBody, sendJson } from "../loopback-http";
import type { MessageStore } from "./message-store";
import { type PublishInput, parsePublish } from "./publish-request";
import type { DeliveryScheduler } from "./scheduler";
import type { Logger, MessageDraft } from "./types";

export interface ApiDependencies {
  token: string;
  currentSigningKey: string;
  nextSigningKey: string;
  defaultRetries: number;
  store: MessageStore;
  scheduler: DeliveryScheduler;
  log: Logger;
}

/** Largest message body accepted (QStash's limit depends on the plan; this is the generous end). */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

const PUBLISH_PREFIX = "/v2/publish/";

// Real QStash routes the stand-in does not implement; answered with 501 so the gap is obvious.
const UNIMPLEMENTED_PREFIXES = [
  "/v2/enqueue",
  "/v2/queues",
  "/v2/schedules",
  "/v2/topics",
  "/v2/messages",
  "/v2/dlq",
  "/v2/events",
  "/v2/logs",
  "/v2/flowControl",
];

export function createApiHandler(deps: ApiDependencies): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    route(deps, req)
      .then(({ status, body }) => sendJson(res, status, body))
      .catch((error: unknown) => {
        const { status, message } = failureOf(error);
        deps.log({
          event: "qstash.request_rejected",
          method: req.method,
          path: pathOf(req),
          status,
          error: message,
        });
        sendJson(res, status, { error: message });
      });
  };
}

async function route(
  deps: ApiDependencies,
  req: IncomingMessage,
): Promise<{ status: number; body: unknown }> {
  const path = pathOf(req);
  if (!presentsBearer(req, deps.token)) throw new HttpError(401, "invalid or missing bearer token");

  if (req.method === "POST" && path.startsWith(PUBLISH_PREFIX)) {
    const destination = (req.url ?? "").slice(PUBLISH_PREFIX.length);
    return publishOne(deps, req, destination, await readMessageBody(req));
  }
  if (req.method === "POST" && path === "/v2/batch")
    return publishBatch(deps, req, await readMessageBody(req));
  if (req.method === "GET" && path === "/v2/keys") {
    return { status: 200, body: { current: deps.currentSigningKey, next: deps.nextSigningKey } };
  }
  // The stand-in has no schedules, so the list is empty; the worker's health check lists them to
  // prove QStash is reachable and the token is accepted.
  if (req.method === "GET" && path === "/v2/schedules") return { status: 200, body: [] };
  if (UNIMPLEMENTED_PREFIXES.some((prefix) => path.startsWith(prefix))) {
    throw new HttpError(501, `${req.method} ${path} is not implemented by the local QStash`);
  }
  throw new HttpError(404, `no route for ${req.method} ${path}`);
}

async function publishOne(
  deps: ApiDependencies,
  req: IncomingMessage,
  destination: string,
  body: Buffer,
): Promise<{ status: number; body: unknown }> {
  const draft = parseOrThrow(deps, {
    destination,
    headers: headerPairs(req),
    body,
    ...requestContext(deps, req),
  });
  const [result] = await accept(deps, [draft]);
  if (!result) throw new Error("publish produced no result");
  // QStash answers a duplicate with 202 Accepted and the id of the message it already holds.
  return { status: result.deduplicated ? 202 : 201, body: result };
}

/** POST /v2/batch: the JSON array `Client.batch` sends, each item published like a single message.
 * All items are validated before any is accepted, so a bad item does not leave half a batch queued. */
async function publishBatch(
  deps: ApiDependencies,
  req: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; body: unknown }> {
  let items: unknown;
  try {
    items = JSON.parse(body.toString("utf8"));
  } catch {
    throw new HttpError(400, "batch body must be a JSON array");
  }
  if (!Array.isArray(items)) throw new HttpError(400, "batch body must be a JSON array");
  const drafts = items.map((item: unknown, index) => {
    const { destination, headers, body: itemBody, queue } = (item ?? {}) as Record<string, unknown>;
    if (typeof destination !== "string")
      throw new HttpError(400, `batch item ${index}: destination is required`);
    if (queue !== undefined)
      throw new HttpError(400, `batch item ${index}: queues are not supported by the local QStash`);
    if (itemBody !== undefined && typeof itemBody !== "string") {
      throw new HttpError(400, `batch item ${index}: body must be a string`);
    }
    const headerEntries = Object.entries((headers ?? {}) as Record<string, unknown>).map(
      ([name, value]): [string, string] => [name, String(value)],
    );
    return parseOrThrow(
      deps,
      {
        destination,
        headers: headerEntries,
        body: Buffer.from(itemBody ?? "", "utf8"),
        ...requestContext(deps, req),
      },
      `batch item ${index}: `,
    );
  });
  return { status: 201, body: await accept(deps, drafts) };
}

function parseOrThrow(deps: ApiDependencies, input: PublishInput, errorPrefix = ""): MessageDraft {
  const parsed = parsePublish(input);
  if (!parsed.ok) throw new HttpError(400, `${errorPrefix}${parsed.error}`);
  if (parsed.ignoredHeaders.length > 0) {
    deps.log({
      event: "qstash.headers_without_effect",
      url: parsed.draft.url,
      headers: parsed.ignoredHeaders,
    });
  }
  return parsed.draft;
}

/** Stores the drafts, waits until they are on disk (QStash acknowledges only durable messages), then
 * wakes the scheduler. */
async function accept(
  deps: ApiDependencies,
  drafts: MessageDraft[],
): Promise<Array<{ messageId: string; url: string; deduplicated?: true }>> {
  const now = Date.now();
  const results = drafts.map((draft) => {
    const added = deps.store.add(draft, now);
    if (added.deduplicated) {
      deps.log({ event: "qstash.deduplicated", messageId: added.messageId, url: added.url });
      return { messageId: added.messageId, url: added.url, deduplicated: true as const };
    }
    const { messageId, url, notBefore, maxRetries } = added.message;
    deps.log({ event: "qstash.published", messageId, url, notBefore, maxRetries });
    return { messageId, url };
  });
  await deps.store.persist();
  deps.scheduler.wake();
  return results;
}

function requestContext(
  deps: ApiDependencies,
  req: IncomingMessage,
): Pick<PublishInput, "now" | "defaultRetries" | "callerIp"> {
  const callerIp = req.socket.remoteAddress;
  return {
    now: Date.now(),
    defaultRetries: deps.defaultRetries,
    ...(callerIp !== undefined && { callerIp }),
  };
}

/** Header pairs with their original spelling, so forwarded header names keep their case. */
function headerPairs(req: IncomingMessage): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    pairs.push([req.rawHeaders[i] ?? "", req.rawHeaders[i + 1] ?? ""]);
  }
  return pairs;
}

function readMessageBody(req: IncomingMessage): Promise<Buffer> {
  return readBody(
    req,
    MAX_BODY_BYTES,
    () => new HttpError(413, `message body larger than ${MAX_BODY_BYTES} bytes`),
  );
}
