import type { ServiceContext } from "../context";

/** Who is calling a partner route: resolved from the API key, never from the request body. */
export interface Caller {
  organizationId: string;
  integrationId: string;
  keyId: string;
  /** The organization's settings as of this request, read with the key in one lookup. */
  organization: OrganizationSettings;
}

export interface OrganizationSettings {
  intakePaused: boolean;
  burnPlanEnabled: boolean;
  serviceFeeBps: number;
  settlementAccountActive: boolean;
}

/** What partner-facing domain verbs receive: every data access is scoped by `caller`. */
export interface PartnerContext extends ServiceContext {
  caller: Caller;
}
