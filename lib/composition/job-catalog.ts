import type { AppServices } from "../http/deps";
import type { AnyJobDefinition } from "../kernel/jobs/definition";
import { advancePayoutJob } from "../payouts/advance";
import { advanceMintReturnJob, advanceSettlementJob } from "../settlement";
import { deliverWebhooksJob } from "../webhooks/deliver";

/** Every job kind the worker accepts at /internal/jobs/{kind}. */
export const jobCatalog: readonly AnyJobDefinition<AppServices>[] = [
  advanceSettlementJob,
  deliverWebhooksJob,
  advancePayoutJob,
  advanceMintReturnJob,
];
