import { getAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Config } from "../kernel/config";
import type { SettlementAccount, SettlementSetup } from "./context";

/**
 * The settlement accounts and the burn plan signer from configuration. The first account is
 * SETTLEMENT_ACCOUNT_KEY's (or SETTLEMENT_ACCOUNT_ADDRESS alone, which receives but cannot send);
 * SETTLEMENT_ACCOUNT_KEYS adds the rest of the pool. A signer is a viem Account: a local key here; a
 * production deployment may hand in any viem Account (a KMS- or HSM-backed one) instead, since the
 * service only asks it to sign transactions.
 */
export function settlementSetup(config: Config): SettlementSetup {
  const signer = config.SETTLEMENT_ACCOUNT_KEY
    ? privateKeyToAccount(config.SETTLEMENT_ACCOUNT_KEY as `0x${string}`)
    : undefined;
  const address = config.SETTLEMENT_ACCOUNT_ADDRESS
    ? getAddress(config.SETTLEMENT_ACCOUNT_ADDRESS)
    : signer?.address;
  const first: SettlementAccount[] = address ? [{ address, ...(signer ? { signer } : {}) }] : [];
  const rest = (config.SETTLEMENT_ACCOUNT_KEYS ?? [])
    .map((key) => privateKeyToAccount(key as `0x${string}`))
    .filter((extra) => extra.address !== address)
    .map((extra): SettlementAccount => ({ address: extra.address, signer: extra }));
  const accounts = [...first, ...rest];
  return {
    intakePaused: config.INTAKE_PAUSED,
    accounts,
    ...(address ? { accountAddress: address } : {}),
    ...(signer ? { accountSigner: signer } : {}),
    ...(config.BURN_PLAN_SIGNER_KEY
      ? { burnPlanSigner: privateKeyToAccount(config.BURN_PLAN_SIGNER_KEY as `0x${string}`) }
      : {}),
  };
}
