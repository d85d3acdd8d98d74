import type { Account, LocalAccount } from "viem";
import type { ServiceContext } from "../kernel/context";
import type { PartnerContext } from "../tenancy/caller";
import type { LegProviders } from "./legs/ports";
import type { PriceBookMemory } from "./pricing/book/memory";
import type { BridgePlanner } from "./pricing/bridge-planner";
import type { PricingProviders } from "./pricing/ports";

/** One account of the pool: where an order's mint lands and what sends its legs. */
export interface SettlementAccount {
  address: `0x${string}`;
  /** Absent for an address configured alone: it receives, and its orders wait after the mint (STUCK). */
  signer?: Account;
}

/**
 * A settlement account receives the forwarded USDC mint and carries the money on; the burn plan
 * signer signs the plans the service hands out. Either may be absent in a local setup that did not
 * configure them, and then settlement answers SETTLEMENT_ACCOUNT_INACTIVE.
 */
export interface SettlementSetup {
  /**
   * The settlement account: within an order's work (orderScope), that order's own; elsewhere the
   * pool's first, which prices quotes and is the default of orders made before the pool.
   */
  accountAddress?: `0x${string}`;
  /** Signs what the settlement account sends; absent, orders wait after the mint (and go STUCK). */
  accountSigner?: Account;
  /** Every account of the pool, the first first (accounts.ts spreads new orders across them). */
  accounts: readonly SettlementAccount[];
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
