import type { Account } from "viem";
import type { IdentityServices } from "../identity/ports";
import type { SettlementSetup } from "../settlement";

/**
 * The BRE-B payout provider: it quotes its COP rate, resolves a BRE-B key to the account holder
 * ("preview"), takes a payout once the user's deposit reached its deposit address, and reports the
 * payout's progress by signed callback and on request. The HTTP contract is
 * docs/breb-provider.openapi.yaml; `httpBrebProvider` speaks it, and so does the local provider
 * in dev/breb-provider.
 */

/** The tokens a payout is paid from. */
export const BREB_TOKENS = ["USDC", "COPm"] as const;
export type BrebToken = (typeof BREB_TOKENS)[number];

export interface BrebRate {
  token: BrebToken;
  /** COP the provider pays out per 1 whole token (1 USDC, or 1 COPm), as a decimal string. */
  copPerUnit: string;
}

export interface BrebKeyResolution {
  /** False when no account holds the key. */
  found: boolean;
  /** The account holder's name as the bank has it, when found. */
  holderName?: string;
}

export interface BrebPayoutRequest {
  /** The service's payout id: the provider takes one payout per id (idempotent). */
  payoutId: string;
  breBKey: string;
  accountOwnerName: string;
  /** Whole pesos the recipient must receive. */
  destinationCop: string;
  token: BrebToken;
  chainId: number;
  /** What the user deposited to the provider, in the token's atomic units. */
  amount: string;
  depositTxHash: string;
  /**
   * The index of the Transfer log in that transaction that paid the deposit address: a smart wallet
   * may pay several payouts in one transaction, so a deposit is a (hash, log index).
   */
  depositLogIndex?: number;
  /** Where the provider sends a refund. */
  refundAddress: string;
}

export const BREB_PAYOUT_STATES = ["processing", "completed", "failed", "refunded"] as const;
export type BrebPayoutState = (typeof BREB_PAYOUT_STATES)[number];

export interface BrebPayoutReport {
  payoutId: string;
  providerPayoutId: string;
  status: BrebPayoutState;
  /** Set once completed: the BRE-B transaction id. */
  brebTransactionId?: string;
  failureReason?: string;
  /** Set once refunded: the provider's refund transaction on the payout chain. */
  refundTxHash?: string;
  /** The provider's time of this state; later reports win. */
  updatedAt: string;
}

export interface BrebProvider {
  rate(token: BrebToken): Promise<BrebRate>;
  /** The provider's deposit address for a token on a chain. */
  depositAddress(input: { token: BrebToken; chainId: number }): Promise<string>;
  /** The provider's preview of a key; the owner name as the user typed it is sent along for its records. */
  resolveKey(input: { breBKey: string; accountOwnerName: string }): Promise<BrebKeyResolution>;
  submit(request: BrebPayoutRequest): Promise<BrebPayoutReport>;
  /**
   * Sends a payout's deposit back to `refundAddress` instead of paying it: a deposit the provider
   * holds but will not pay (it refused the payout, or it arrived after the deadline), or a failed
   * payout it has not refunded. Answers the payout as the provider now has it: `failed` while the
   * refund is on its way, then `refunded` with its transaction. Refused (no_route) for a payout that
   * was paid or a deposit that does not check out.
   */
  refund(request: BrebPayoutRequest): Promise<BrebPayoutReport>;
  status(payoutId: string): Promise<BrebPayoutReport>;
}

/** Who pays BRE-B payouts out: absent when not configured (payout routes then answer unavailable). */
export interface PayoutProviders {
  provider?: BrebProvider;
  /**
   * Signs the fee wallet's transactions: the return of a refunded payout's service fee. Absent, the
   * fee is owed and the operator sees it (docs/payouts.md, Refunds).
   */
  feeWallet?: Account;
}

/**
 * What payouts' verbs receive: identity's ports (a payout needs the user's KYC) with the BRE-B
 * provider, and the service's signer (a payout plan is signed like a burn plan).
 */
export interface PayoutServices extends IdentityServices {
  providers: IdentityServices["providers"] & { payouts: PayoutProviders };
  settlement: Pick<SettlementSetup, "burnPlanSigner">;
}
