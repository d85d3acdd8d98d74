import { z } from "zod";

/**
 * Every variable the service reads, in one list: its schema and, as zod metadata, what it is for,
 * whether it is a secret, where it applies and whether live mode refuses to start without it. The
 * parser, the live-mode check and docs/configuration.md (`npm run docs`) all read this list.
 */
export interface VariableFacts {
  about: string;
  secret?: true;
  only?: "mock mode" | "the local profile";
  requiredInLive?: true;
}

export const variableFacts = z.registry<VariableFacts>();

declare const DESCRIBED: unique symbol;
/** A schema that carries its facts: the list takes nothing else, so no variable goes undescribed. */
export type Described<S extends z.ZodType> = S & { readonly [DESCRIBED]: true };

export function variable<S extends z.ZodType>(schema: S, facts: VariableFacts): Described<S> {
  // A clone, so a shape shared by several variables (optionalUrl) carries each one's own facts.
  const described = schema.clone();
  variableFacts.add(described, facts);
  return described as Described<S>;
}
