import { getAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Config } from "../kernel/config";
import type { SettlementSetup } from "./context";

/**
 * The settlement account and the burn plan signer from configuration. The account's signer is a
 * viem Account: a local key here; a production deployment may hand in any viem Account (a KMS- or
 * HSM-backed one) instead, since the service only asks it to sign transactions.
 */
export function settlementSetup(config: Config): SettlementSetup {
  const signer = config.SETTLEMENT_ACCOUNT_KEY
    ? privateKeyToAccount(config.SETTLEMENT_ACCOUNT_KEY as `0x${string}`)
    : undefined;
  const address = config.SETTLEMENT_ACCOUNT_ADDRESS
    ? getAddress(config.SETTLEMENT_ACCOUNT_ADDRESS)
    : signer?.address;
  return {
    intakePaused: config.INTAKE_PAUSED,
    ...(address ? { accountAddress: address } : {}),
    ...(signer ? { accountSigner: signer } : {}),
    ...(config.BURN_PLAN_SIGNER_KEY
      ? { burnPlanSigner: privateKeyToAccount(config.BURN_PLAN_SIGNER_KEY as `0x${string}`) }
      : {}),
  };
}
