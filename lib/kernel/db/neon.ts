import { neon, neonConfig, Pool } from "@neondatabase/serverless";
import { drizzle as drizzleHttp } from "drizzle-orm/neon-http";
import { drizzle as drizzleWebSocket } from "drizzle-orm/neon-serverless";
import * as schema from "../../../schema";
import type { Database, DatabaseProvider } from "./database";
import { relayClientConfig } from "./neon-relay-config";

/**
 * Production: Neon through its serverless driver. A one-shot query goes over Neon's HTTP path (one
 * fetch, no connection to set up); an interactive transaction needs a session, so the first
 * `transaction()` of a request opens a WebSocket pool, and only then (most reads never open one).
 * Locally the same driver reaches the embedded Postgres through dev/neon-relay, which speaks both of
 * Neon's protocols on loopback without TLS.
 */
export function neonDatabase(connectionString: string, localRelay?: string): DatabaseProvider {
  if (localRelay) {
    const [host, port] = splitHostPort(localRelay);
    Object.assign(neonConfig, relayClientConfig(host, port));
  }
  // Stateless (one fetch per query), so one per isolate: what is prepared on it serves every request.
  const http = drizzleHttp({ client: neon(connectionString), schema }) as unknown as Database;
  return {
    open() {
      let pool: Pool | undefined;
      let session: Database | undefined;
      const interactive = (): Database => {
        pool ??= new Pool({ connectionString, max: 4 });
        session ??= drizzleWebSocket({ client: pool, schema }) as unknown as Database;
        return session;
      };
      const db = new Proxy(http, {
        get(target, property, receiver) {
          if (property === "transaction") {
            const open = interactive();
            return open.transaction.bind(open);
          }
          return Reflect.get(target, property, receiver);
        },
      });
      return { db, release: async () => pool?.end() };
    },
  };
}

function splitHostPort(address: string): [string, number] {
  const at = address.lastIndexOf(":");
  return [address.slice(0, at), Number(address.slice(at + 1))];
}
