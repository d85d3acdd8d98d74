import type { Context } from "hono";
import type { SettlementContext } from "../settlement/context";
import type { AppEnv } from "./env";

/** The settlement verbs' context for a partner request: the caller plus pricing and the setup. */
export function settlementContext(c: Context<AppEnv>): SettlementContext {
  const deps = c.get("deps");
  return {
    ...c.get("services"),
    caller: c.get("caller"),
    pricing: deps.pricing,
    settlement: deps.settlement,
  };
}
