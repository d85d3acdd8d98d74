import { neonConfig, Pool } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-serverless";
import * as schema from "../../../schema";
import type { DatabaseProvider } from "./database";
import { relayClientConfig } from "./neon-relay-config";

/**
 * Production: Neon through its serverless driver, over WebSocket so interactive transactions work.
 * Locally the same driver reaches the embedded Postgres through dev/neon-relay, which speaks
 * Neon's protocols on loopback without TLS.
 */
export function neonDatabase(connectionString: string, localRelay?: string): DatabaseProvider {
  if (localRelay) {
    const [host, port] = splitHostPort(localRelay);
    Object.assign(neonConfig, relayClientConfig(host, port));
  }
  return {
    open() {
      const pool = new Pool({ connectionString, max: 4 });
      return { db: drizzle({ client: pool, schema }), release: () => pool.end() };
    },
  };
}

function splitHostPort(address: string): [string, number] {
  const at = address.lastIndexOf(":");
  return [address.slice(0, at), Number(address.slice(at + 1))];
}
