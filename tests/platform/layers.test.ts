import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = join(import.meta.dirname, "../..");

/**
 * A scratch tree linted with the repository's own biome.json: each planted file breaks one layer
 * rule (docs/adr/0006-layers.md), each clean file follows them. Linting the scratch tree, not the
 * real one, proves the rules catch a breach without ever committing one.
 */
const planted: Record<string, { source: string; rule: string }> = {
  "lib/kernel/imports-an-area.ts": {
    source: 'import { createOrder } from "../settlement/create-order";\nexport const a = createOrder;\n',
    rule: "noRestrictedImports",
  },
  "lib/kernel/chain/imports-the-hono-kit.ts": {
    source: 'import { partnerAuth } from "../../http/auth";\nexport const b = partnerAuth;\n',
    rule: "noRestrictedImports",
  },
  "lib/settlement/imports-hono.ts": {
    source: 'import { Hono } from "hono";\nexport const c = Hono;\n',
    rule: "noRestrictedImports",
  },
  "lib/payouts/imports-a-route.ts": {
    source: 'import { route } from "../../functions/payouts/get-payout";\nexport const d = route;\n',
    rule: "noRestrictedImports",
  },
  "lib/identity/imports-a-vendor.ts": {
    source: 'import { resendEmail } from "../vendors/email/resend";\nexport const e = resendEmail;\n',
    rule: "noRestrictedImports",
  },
  "lib/swaps/dispatches-webhooks.ts": {
    source: 'import { dispatchWebhooks } from "../webhooks/deliver";\nexport const f = dispatchWebhooks;\n',
    rule: "noRestrictedImports",
  },
  "lib/vendors/mento/imports-the-composition-root.ts": {
    source: 'import { providersFor } from "../../composition/providers";\nexport const g = providersFor;\n',
    rule: "noRestrictedImports",
  },
  "lib/http/imports-a-vendor.ts": {
    source: 'import { lifiRoute } from "../vendors/lifi/lifi-route";\nexport const h = lifiRoute;\n',
    rule: "noRestrictedImports",
  },
  "functions/payouts/imports-the-composition-root.ts": {
    source: 'import { buildApp } from "../../lib/composition/app";\nexport const n = buildApp;\n',
    rule: "noRestrictedImports",
  },
  "sdk/src/imports-the-service.ts": {
    source: 'import { ERRORS } from "../../lib/kernel/errors/registry";\nexport const p = ERRORS;\n',
    rule: "noRestrictedImports",
  },
  "sdk/src/imports-node.ts": {
    source: 'import { createHmac } from "node:crypto";\nexport const q = createHmac;\n',
    rule: "noRestrictedImports",
  },
  "lib/composition/imports-a-local-vendor.ts": {
    source: 'import { startLocalCircle } from "../../dev/circle";\nexport const s = startLocalCircle;\n',
    rule: "noRestrictedImports",
  },
  "lib/vendors/lifi/imports-a-stand-in.ts": {
    source:
      'import { startLocalAggregator } from "../../../dev/aggregator";\nexport const t = startLocalAggregator;\n',
    rule: "noRestrictedImports",
  },
  "lib/ledger/imports-the-harness.ts": {
    source: 'import { createHarness } from "../../tests/harness/app";\nexport const u = createHarness;\n',
    rule: "noRestrictedImports",
  },
  "functions/settlement/imports-a-stand-in.ts": {
    source: 'import { startLocalCircle } from "../../dev/circle";\nexport const v = startLocalCircle;\n',
    rule: "noRestrictedImports",
  },
  "lib/tenancy/cycle-one.ts": {
    source: 'import type { Two } from "./cycle-two";\nexport type One = { two?: Two };\n',
    rule: "noImportCycles",
  },
  "lib/tenancy/cycle-two.ts": {
    source: 'import type { One } from "./cycle-one";\nexport type Two = { one?: One };\n',
    rule: "noImportCycles",
  },
};

