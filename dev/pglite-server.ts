import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/**
 * Connections pglite-socket accepts at once. The worker opens up to four per request (a Neon Pool of
 * max 4) and the relay's HTTP pools a few more; PGlite runs them one at a time behind the relay's
 * session gate, so an open connection costs a socket, not a backend. The former cap of 16 refused
 * connections as soon as 16 requests overlapped.
 */
const PGLITE_MAX_CONNECTIONS = 1024;

export interface PgliteServer {
  port: number;
  /** Client connections open now. */
  activeConnections(): number;
  stop(): Promise<void>;
}

/** Serves an open PGlite on loopback over the Postgres wire protocol, as the local stack does. */
export async function servePglite(db: PGlite): Promise<PgliteServer> {
  const server = new PGLiteSocketServer({
    db,
    host: "127.0.0.1",
    port: 0,
    maxConnections: PGLITE_MAX_CONNECTIONS,
  });
  await server.start();
  const port = Number(server.getServerConn().split(":").pop());
  if (!Number.isInteger(port) || port <= 0) throw new Error("pglite-socket did not report its port");
  return { port, activeConnections: () => server.getStats().activeConnections, stop: () => server.stop() };
}
