import type { ServiceContext } from "../kernel/context";
import type { ApiScope } from "./scopes";

/** Who is calling a partner route: resolved from the API key, never from the request body. */
export interface Caller {
  organizationId: string;
  integrationId: string;
  keyId: string;
  /** The organization's settings as of this request, read with the key in one lookup. */
  organization: OrganizationSettings;
  /** What the API key may do and from where; absent for callers without a key (miniapp, dashboard). */
  restrictions?: KeyRestrictions;
}

/** A restricted key's limits (docs/tenancy.md, "Restricted keys"); each null: none. */
export interface KeyRestrictions {
  scopes: ApiScope[] | null;
  allowedIps: string[] | null;
  expiresAt: Date | null;
}

export interface OrganizationSettings {
  intakePaused: boolean;
  burnPlanEnabled: boolean;
  serviceFeeBps: number;
  /** Settlements burn with Circle's Fast finality rather than Standard. */
  fastTransfer: boolean;
  settlementAccountActive: boolean;
  /** The organization's own fee on payouts (basis points) and where it is paid; 0 and null: none. */
  partnerFeeBps: number;
  partnerFeeAddress: string | null;
  /** The chain id a quote's USDC leaves when it names none; null: the profile's default source chain. */
  defaultSourceChainId: number | null;
  /** Volume limits in USDC atomic units, null for none (docs/compliance.md, "Volume limits"). */
  perUserDailyLimitUsd: bigint | null;
  perUserMonthlyLimitUsd: bigint | null;
  organizationDailyLimitUsd: bigint | null;
}

/** What stands for a key id where the miniapp calls without one (rate limits and logs read it). */
export const MINIAPP_KEY_ID = "miniapp";

/**
 * Whether the caller could be anyone: the mock-mode miniapp's key-less prefix. There only the user's
 * wallet (its session) says who asks, so every read of a user's records needs it.
 */
export function isAnonymous(caller: Caller): boolean {
  return caller.keyId === MINIAPP_KEY_ID;
}

/** What partner-facing domain verbs receive: every data access is scoped by `caller`. */
export type PartnerContext<Services extends ServiceContext = ServiceContext> = Services & {
  caller: Caller;
};
