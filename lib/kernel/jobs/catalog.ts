import { advancePayoutJob } from "../../payouts/advance";
import { advanceSettlementJob } from "../../settlement/advance";
import { deliverWebhooksJob } from "../../webhooks/deliver";
import type { AnyJobDefinition } from "./definition";

export { type AnyJobDefinition, defineJob, type JobDefinition, type JobDelivery } from "./definition";

/** Every job kind the worker accepts at /internal/jobs/{kind}. */
export const jobCatalog: readonly AnyJobDefinition[] = [
  advanceSettlementJob,
  deliverWebhooksJob,
  advancePayoutJob,
];
