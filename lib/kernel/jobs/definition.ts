import type { ServiceContext } from "../context";
import type { JobRef } from "./jobs";

interface JobDelivery {
  messageId: string;
  retried: number;
}

/** A job kind with its handler. Handlers must be idempotent: delivery is at least once. */
export interface JobDefinition<P, Services extends ServiceContext = ServiceContext> extends JobRef<P> {
  run(ctx: Services, payload: P, delivery: JobDelivery): Promise<void>;
}

export function defineJob<P, Services extends ServiceContext = ServiceContext>(
  definition: JobDefinition<P, Services>,
): JobDefinition<P, Services> {
  return definition;
}

/** A catalog's entry: any payload, run with the services the catalog's runtime gives. */
// biome-ignore lint/suspicious/noExplicitAny: a catalog holds jobs of every payload type
export type AnyJobDefinition<Services extends ServiceContext = ServiceContext> = JobDefinition<any, Services>;
