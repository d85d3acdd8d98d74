import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse } from "./error-json";
import { readBoundedBody } from "./http-body";
import { sendJson } from "./http-json";
import { RelayRequestError } from "./request-error";
import { runBatch, runSingleQuery } from "./run-queries";
import { parseSqlPayload, parseSqlRequestHeaders, type TransactionOptions } from "./sql-request";
import type { UpstreamPostgres } from "./types";
import type { UpstreamPools } from "./upstream-pools";

export interface SqlEndpointOptions {
  upstream: UpstreamPostgres;
  pools: UpstreamPools;
  maxRequestBytes: number;
}

/** Neon answers a batch with the transaction settings it applied; mirrored for fidelity. */
function batchResponseHeaders(transaction: TransactionOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  if (transaction.readOnly) headers["Neon-Batch-Read-Only"] = "true";
  if (transaction.deferrable) headers["Neon-Batch-Deferrable"] = "true";
  if (transaction.isolationLevel !== undefined) {
    headers["Neon-Batch-Isolation-Level"] = transaction.isolationLevel;
  }
  return headers;
}

/** `POST /sql`: Neon's SQL-over-HTTP protocol, executed with pg against the upstream. */
export function createSqlEndpoint(options: SqlEndpointOptions) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    try {
      if (request.method !== "POST") throw new RelayRequestError(405, "use POST for /sql");
      const headers = parseSqlRequestHeaders(request.headers, options.upstream);
      const payload = parseSqlPayload(await readBoundedBody(request, options.maxRequestBytes));
      const pool = options.pools.poolFor(headers.credentials);
      if (payload.kind === "single") {
        sendJson(request, response, 200, await runSingleQuery(pool, payload.query, headers));
      } else {
        const body = await runBatch(pool, payload.queries, headers);
        sendJson(request, response, 200, body, batchResponseHeaders(headers.transaction));
      }
    } catch (error) {
      const { status, body } = errorResponse(error);
      if (!response.headersSent) sendJson(request, response, status, body);
      else response.destroy();
    }
  };
}
