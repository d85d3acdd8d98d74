import type { Context } from "hono";
import type { SettlementContext } from "../settlement/context";
import type { AppEnv } from "./env";

/** The settlement verbs' context for a partner request: the services and the caller. */
export function settlementContext(c: Context<AppEnv>): SettlementContext {
  return { ...c.get("services"), caller: c.get("caller") };
}
