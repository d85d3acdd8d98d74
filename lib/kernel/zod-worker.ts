/**
 * The worker's stand-in for the "zod" import (wrangler.toml `[alias]`): zod itself, with `z` as an
 * object of the members the code calls rather than zod's namespace. `import { z }` hands esbuild the
 * whole namespace as a value, so every export of zod would ship (its JSON Schema converters and
 * ahead-of-time compiler among them, ~80 KB the worker never runs); named here, only what is used does.
 * Node (the tests, tsx) loads zod unchanged. tests/platform/worker-stand-ins.test.ts fails when the code uses a
 * member of `z` missing here.
 */
import {
  array,
  boolean,
  coerce,
  discriminatedUnion,
  enum as enumOf,
  iso,
  literal,
  NEVER,
  number,
  object,
  record,
  registry,
  string,
  tuple,
  union,
  unknown,
  ZodObject,
  ZodType,
} from "zod/v4";

export * from "zod/v4";

export const z = {
  array,
  boolean,
  coerce,
  discriminatedUnion,
  enum: enumOf,
  iso,
  literal,
  NEVER,
  number,
  object,
  record,
  registry,
  string,
  tuple,
  union,
  unknown,
  ZodObject,
  ZodType,
};
