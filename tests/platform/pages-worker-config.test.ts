import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";

/**
 * wrangler.pages.toml against wrangler.toml: the pages worker is reachable through the API worker's
 * binding alone (its per-address limits trust a header only that hop sets), and has every binding
 * the dashboard's and the miniapp's code reads, in every environment, as the API worker has them.
 */

const ROOT = join(__dirname, "../..");
type Limit = { name: string; namespace_id: string; simple: { limit: number; period: number } };
type Service = { binding: string; service: string };
type Worker = {
  name: string;
  workers_dev?: boolean;
  preview_urls?: boolean;
  route?: unknown;
  routes?: unknown[];
  compatibility_date?: string;
  compatibility_flags?: string[];
  alias?: Record<string, string>;
  vars?: Record<string, string>;
  ratelimits?: Limit[];
  services?: Service[];
};
type Config = Worker & { env?: Record<string, Worker> };

const read = async (file: string) => parse(await readFile(join(ROOT, file), "utf8")) as unknown as Config;
/** A config's environments, the top level as "". Bindings and vars are not inherited by an environment. */
const environments = (config: Config): Array<[string, Worker]> => [
  ["", config],
  ...Object.entries(config.env ?? {}).map(([name, env]) => [name, env] as [string, Worker]),
];
/** What an environment says, or the top level's for what environments inherit (name aside). */
const inherited = (config: Config, env: Worker, key: "workers_dev" | "preview_urls") =>
  env[key] ?? config[key];

/** The limiters the pages worker's code reads: members' per-key budget (dashboard-frame.ts), per-address for everyone else. */
const PAGES_LIMITERS = ["PARTNER_KEY_RATE_LIMITER", "CLIENT_IP_RATE_LIMITER"];

describe("the pages worker's configuration", async () => {
  const api = await read("wrangler.toml");
  const pages = await read("wrangler.pages.toml");

  it("has the same environments as the API worker", () => {
    expect(Object.keys(pages.env ?? {}).sort()).toEqual(Object.keys(api.env ?? {}).sort());
  });

  it.each(environments(pages))(
    "has no public entry in %j: no route, no workers.dev, no preview URLs",
    (_, env) => {
      expect(env.route).toBeUndefined();
      expect(env.routes ?? []).toEqual([]);
      expect(inherited(pages, env, "workers_dev")).toBe(false);
      // Left unset, wrangler leaves Preview URLs as the account has them: say so explicitly.
      expect(inherited(pages, env, "preview_urls")).toBe(false);
    },
  );

  it.each(environments(api))("is what the API worker's PAGES binding names in %j", (name, env) => {
    const binding = env.services?.find((service) => service.binding === "PAGES");
    const target = name === "" ? pages.name : pages.env?.[name]?.name;
    expect(binding?.service).toBeDefined();
    expect(binding?.service).toBe(target);
  });

  it.each(environments(pages))("has every limiter its code reads in %j, as the API worker's", (name, env) => {
    const apiEnv = name === "" ? api : api.env?.[name];
    for (const limiter of PAGES_LIMITERS) {
      const own = env.ratelimits?.find((l) => l.name === limiter);
      const theirs = apiEnv?.ratelimits?.find((l) => l.name === limiter);
      expect(own, `${limiter} in ${name || "top level"}`).toBeDefined();
      expect(own).toEqual(theirs);
    }
  });

  it.each(environments(pages))("has the API worker's plain variables in %j", (name, env) => {
    const apiEnv = name === "" ? api : api.env?.[name];
    expect(env.vars ?? {}).toEqual(apiEnv?.vars ?? {});
  });

  it("runs on the API worker's runtime and aliases", () => {
    expect(pages.compatibility_date).toBe(api.compatibility_date);
    expect(pages.compatibility_flags).toEqual(api.compatibility_flags);
    expect(pages.alias).toEqual(api.alias);
  });
});
