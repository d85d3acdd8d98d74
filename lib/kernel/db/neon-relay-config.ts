/**
 * How the Neon serverless driver reaches dev/neon-relay instead of Neon. Lives in lib because the
 * worker itself applies it under `wrangler dev`; it uses no Node APIs.
 */
/** The `neonConfig` values a driver must set to reach a relay instead of Neon. */
export interface NeonRelayClientConfig {
  wsProxy: (host: string, port: number | string) => string;
  useSecureWebSocket: false;
  forceDisablePgSSL: true;
  pipelineTLS: false;
  pipelineConnect: false;
  fetchEndpoint: (host: string, port: number | string, options?: unknown) => string;
}

/** Path of the WebSocket endpoint; `/v2` is what the driver appends by default for Neon hosts. */
export const WEBSOCKET_PATHS = new Set(["/v1", "/v2"]);
export const SQL_PATH = "/sql";

function hostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * The driver's own host/port arguments are ignored when building URLs: whatever host the
 * connection string names, traffic goes to this relay, which only ever talks to its upstream.
 */
export function relayClientConfig(relayHost: string, relayPort: number): NeonRelayClientConfig {
  const authority = `${hostForUrl(relayHost)}:${relayPort}`;
  return {
    wsProxy: (host, port) => `${authority}/v2?address=${encodeURIComponent(`${host}:${port}`)}`,
    useSecureWebSocket: false,
    // The tunnel is plain ws:// on loopback and upstream Postgres is not asked for TLS.
    forceDisablePgSSL: true,
    pipelineTLS: false,
    // Pipelining assumes cleartext-password auth; trust/SCRAM upstreams would break.
    pipelineConnect: false,
    fetchEndpoint: () => `http://${authority}${SQL_PATH}`,
  };
}
