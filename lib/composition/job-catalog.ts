import type { AnyJobDefinition } from "../kernel/jobs/definition";
import { advancePayoutJob } from "../payouts/advance";
import { advanceSettlementJob } from "../settlement/advance";
import { deliverWebhooksJob } from "../webhooks/deliver";

export {
  type AnyJobDefinition,
  defineJob,
  type JobDefinition,
  type JobDelivery,
} from "../kernel/jobs/definition";

/** Every job kind the worker accepts at /internal/jobs/{kind}. */
export const jobCatalog: readonly AnyJobDefinition[] = [
  advanceSettlementJob,
  deliverWebhooksJob,
  advancePayoutJob,
];
