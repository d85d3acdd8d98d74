import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
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
  "lib/payouts/uses-another-area.ts":
    'import { i } from "../settlement/uses-the-kernel";\nexport const j = i;\n',
  "lib/webhooks/outbox.ts":
    'import { dispatchWebhooks } from "./deliver";\nexport const k = dispatchWebhooks;\n',
  "lib/webhooks/deliver.ts": "export const dispatchWebhooks = () => undefined;\n",
  "lib/vendors/lifi/uses-a-port.ts":
    'import { j } from "../../payouts/uses-another-area";\nexport const l = j;\n',
  "functions/index.ts": 'import { now } from "../lib/composition/wiring";\nexport const o = now;\n',
  "lib/composition/wiring.ts": 'import { m } from "../http/uses-an-area";\nexport const now = m;\n',
  "lib/http/uses-an-area.ts": 'import { j } from "../payouts/uses-another-area";\nexport const m = j;\n',
  "lib/settlement/uses-the-sdk.ts":
    'import { burnPlans } from "../../sdk/src/plans";\nexport const r = burnPlans;\n',
  "sdk/src/plans.ts": "export const burnPlans = 1;\n",
};

let scratch: string;
let findings: Array<{ file: string; rule: string }>;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "layers-"));
  const config = JSON.parse(await readFile(join(root, "biome.json"), "utf8"));
  config.vcs = { enabled: false };
  config.files = { includes: ["lib/**", "functions/**", "sdk/**"] };
  await writeFile(join(scratch, "biome.json"), JSON.stringify(config));
  const files = {
    ...Object.fromEntries(Object.entries(planted).map(([path, p]) => [path, p.source])),
    ...clean,
  };
  for (const [path, source] of Object.entries(files)) {
    await mkdir(dirname(join(scratch, path)), { recursive: true });
    await writeFile(join(scratch, path), source);
  }
  const biome = join(root, "node_modules/.bin/biome");
  const output = await run(biome, ["lint", "--max-diagnostics=200", "--colors=off", "."], {
    cwd: scratch,
  }).then(
    (done) => done.stdout + done.stderr,
    (failed: { stdout: string; stderr: string }) => failed.stdout + failed.stderr,
  );
  findings = [...output.matchAll(/^((?:lib|functions|sdk)\/\S+?):\d+:\d+ lint\/\w+\/(\w+)/gm)].map(
    ([, file, rule]) => ({
      file: file as string,
      rule: rule as string,
    }),
  );
}, 60_000);
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("the layer rules (npm run lint)", () => {
  for (const [file, { rule }] of Object.entries(planted)) {
    it(`refuse ${file} (${rule})`, () => {
      expect(findings).toContainEqual({ file, rule });
    });
  }

  it("let the kernel, areas, vendors and the Hono kit import what their layer allows", () => {
    const cleanFiles = [...Object.keys(clean)];
    expect(findings.filter((finding) => cleanFiles.includes(finding.file))).toEqual([]);
  });
});
