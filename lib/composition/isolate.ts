import type { Hono } from "hono";
import { misconfiguredApp } from "../http/app";
import type { AppDeps } from "../http/deps";
import { parseConfig } from "../kernel/config";
import { type WorkerBindings, workerDeps } from "./runtime";

type Built = { app: Hono; deps?: AppDeps };

/**
 * A worker's app, built once per isolate and per env (the env of one deployment does not change
 * under it): `build` over the worker's deps, or the app that names what is misconfigured.
 */
export function isolateApp(build: (deps: AppDeps) => unknown): (env: Record<string, unknown>) => Built {
  const built = new WeakMap<object, Built>();
  return (env) => {
    const cached = built.get(env);
    if (cached) return cached;
    const parsed = parseConfig(env);
    const made = parsed.ok ? workerDeps(parsed.config, env as WorkerBindings) : parsed;
    const result: Built = made.ok
      ? { app: build(made.deps) as Hono, deps: made.deps }
      : { app: misconfiguredApp(made.problems) };
    built.set(env, result);
    return result;
  };
}
