// `npm run dev`: the embedded local stack plus the worker under `wrangler dev`.
// One Ctrl-C stops everything it started (so does a SIGTERM, or the end of npm or tsx above it,
// even by SIGKILL); the data stays in .data/ (.data/port-<PORT>/ on another PORT) for the next run.
import { join, relative } from "node:path";
import { pickPort, portIsFree } from "./listen-port";
import { LOCAL_ADMIN_TOKEN, LOCAL_PACE_VARS } from "./local-defaults";
import type { ReissuedKey } from "./local-keys";
import { PROJECT_ROOT, stackDataDir } from "./paths";
import { type LocalStack, startLocalStack } from "./stack";
import { stackLifetime } from "./stack-lifetime";
import { DEFAULT_PORT, stackPorts } from "./stack-ports";
import { startWranglerDev, type WranglerDev } from "./wrangler";

const SWEEP_EVERY_MS = 10_000;

const lifetime = stackLifetime();
const started = performance.now();
const port = Number(process.env.PORT ?? DEFAULT_PORT);
if (!Number.isInteger(port) || port <= 0 || port > 65_535) {
  console.error(`PORT must be a TCP port number, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(2);
}
if (!(await portIsFree("127.0.0.1", port))) {
  console.error(`port ${port} is taken: set PORT to another one`);
  process.exit(2);
}
const adminToken = process.env.ADMIN_TOKEN || LOCAL_ADMIN_TOKEN;
const publicUrl = `http://127.0.0.1:${port}`;
const ports = stackPorts(port);
const dataDir = stackDataDir(port);

const stack = await startLocalStack({ dataDir, ports, publicUrl });
const inspectorPort = await pickPort("127.0.0.1", ports.inspector);
const starting = new AbortController();
const workerStarting = startWranglerDev({
  port,
  inspectorPort,
  persistTo: join(dataDir, "wrangler", "state"),
  signal: starting.signal,
  vars: {
    ...stack.workerVars,
    MODE: "mock",
    CHAIN_PROFILE: "local",
    ADMIN_TOKEN: adminToken,
    ...LOCAL_PACE_VARS,
    ...(process.env.MOCK_KYC_AUTO_APPROVE
      ? { MOCK_KYC_AUTO_APPROVE: process.env.MOCK_KYC_AUTO_APPROVE }
      : {}),
  },
});
let sweeper: ReturnType<typeof setInterval> | undefined;
let stopping = false;
lifetime.stopWith(async (code) => {
  stopping = true;
  clearInterval(sweeper);
  // Stopped while wrangler starts: it is ended too, not left to the watchdog alone.
  starting.abort();
  const worker = await workerStarting.catch(() => undefined);
  await worker?.stop();
  await stack.close();
  process.exit(code);
});
workerStarting.then(ready, (error: unknown) => {
  if (!stopping) console.error(error instanceof Error ? error.message : error);
  lifetime.end(1);
});

function ready(worker: WranglerDev): void {
  worker.child.once("exit", (code) => {
    if (stopping) return;
    console.error(`wrangler dev exited (code ${code}); stopping the local stack`);
    lifetime.end(1);
  });
  sweeper = setInterval(() => {
    // wrangler dev does not fire cron triggers by itself; this is the local cron.
    fetch(`${publicUrl}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`).catch(() => {});
  }, SWEEP_EVERY_MS);
  console.log(readyText(stack));
}

/** The stack's addresses, every port included: the ones it preferred may have given way to free ones. */
function readyText(stack: LocalStack): string {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const rpc = stack.network.chains.map((chain) => `${chain.role} ${chain.rpcUrl}`).join(", ");
  const vars = stack.workerVars;
  return `
Local stack ready in ${seconds} s (data in ${relative(PROJECT_ROOT, dataDir)}/, kept between runs)

  API            ${publicUrl}
  Health         ${publicUrl}/health
  API reference  ${publicUrl}/docs
  OpenAPI        ${publicUrl}/openapi.json
  Admin token    ${adminToken}${process.env.ADMIN_TOKEN ? " (from ADMIN_TOKEN)" : " (local default; set ADMIN_TOKEN to change)"}
  Mailbox        ${stack.mailboxUrl}  (every email the worker sends, codes included)
  Sandbox KYC    ${stack.kycUrl}  (its pages approve or reject a user; MOCK_KYC_AUTO_APPROVE=false to use them)
  BRE-B provider ${stack.breb.url}  (deposit address ${stack.breb.depositAddress}; magic keys: 0000… unknown, 9999… fails and refunds)
  Circle (Iris)  ${stack.vendors.circle.url}  (attestations, fees, re-attestation; 35 requests a second, then 5 minutes of 429)
  Aggregator     ${stack.vendors.aggregator.url}  (LI.FI's /v1/quote and /v1/status; 100 requests a minute)
  Chains (RPC)   ${rpc}
  Inspector      127.0.0.1:${inspectorPort}  (workerd's DevTools)
  Internal       QStash ${vars.QSTASH_URL}, Neon relay ${vars.NEON_LOCAL_RELAY}, PGlite ${vars.DATABASE_URL}
  Dashboard      ${publicUrl}/dashboard  (members sign in with a code sent to the mailbox)
  Miniapp        ${publicUrl}/miniapp  (the end user's BRE-B payout page)
  Miniapp API    ${publicUrl}/api/breb/* without a key, as integration ${stack.miniapp?.integrationId}${stack.miniapp?.created ? " (made now)" : ""}

${reissuedNote(stack.reissuedKeys)}First API key (an organization with its first integration and key; the key is shown once):
  npm run admin -- create-org "My wallet"
or
  curl -s -X POST ${publicUrl}/admin/organizations \\
    -H "Authorization: Bearer ${adminToken}" -H "Content-Type: application/json" \\
    -d '{"name":"My wallet"}'

Ctrl-C stops everything.
`;
}

/** What `npm run dev` says of the local keys it re-issued as test keys (once, the first start after modes). */
function reissuedNote(keys: ReissuedKey[]): string {
  if (keys.length === 0) return "";
  const lines = keys.map(
    (key) =>
      `  ${key.integrationId} ${key.name ?? "(no name)"}: ${key.revokedStart}… revoked → ${key.apiKey}`,
  );
  return `Local keys re-issued as test keys (mock mode takes copm_test_ keys only; each is shown this once):
${lines.join("\n")}

`;
}
