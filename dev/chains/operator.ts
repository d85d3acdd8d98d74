import { privateKeyToAccount } from "viem/accounts";

/**
 * The sandbox operator: deploys and owns every sandbox contract and mints test money. This is
 * Hardhat's first default account (mnemonic "test test … junk"), published everywhere: it must never
 * hold anything of value on a real chain.
 */
export const SANDBOX_OPERATOR_PRIVATE_KEY =
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as const;

/** 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 */
export const sandboxOperator = privateKeyToAccount(SANDBOX_OPERATOR_PRIVATE_KEY);

/** Native balance the operator starts with on each chain (1,000,000 of the 18-decimal gas token). */
export const OPERATOR_NATIVE_BALANCE = 1_000_000n * 10n ** 18n;