const clean: Record<string, string> = {
  "lib/kernel/clock-user.ts": 'import { systemClock } from "./clock";\nexport const now = systemClock;\n',
  "lib/kernel/clock.ts": "export const systemClock = { now: () => new Date(0) };\n",
  "lib/settlement/uses-the-kernel.ts": 'import { now } from "../kernel/clock-user";\nexport const i = now;\n',
  "lib/settlement/index.ts": 'export { i } from "./uses-the-kernel";\n',
  "lib/payouts/uses-another-area.ts": 'import { i } from "../settlement";\nexport const j = i;\n',
  "lib/webhooks/outbox.ts":
    'import { dispatchWebhooks } from "./deliver";\nexport const k = dispatchWebhooks;\n',
  "lib/webhooks/deliver.ts": "export const dispatchWebhooks = () => undefined;\n",
  "lib/vendors/lifi/uses-a-port.ts":
    'import { j } from "../../payouts/uses-another-area";\nexport const l = j;\n',
  "lib/composition/wiring.ts": 'import { m } from "../http/uses-an-area";\nexport const now = m;\n',
  "lib/http/uses-an-area.ts": 'import { j } from "../payouts/uses-another-area";\nexport const m = j;\n',
  "lib/settlement/uses-the-sdk.ts":
    'import { burnPlans } from "../../sdk/src/plans";\nexport const r = burnPlans;\n',
  "sdk/src/plans.ts": "export const burnPlans = 1;\n",
  "lib/settlement/legs/uses-a-settlement-file.ts":
    'import { i } from "../../settlement/uses-the-kernel";\nexport const w = i;\n',
  "lib/ledger/uses-the-settlement-surface.ts": 'import { i } from "../settlement";\nexport const x = i;\n',
  "lib/vendors/lifi/uses-the-settlement-surface.ts":
    'import { i } from "../../settlement";\nexport const y = i;\n',
  "functions/settlement/get-order.ts": 'import { i } from "../../lib/settlement";\nexport const z = i;\n',
  "functions/webhooks/schemas.ts":
    'import { z } from "../settlement/get-order";\nexport const orderReadSchema = z;\n',
  "lib/composition/routes.ts":
    'import * as getOrder from "../../functions/settlement/get-order";\nexport const routes = [getOrder];\n',
  "lib/kernel/uses-the-schema.ts":
    'import { orders } from "../../schema/orders";\nimport { burnPlans } from "../../sdk/src/plans";\nexport const aa = [orders, burnPlans];\n',
  "lib/kernel/db/uses-the-kernel-and-schema.ts":
    'import { orders } from "../../../schema/orders";\nimport { systemClock } from "../clock";\nexport const ab = [orders, systemClock];\n',
};

/**
 * The worker entry, the one file of functions/ that may import the composition root (line 1); like every
 * other, it imports the settlement area through its surface only (line 2 breaks that).
 */
const entry =
  'import { now } from "../lib/composition/wiring";\nimport { x } from "../lib/settlement/create-order";\nexport const o = [now, x];\n';

/** The layers that are not areas, each with its own override in biome.json; every other folder of lib/ is an area. */
const notAreas = ["kernel", "vendors", "http", "composition"];

/**
 * One breach per layer rule in every folder of lib/ and functions/ there is (listed when the test runs, so a
 * new folder is covered by the time it exists): a folder not named in `notAreas` must lint as an area.
 */
function perFolder(libFolders: string[], functionFolders: string[]): typeof planted {
  const cases: typeof planted = {};
  const add = (path: string, from: string) => {
    cases[path] = {
      source: `import { x } from "${from}";\nexport const breach = x;\n`,
      rule: "noRestrictedImports",
    };
  };
  for (const folder of libFolders) {
    add(`lib/${folder}/imports-a-stand-in-per-folder.ts`, "../../dev/circle");
    if (folder !== "settlement")
      add(`lib/${folder}/imports-a-settlement-file.ts`, "../settlement/create-order");
    if (notAreas.includes(folder)) continue;
    add(`lib/${folder}/imports-hono.ts`, "hono");
    add(`lib/${folder}/nested/imports-hono.ts`, "@hono/zod-openapi");
    add(`lib/${folder}/imports-a-vendor-adapter.ts`, "../vendors/email/resend");
    add(`lib/${folder}/imports-the-hono-kit.ts`, "../http/auth");
    add(`lib/${folder}/imports-the-composition-root.ts`, "../composition/providers");
    add(`lib/${folder}/imports-a-route-file.ts`, "../../functions/payouts/get-payout");
    if (folder !== "webhooks") {
      cases[`lib/${folder}/dispatches-webhooks-directly.ts`] = {
        source:
          'import { dispatchWebhooks } from "../webhooks/deliver";\nexport const breach = dispatchWebhooks;\n',
        rule: "noRestrictedImports",
      };
    }
  }
  for (const folder of libFolders.filter((folder) => folder !== "kernel")) {
    add(`lib/kernel/imports-${folder}.ts`, `../${folder}`);
    add(`lib/kernel/chain/imports-${folder}.ts`, `../../${folder}/anything`);
  }
  add("lib/kernel/imports-hono.ts", "hono");
  add("lib/vendors/circle/imports-hono.ts", "hono");
  add("lib/vendors/circle/imports-a-settlement-file.ts", "../../settlement/legs/ports");
  add("lib/payouts/nested/imports-a-settlement-file.ts", "../../settlement/pricing/ports");
  for (const folder of functionFolders) {
    add(`functions/${folder}/imports-a-settlement-file.ts`, "../../lib/settlement/legs/ports");
  }
  return cases;
}

