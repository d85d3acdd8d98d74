import type { NeonRelayClientConfig } from "../../lib/kernel/db/neon-relay-config";

/** The one Postgres server a relay forwards to; it never connects anywhere else. */
export interface UpstreamPostgres {
  host: string;
  port: number;
  /** Used over HTTP only when the client's connection string leaves the user out. */
  user?: string;
  /** Used over HTTP only when the client's connection string carries no password. */
  password?: string;
  /** Used over HTTP only when the client's connection string names no database. */
  database?: string;
}

export interface NeonRelayOptions {
  upstream: UpstreamPostgres;
  /** Interface to listen on; loopback unless deliberately widened. Default `127.0.0.1`. */
  host?: string;
  /** 0 (the default) lets the OS pick a free port. */
  port?: number;
  /** Largest accepted `POST /sql` body. Default 4 MiB. */
  maxRequestBytes?: number;
  /** Upstream connections kept per credential set for SQL-over-HTTP. Default 4. */
  httpPoolSize?: number;
  /**
   * Set for an upstream with one backend shared by all connections (PGlite behind
   * pglite-socket): connections then take turns, each keeping the upstream from its first
   * message until it is idle outside a transaction. Without this, pglite-socket 0.2.x mixes
   * concurrent connections' Parse/Bind/Execute messages ("portal does not exist", or silently
   * binding one connection's parameters to another's statement). Leave unset for real Postgres.
   */
  serializeUpstreamSessions?: boolean;
}

export interface NeonRelay {
  port: number;
  host: string;
  /** Assign these onto `neonConfig` (e.g. `Object.assign(neonConfig, relay.clientConfig)`). */
  clientConfig: NeonRelayClientConfig;
  close(): Promise<void>;
}
