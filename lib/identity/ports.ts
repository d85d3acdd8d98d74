import { KYC_STATUSES } from "../../schema";
import type { ServiceContext } from "../kernel/context";

export { KYC_STATUSES };

/**
 * What identity needs from outside: a sender for one-time codes and the KYC provider. The adapters
 * are in lib/vendors (email, kyc); the composition root picks them from the configuration.
 */
export interface IdentityProviders {
  /** Absent when no email provider is configured. */
  email?: EmailSender;
  /** Absent when no KYC provider is configured. */
  kyc?: KycProvider;
}

/** What identity's verbs receive: the kernel's context with identity's ports. */
export interface IdentityServices extends ServiceContext {
  providers: { identity: IdentityProviders };
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface EmailSender {
  send(message: EmailMessage): Promise<{ id: string }>;
}

export type KycStatus = (typeof KYC_STATUSES)[number];

export interface KycCustomer {
  customerId: string;
  status: KycStatus;
  kycLink: string;
  termsLink: string;
}

export interface KycProvider {
  /** Creates or finds (idempotent on externalId) the customer for this user, linking the verified email. */
  linksFor(input: { externalId: string; email: string; walletAddress: string }): Promise<KycCustomer>;
  statusOf(customerId: string): Promise<KycCustomer>;
}

/** A signed status callback from the KYC provider, once verified. */
export interface KycCallback {
  customerId: string;
  externalId: string;
  status: "pending" | "approved" | "rejected";
  updatedAt: string;
}
