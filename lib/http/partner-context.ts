import type { Context } from "hono";
import type { PartnerContext } from "../tenancy/caller";
import type { AppServices } from "./deps";
import type { AppEnv } from "./env";

/** The domain verbs' context for a partner request: the services and the caller. */
export function partnerContext(c: Context<AppEnv>): PartnerContext<AppServices> {
  return { ...c.get("services"), caller: c.get("caller") };
}