const folders = async (path: string) =>
  (await readdir(join(root, path), { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
const libFolders = await folders("lib");
const functionFolders = await folders("functions");
Object.assign(planted, perFolder(libFolders, functionFolders));

let scratch: string;
let findings: Array<{ file: string; line: number; rule: string }>;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "layers-"));
  const config = JSON.parse(await readFile(join(root, "biome.json"), "utf8"));
  config.vcs = { enabled: false };
  config.files = { includes: ["lib/**", "functions/**", "sdk/**"] };
  await writeFile(join(scratch, "biome.json"), JSON.stringify(config));
  const files = {
    ...Object.fromEntries(Object.entries(planted).map(([path, p]) => [path, p.source])),
    ...clean,
    "functions/index.ts": entry,
  };
  for (const [path, source] of Object.entries(files)) {
    await mkdir(dirname(join(scratch, path)), { recursive: true });
    await writeFile(join(scratch, path), source);
  }
  const biome = join(root, "node_modules/.bin/biome");
  const output = await run(biome, ["lint", "--max-diagnostics=1000", "--colors=off", "."], {
    cwd: scratch,
  }).then(
    (done) => done.stdout + done.stderr,
    (failed: { stdout: string; stderr: string }) => failed.stdout + failed.stderr,
  );
  findings = [...output.matchAll(/^((?:lib|functions|sdk)\/\S+?):(\d+):\d+ lint\/\w+\/(\w+)/gm)].map(
    ([, file, line, rule]) => ({ file: file as string, line: Number(line), rule: rule as string }),
  );
}, 60_000);
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("the layer rules (npm run lint)", () => {
  for (const [file, { rule }] of Object.entries(planted)) {
    it(`refuse ${file} (${rule})`, () => {
      expect(findings.map(({ file, rule }) => ({ file, rule }))).toContainEqual({ file, rule });
    });
  }

  it("cover every folder of lib/: all but the named layers are areas", () => {
    expect(libFolders).toEqual(expect.arrayContaining([...notAreas, "settlement", "webhooks"]));
    for (const folder of libFolders.filter((folder) => !notAreas.includes(folder))) {
      expect(planted).toHaveProperty([`lib/${folder}/imports-hono.ts`]);
    }
  });

  it("let the worker entry import the composition root, not a settlement file", () => {
    expect(findings.filter((finding) => finding.file === "functions/index.ts")).toEqual([
      { file: "functions/index.ts", line: 2, rule: "noRestrictedImports" },
    ]);
  });

  it("find no kernel file deeper than its relative rules are written for (lib/kernel/<folder>/<file>)", async () => {
    const kernel = join(root, "lib/kernel");
    const files = (await readdir(kernel, { recursive: true, withFileTypes: true }))
      .filter((file) => file.isFile())
      .map((file) => relative(kernel, join(file.parentPath, file.name)));
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => file.split(sep).length > 2)).toEqual([]);
  });

  it("let the kernel, areas, vendors and the Hono kit import what their layer allows", () => {
    const cleanFiles = [...Object.keys(clean)];
    expect(findings.filter((finding) => cleanFiles.includes(finding.file))).toEqual([]);
  });
});
