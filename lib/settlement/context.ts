import type { Account, LocalAccount } from "viem";
import type { PricingProviders } from "../providers/types";
import type { PartnerContext } from "../tenancy/caller";

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

export interface SettlementContext extends PartnerContext {
  pricing: PricingProviders;
  settlement: SettlementSetup;
}
