import { CopmApiError } from "./errors";
import { API_VERSION } from "./generated/api-version.gen";
import { createClient, createConfig } from "./generated/client";
import { CopmApi, type Options } from "./generated/sdk.gen";
import type {
  CreateBrebPayoutData,
  CreateSettlementOrderData,
  GetStatementData,
  ListAuditLogData,
  ListBrebPayoutsData,
  ListRequestLogsData,
  ListSettlementOrdersData,
  ListSwapsData,
  ListWebhookDeliveriesData,
  ListWebhookEventsData,
} from "./generated/types.gen";
import { paginate } from "./pagination";
import { type RetryPolicy, retryAfterMs, retryingFetch } from "./retry";

export interface CopmOptions {
  /** The deployment's URL (`https://…`, or the local stack's `http://127.0.0.1:8787`). */
  baseUrl: string;
  /** An integration API key (`copm_test_…` in test mode, `copm_live_…` in live mode). */
  apiKey: string;
  /** The dated version to pin; the version this SDK was generated for by default. */
  apiVersion?: string;
  /** `Accept-Language` of error messages: Spanish unless English is asked for. */
  language?: "es" | "en";
  fetch?: typeof fetch;
  retry?: RetryPolicy;
  /** How an idempotency key is made when a call that takes one is given none. */
  newIdempotencyKey?: () => string;
}

/** An operation's options with its Idempotency-Key made optional: the client makes one when none is given. */
type KeyOptional<T extends { headers: { "idempotency-key": string } }> = Omit<T, "headers"> & {
  headers?: Omit<T["headers"], "idempotency-key"> & { "idempotency-key"?: string };
};

/**
 * The partner API, typed from the service's OpenAPI document: every operation of the generated
 * `CopmApi`, answering `{ data, request, response }` and throwing `CopmApiError` for any failure.
 * Sends the key and the pinned `API-Version` on every call, retries what is safe to retry
 * (retryingFetch), and makes the `Idempotency-Key` of a creation given none: the same key on each
 * of its own retries, a new one on each new call (pass your own to make your retries safe too).
 */
export class Copm extends CopmApi {
  readonly apiVersion: string;
  private readonly newKey: () => string;

  /**
   * Every item of each cursor-paged listing, page after page:
   * `for await (const order of copm.each.settlementOrders({ status: "DELIVERED" }))`.
   */
  readonly each = {
    settlementOrders: (query: Omit<NonNullable<ListSettlementOrdersData["query"]>, "cursor"> = {}) =>
      paginate((options) => this.listSettlementOrders(options), query),
    brebPayouts: (query: Omit<NonNullable<ListBrebPayoutsData["query"]>, "cursor"> = {}) =>
      paginate((options) => this.listBrebPayouts(options), query),
    swaps: (query: Omit<ListSwapsData["query"], "cursor">) =>
      paginate((options) => this.listSwaps(options), query),
    webhookEvents: (query: Omit<NonNullable<ListWebhookEventsData["query"]>, "cursor"> = {}) =>
      paginate((options) => this.listWebhookEvents(options), query),
    webhookDeliveries: (query: Omit<NonNullable<ListWebhookDeliveriesData["query"]>, "cursor"> = {}) =>
      paginate((options) => this.listWebhookDeliveries(options), query),
    /** The organization's audit log, newest first. */
    auditLog: (query: Omit<NonNullable<ListAuditLogData["query"]>, "cursor"> = {}) =>
      paginate((options) => this.listAuditLog(options), query),
    /** The organization's API requests of the last 7 days, newest first. */
    requestLogs: (query: Omit<NonNullable<ListRequestLogsData["query"]>, "cursor"> = {}) =>
      paginate((options) => this.listRequestLogs(options), query),
    /** A statement's lines (`from`, `to`), page after page, each with its running total. */
    statementLines: (query: Omit<GetStatementData["query"], "cursor" | "format">) =>
      paginate(
        // Typed, not inferred: the page's type must be known before the field is checked against it.
        (options: { query: GetStatementData["query"] }) => this.getStatement(options),
        { ...query, format: "json" as const },
        "lines",
      ),
  };

  constructor(options: CopmOptions) {
    const apiVersion = options.apiVersion ?? API_VERSION;
    const client = createClient(
      createConfig({
        baseUrl: options.baseUrl.replace(/\/+$/, ""),
        // An empty key sends no Authorization at all (the miniapp's key-less client).
        auth: () => options.apiKey || undefined,
        throwOnError: true,
        fetch: retryingFetch(
          options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
          options.retry,
        ),
        headers: {
          "API-Version": apiVersion,
          ...(options.language ? { "Accept-Language": options.language } : {}),
        },
      }),
    );
    client.interceptors.error.use((error, response) =>
      error instanceof CopmApiError
        ? error
        : new CopmApiError(
            response?.status ?? 0,
            bodyOf(error),
            error,
            retryAfterMs(response?.headers.get("retry-after") ?? null),
          ),
    );
    super({ client });
    this.apiVersion = apiVersion;
    this.newKey = options.newIdempotencyKey ?? (() => crypto.randomUUID());
  }

  override createSettlementOrder<ThrowOnError extends boolean = true>(
    options: Options<KeyOptional<CreateSettlementOrderData>, ThrowOnError>,
  ) {
    return super.createSettlementOrder<ThrowOnError>(
      this.keyed(options) as Options<CreateSettlementOrderData, ThrowOnError>,
    );
  }

  override createBrebPayout<ThrowOnError extends boolean = true>(
    options: Options<KeyOptional<CreateBrebPayoutData>, ThrowOnError>,
  ) {
    return super.createBrebPayout<ThrowOnError>(
      this.keyed(options) as Options<CreateBrebPayoutData, ThrowOnError>,
    );
  }

  /** The caller's headers with an Idempotency-Key: theirs, in whatever casing they wrote it, or a new one. */
  private keyed<T extends { headers?: unknown }>(options: T): T {
    const headers: Record<string, string> = {};
    const given = options.headers;
    const entries =
      given instanceof Headers
        ? [...given.entries()]
        : Object.entries((given ?? {}) as Record<string, unknown>);
    for (const [name, value] of entries)
      if (value !== undefined && value !== null) headers[name.toLowerCase()] = String(value);
    headers["idempotency-key"] ??= this.newKey();
    return { ...options, headers };
  }
}

/** What the generated client threw: the parsed body of an answer, its text, or a network error. */
function bodyOf(error: unknown): CopmApiError["body"] {
  if (error instanceof Error) return undefined;
  if (typeof error === "string" || (typeof error === "object" && error !== null && "error" in error))
    return error as CopmApiError["body"];
  return undefined;
}
