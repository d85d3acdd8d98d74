import type { Context } from "hono";
import type { AppEnv } from "./env";

/**
 * Work that finishes after the response is sent: on Workers the isolate is kept alive for it
 * (`waitUntil`); elsewhere it runs on, handed to `deps.pendingWork` when the runtime keeps one.
 * A rejection is nobody's answer: it is dropped here, so the work logs its own failures.
 */
export function afterResponse(c: Context<AppEnv>, work: Promise<unknown>): void {
  const settled = work.catch(() => {});
  try {
    c.executionCtx.waitUntil(settled);
  } catch {
    // Not on Workers (tests, Node): no execution context to hand the promise to.
    c.get("deps")?.pendingWork?.track(settled);
  }
}
