/**
 * How a runtime learns the address of the client that opened the connection, for per-IP rate
 * limits. A header is only as trustworthy as whoever set it: CF-Connecting-IP is Cloudflare's own
 * on a Worker (its edge overwrites whatever the client sent), and any client's invention elsewhere.
 */
export type ClientAddressOf = (request: Request, env: unknown) => string | undefined;

/** On Cloudflare Workers (a request carries Cloudflare's `cf` object): CF-Connecting-IP, set by the edge. */
export const cloudflareClientAddress: ClientAddressOf = (request) => {
  if ((request as { cf?: unknown }).cf === undefined) return undefined;
  return request.headers.get("cf-connecting-ip")?.trim() || undefined;
};

/**
 * On Node (Hono's Node adapter passes the IncomingMessage as `env.incoming`): the socket's remote
 * address. Headers are ignored: anyone can send CF-Connecting-IP or X-Forwarded-For.
 */
export const socketClientAddress: ClientAddressOf = (_request, env) => {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress || undefined;
};
