import { neonConfig, Pool } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-serverless";
import * as schema from "../../schema";
import type { DatabaseProvider } from "./database";

/**
 * Production: Neon through its serverless driver, over WebSocket so interactive transactions work.
 * Locally the same driver reaches the embedded Postgres through dev/neon-relay, which speaks
 * Neon's protocols on loopback without TLS.
 */
export function neonDatabase(connectionString: string, localRelay?: string): DatabaseProvider {
  if (localRelay) pointNeonDriverAt(localRelay);
  return {
    open() {
      const pool = new Pool({ connectionString, max: 4 });
      return { db: drizzle({ client: pool, schema }), release: () => pool.end() };
    },
  };
}

export function pointNeonDriverAt(relay: string): void {
  neonConfig.wsProxy = () => `${relay}/v1`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
  neonConfig.fetchEndpoint = () => `http://${relay}/sql`;
}
