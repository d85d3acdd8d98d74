import type { ServiceContext } from "../context";
import type { JobRef } from "./jobs";

export interface JobDelivery {
  messageId: string;
  retried: number;
}

/** A job kind with its handler. Handlers must be idempotent: delivery is at least once. */
export interface JobDefinition<P> extends JobRef<P> {
  run(ctx: ServiceContext, payload: P, delivery: JobDelivery): Promise<void>;
}

export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P> {
  return definition;
}

// biome-ignore lint/suspicious/noExplicitAny: a catalog holds jobs of every payload type
export type AnyJobDefinition = JobDefinition<any>;
