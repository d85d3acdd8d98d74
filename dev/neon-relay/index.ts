import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { relayClientConfig, SQL_PATH } from "../../lib/kernel/db/neon-relay-config";
import { errorResponse } from "./error-json";
import { sendJson } from "./http-json";
import { RelayRequestError } from "./request-error";
import { startSessionGate } from "./session-gate";
import { createSqlEndpoint } from "./sql-endpoint";
import type { NeonRelay, NeonRelayOptions } from "./types";
import { UpstreamPools } from "./upstream-pools";
import { createWebSocketTunnel } from "./websocket-tunnel";

export type { NeonRelay, NeonRelayOptions, UpstreamPostgres } from "./types";

const DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
const DEFAULT_HTTP_POOL_SIZE = 4;

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Serves Neon's two driver protocols on one port in front of an ordinary Postgres:
 * WebSocket tunnelling (`/v1`, `/v2`) for `Pool`/`Client`, and `POST /sql` for `neon()`.
 */
export async function startNeonRelay(options: NeonRelayOptions): Promise<NeonRelay> {
  const host = options.host ?? "127.0.0.1";
  const gate = options.serializeUpstreamSessions ? await startSessionGate(options.upstream) : undefined;
  const upstream = gate ? { ...options.upstream, host: gate.host, port: gate.port } : options.upstream;
  const pools = new UpstreamPools(upstream, options.httpPoolSize ?? DEFAULT_HTTP_POOL_SIZE);
  const tunnel = createWebSocketTunnel(upstream);
  const handleSql = createSqlEndpoint({
    upstream,
    pools,
    maxRequestBytes: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
  });

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://relay").pathname;
    if (path === SQL_PATH) {
      void handleSql(request, response);
      return;
    }
    const { status, body } = errorResponse(new RelayRequestError(404, `no such endpoint: ${path}`));
    sendJson(request, response, status, body);
  });
  server.on("upgrade", (request, socket, head) => tunnel.handleUpgrade(request, socket, head));

  let address: AddressInfo;
  try {
    address = await listen(server, host, options.port ?? 0);
  } catch (error) {
    await pools.close();
    await gate?.close();
    throw error;
  }
  return {
    host,
    port: address.port,
    clientConfig: relayClientConfig(host, address.port),
    async close() {
      tunnel.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pools.close();
      await gate?.close();
    },
  };
}
