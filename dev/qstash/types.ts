// Public options and handle of the local QStash stand-in, and the message record it keeps.

export interface LocalQStashOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port to listen on; 0 (the default) lets the OS pick one. */
  port?: number;
  /** Bearer token publishers must present (401 otherwise). */
  token: string;
  /** Deliveries are signed with this key, as QStash signs with the current key. */
  currentSigningKey: string;
  /** Served by GET /v2/keys; the Receiver falls back to it during key rotation. */
  nextSigningKey: string;
  /** When set, pending messages and deduplication ids survive a restart (JSON file, written atomically). */
  dataFile?: string;
  /** Seconds to wait before the next attempt, given how often the message was already retried (0 for the
   * first retry). Default: QStash's backoff min(86400, e^(2.5*n)). */
  retryDelaySeconds?: (retried: number) => number;
  /** Retries when a publish sends no Upstash-Retries; default 3 like QStash's free plan. */
  defaultRetries?: number;
  /** JSON-line logging hook; default no-op. */
  log?: (line: Record<string, unknown>) => void;
}

export interface LocalQStash {
  /** Base URL to give the `Client` as `baseUrl`, e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  close(): Promise<void>;
  /** For tests: messages not yet delivered or failed. `notBefore` is unix milliseconds. */
  pending(): Array<{ messageId: string; url: string; notBefore: number; retried: number }>;
}

/** HTTP methods QStash can deliver with (Upstash-Method). */
export const DELIVERY_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

/** A message as accepted from a publish, before it gets an id. */
export interface MessageDraft {
  url: string;
  method: DeliveryMethod;
  /** Raw body, base64, so the record is plain JSON and the bytes survive unchanged. */
  bodyBase64: string;
  contentType?: string;
  /** Headers published as Upstash-Forward-<name>, keyed by <name>. */
  forwardHeaders: Record<string, string>;
  /** Unix milliseconds before which no attempt is made. */
  notBefore: number;
  maxRetries: number;
  /** Upstash-Retry-Delay expression (milliseconds, may use `retried`). */
  retryDelayExpression?: string;
  /** Upstash-Timeout: bound on one delivery attempt. */
  timeoutMs?: number;
  /** Explicit or content-based deduplication id. */
  deduplicationId?: string;
  callerIp?: string;
}

/** A message the stand-in holds until it is delivered or fails. */
export interface StoredMessage extends MessageDraft {
  messageId: string;
  createdAt: number;
  /** Failed attempts so far; sent as Upstash-Retried on the next attempt. */
  retried: number;
}

/** What a deduplication id points at, and until when. */
export interface DeduplicationEntry {
  deduplicationId: string;
  messageId: string;
  url: string;
  expiresAt: number;
}

export type { Logger } from "../loopback-http";
