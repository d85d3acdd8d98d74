import type { ServiceContext } from "../kernel/context";
import type { WebhookPost } from "./post";

/** What the webhook sender receives: the kernel's context with the runtime's way of posting. */
export interface WebhookServices extends ServiceContext {
  providers: { webhookPost: WebhookPost };
}
