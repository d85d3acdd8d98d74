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

/**
 * The local vendors' own keys, Hardhat's public default accounts #5 to #7 (as public as the
 * operator's): Circle's attester (the transmitters trust its signature), Circle's Forwarding
 * Service (it sends forwarded mints) and the aggregator's relayer (it owns the routers and relay
 * receivers, and pays and refunds routes). Each sends from its own account, so the local services
 * never race the faucet, which signs as the operator, for a nonce.
 */
export const LOCAL_CIRCLE_ATTESTER_KEY =
  "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba" as const;
export const LOCAL_CIRCLE_FORWARDER_KEY =
  "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e" as const;
export const LOCAL_AGGREGATOR_KEY =
  "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356" as const;
