import { getAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Config } from "../config";
import type { SettlementSetup } from "./context";

export function settlementSetup(config: Config): SettlementSetup {
  return {
    intakePaused: config.INTAKE_PAUSED,
    ...(config.SETTLEMENT_ACCOUNT_ADDRESS
      ? { accountAddress: getAddress(config.SETTLEMENT_ACCOUNT_ADDRESS) }
      : {}),
    ...(config.BURN_PLAN_SIGNER_KEY
      ? { burnPlanSigner: privateKeyToAccount(config.BURN_PLAN_SIGNER_KEY as `0x${string}`) }
      : {}),
  };
}
