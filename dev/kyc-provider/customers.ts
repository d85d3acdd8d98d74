// The sandbox's customers, in memory: one per externalId, as the real provider keeps them.

import { randomBytes } from "node:crypto";
import type { KycStatus } from "../../lib/identity/ports";

export interface SandboxCustomer {
  customerId: string;
  externalId: string;
  email: string;
  walletAddress: string;
  status: KycStatus;
  updatedAt: Date;
}

export class CustomerStore {
  readonly #byId = new Map<string, SandboxCustomer>();
  readonly #idByExternalId = new Map<string, string>();

  /** The customer for this externalId, created `pending` if new; an existing one gets the new email. */
  upsert(
    input: { externalId: string; email: string; walletAddress: string },
    now: Date,
  ): { customer: SandboxCustomer; created: boolean } {
    const existing = this.get(this.#idByExternalId.get(input.externalId) ?? "");
    if (existing) {
      if (existing.email !== input.email) {
        existing.email = input.email;
        existing.updatedAt = now;
      }
      return { customer: existing, created: false };
    }
    const customer: SandboxCustomer = {
      customerId: `cus_${randomBytes(12).toString("hex")}`,
      ...input,
      status: "pending",
      updatedAt: now,
    };
    this.#byId.set(customer.customerId, customer);
    this.#idByExternalId.set(customer.externalId, customer.customerId);
    return { customer, created: true };
  }

  get(customerId: string): SandboxCustomer | undefined {
    return this.#byId.get(customerId);
  }

  setStatus(customerId: string, status: KycStatus, now: Date): SandboxCustomer | undefined {
    const customer = this.#byId.get(customerId);
    if (!customer) return undefined;
    customer.status = status;
    customer.updatedAt = now;
    return customer;
  }
}
