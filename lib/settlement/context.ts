import type { Account, LocalAccount } from "viem";
import type { ServiceContext } from "../kernel/context";
import type { PartnerContext } from "../tenancy/caller";
import type { LegProviders } from "./legs/ports";
import type { PriceBookMemory } from "./pricing/book/memory";
import type { BridgePlanner } from "./pricing/bridge-planner";
import type { PricingProviders } from "./pricing/ports";

/**
 * The settlement account receives the forwarded USDC mint and carries the money on; the burn
 * plan signer signs the plans the service hands out. Either may be absent in a local setup that
 * did not configure them, and then settlement answers SETTLEMENT_ACCOUNT_INACTIVE.
 */
export interface SettlementSetup {
  accountAddress?: `0x${string}`;
  /** Signs what the settlement account sends; absent, orders wait after the mint (and go STUCK). */
  accountSigner?: Account;
  burnPlanSigner?: LocalAccount;
  /** The operator's switch for all organizations at once (INTAKE_PAUSED). */
  intakePaused: boolean;
}

/** Settlement's ports: pricing (Circle's fees, the route, Mento), the legs it watches, the route it sends. */
export interface SettlementProviders {
  pricing: PricingProviders;
  legs: LegProviders;
  routes: BridgePlanner;
  /** This isolate's copy of the price book (pricing/book): quotes read prices from the book, not the vendors. */
  prices: PriceBookMemory;
}

/** What settlement's jobs and sweep hooks receive: the kernel's context with settlement's ports and setup. */
export interface SettlementServices extends ServiceContext {
  providers: SettlementProviders;
  settlement: SettlementSetup;
}

/** A partner's settlement request: the caller, with settlement's services. */
export type SettlementContext = PartnerContext<SettlementServices>;
