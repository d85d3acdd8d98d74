import type { Account, LocalAccount } from "viem";
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

/** A partner's settlement request: the caller, with the providers and the setup every context has. */
export type SettlementContext = PartnerContext;
