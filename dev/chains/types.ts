import type { Hex } from "viem";
import type { Clock } from "../../lib/kernel/clock";
import type { ListenPort } from "../listen-port";

export type ChainRole = "source" | "intermediate" | "destination";

/**
 * The sandbox's chains by name: two CCTP source chains (`source`, the default, and `sourceB`), the
 * intermediate and the destination. A chain's role is what the service knows it by.
 */
export type SandboxChainKey = ChainRole | "sourceB";

export type Address = `0x${string}`;

export interface SandboxChain {
  key: SandboxChainKey;
  role: ChainRole;
  chainId: number;
  name: string;
  rpcUrl: string;
  cctpDomain?: number;
  /** Source chains: the attestation times the service is told (roles.ts). */
  attestation?: { standardSeconds: number; fastSeconds?: number };
  contracts: {
    usdc?: Address;
    usdt?: Address;
    usdm?: Address;
    /** Destination only: a bridge's wrapped USDC that Mento does not trade (`.83` delivers it). */
    bridgedUsdc?: Address;
    copm?: Address;
    tokenMessenger?: Address;
    /** Circle's receive side (source and intermediate), trusting the local Circle's attester. */
    messageTransmitter?: Address;
    broker?: Address;
    exchangeProvider?: Address;
    /**
     * The local aggregator's router (dev/aggregator): where a route's transaction goes (intermediate,
     * and destination for returns), owned by the aggregator's relayer.
     */
    router?: Address;
    /**
     * Where the local aggregator pays routes out: USDm on the destination chain, USDC on the
     * intermediate chain (a return's way back).
     */
    relayReceiver?: Address;
    /** Destination only: the user's one deposit transaction for a payout (amount and fee, one event). */
    payoutDepositor?: Address;
    /**
     * Destination only: the MentoRouter stand-in (swapExactTokensForTokens along broker steps), for a
     * wallet's one-transaction swap such as USDC -> USDm -> COPm.
     */
    mentoRouter?: Address;
    /** Every chain: the sanctions-oracle stand-in at Chainalysis's address (sanctions.ts). */
    sanctionsOracle?: Address;
  };
  exchanges?: Array<{ exchangeId: Address; tokens: [Address, Address] }>;
}

export interface SandboxNetwork {
  operator: { address: Address; privateKey: Hex };
  /** The local vendors' accounts (dev/chains/operator.ts): Circle's attester and forwarder, the aggregator's relayer. */
  vendors: { circleAttester: Address; circleForwarder: Address; aggregator: Address };
  chains: SandboxChain[];
}

/** Mento's exchanges on Celo that the sandbox reproduces; USDm is asset0 of each. */
export type ExchangePair = "USDm/COPm" | "USDm/USDC" | "USDm/USDT";

export interface SandboxRates {
  /** Whole COPm one whole USDm buys before the spread, 18-decimal fixed point (3_900n * 10n ** 18n). */
  copmPerUsdm: bigint;
  /** Fraction of every swap kept by the exchange, 18-decimal fixed point (25n * 10n ** 14n = 0.25%). */
  spread: bigint;
}

/**
 * Mento's trading-limit configuration (ITradingLimits.Config). Limits are in WHOLE token units, as
 * Mento stores them (int48), hence numbers; timesteps are seconds. flags: 1 = L0, 2 = L1, 4 = LG.
 */
export interface TradingLimitConfig {
  timestep0: number;
  timestep1: number;
  limit0: number;
  limit1: number;
  limitGlobal: number;
  flags: number;
}

export interface SandboxChainsOptions {
  /** Loopback address the JSON-RPC servers bind to (default 127.0.0.1). */
  host?: string;
  /** JSON-RPC port per role (a fixed or a preferred one); 0 or absent lets the OS pick a free one. */
  ports?: Partial<Record<SandboxChainKey, ListenPort>>;
  rate?: Partial<SandboxRates>;
  /** The limit on the USDm side of each exchange; null leaves that exchange unlimited. */
  limits?: Partial<Record<ExchangePair, TradingLimitConfig | null>>;
  /**
   * The clock the chains follow: genesis at its time and every block stamped with its whole seconds
   * (never before the previous block). Absent, the chains keep wall time.
   */
  clock?: Clock;
  /** Chain ids and names instead of the sandbox's (the rehearsal: 42161, 8453, 42220). */
  facts?: Partial<Record<SandboxChainKey, { chainId: number; name: string }>>;
  /**
   * Where contracts go instead of where the operator's nonce puts them: per chain, the nth
   * deployment of a contract name lands at an address, placed as Foundry's `vm.etch` places it
   * (deployment.ts): the rehearsal's mainnet addresses.
   */
  placements?: Partial<Record<SandboxChainKey, Placement[]>>;
  /** Mine a block every this many milliseconds besides each transaction (confirmations accrue). */
  intervalMiningMs?: number;
  /**
   * Where each chain's sanctions-oracle stand-in is put (default: Chainalysis's address on most
   * chains, CHAINALYSIS_SANCTIONS_ORACLE); the rehearsal gives the mainnet profile's per chain.
   */
  sanctionsOracles?: Partial<Record<SandboxChainKey, Address>>;
}

/** The `occurrence`th deployment (from 1) of `contract` on a chain lands at `address`. */
export interface Placement {
  contract: string;
  occurrence?: number;
  address: Address;
}

export interface RunningSandboxChains {
  network: SandboxNetwork;
  close(): Promise<void>;
}
