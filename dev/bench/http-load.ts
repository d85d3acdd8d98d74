import autocannon from "autocannon";

/** One operation the benchmark loads: a fixed request, or one made afresh for every request. */
export interface Endpoint {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  /** The key the load authenticates with, when not the bench's organization's. */
  apiKey?: string;
  /** A request's own path, body or headers (a fresh idempotency key and quote for each order). */
  perRequest?: () => { path?: string; body?: unknown; headers?: Record<string, string> };
}

export interface LoadFigures {
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx, or requests that failed: a figure with any is not a throughput. */
  failures: number;
  /** Bytes a response took on the wire, headers included (the mean). */
  answerBytes: number;
}

/** Loads one endpoint with `connections` keep-alive connections for `seconds`. */
export async function load(
  baseUrl: string,
  apiKey: string,
  endpoint: Endpoint,
  options: { connections: number; seconds: number },
): Promise<LoadFigures> {
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        method: endpoint.method,
        path: endpoint.path,
        headers,
        ...(endpoint.body === undefined ? {} : { body: JSON.stringify(endpoint.body) }),
        ...(endpoint.perRequest
          ? {
              setupRequest: (request) => {
                const own = endpoint.perRequest?.() ?? {};
                return {
                  ...request,
                  ...(own.path ? { path: own.path } : {}),
                  ...(own.body === undefined ? {} : { body: JSON.stringify(own.body) }),
                  headers: { ...headers, ...own.headers },
                };
              },
            }
          : {}),
      },
    ],
  });
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    answerBytes: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
  };
}
