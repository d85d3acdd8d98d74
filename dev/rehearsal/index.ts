// `npm run rehearsal`: production's own code path on a local universe shaped as mainnet. The worker
// runs its deployed bundle under `wrangler dev` in MODE=live with the unchanged mainnet profile;
// only the RPC URLs, the vendors' URLs and the secrets differ from a production deployment
// (docs/operations.md). `-- --drive` also drives a settlement, a payout, a swap and a return through
// the public API with live keys, prints what happened, and exits non-zero when any falls short.

import { randomBytes } from "node:crypto";
import { parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { freePort } from "../../tests/harness/free-port";
import { LOCAL_PLAN_SIGNER, localSettlementVars } from "../local-defaults";
import { startLocalStack } from "../stack";
import { stackLifetime } from "../stack-lifetime";
import { startWranglerDev } from "../wrangler";
import { driveRehearsal, fundedWallet } from "./drive";

const lifetime = stackLifetime();
const drive = process.argv.includes("--drive");
const started = performance.now();
const port = process.env.PORT ? Number(process.env.PORT) : await freePort();
const publicUrl = `http://127.0.0.1:${port}`;
// Secrets of this run only: a production deployment keeps its own in Cloudflare's secrets.
const adminToken = process.env.ADMIN_TOKEN || `rehearsal-${randomBytes(24).toString("hex")}`;
const secret = () => randomBytes(32).toString("base64");

const stack = await startLocalStack({ publicUrl, profile: "mainnet" });
let worker: Awaited<ReturnType<typeof startWranglerDev>> | undefined;
const output: string[] = [];
const stop = async (code: number) => {
  await worker?.stop();
  await stack.close();
  process.exit(code);
};
lifetime.stopWith(stop);

try {
  worker = await startWranglerDev({
    port,
    vars: {
      ...stack.workerVars,
      MODE: "live",
      ADMIN_TOKEN: adminToken,
      OTP_HASH_KEY: secret(),
      DASHBOARD_SESSION_KEY: secret(),
      TWO_FACTOR_SECRETS_KEY: secret(),
      EMAIL_FROM: "COPm <codes@rehearsal.local>",
      ...localSettlementVars(),
    },
    output: (chunk) => output.push(chunk),
    readyTimeoutMs: 120_000,
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error, output.join(""));
  await stop(1);
}

const { network } = stack;
// One funded test account per chain: gas and 1,000 of each token the chain has, as a user's wallet holds them.
const accounts = await Promise.all(
  network.chains.map(async (chain) => {
    const privateKey = generatePrivateKey();
    const account = privateKeyToAccount(privateKey);
    const tokens = (["usdc", "usdt", "usdm", "copm"] as const).flatMap((symbol) => {
      const token = chain.contracts[symbol];
      return token
        ? [{ token, amount: parseUnits("1000", symbol === "usdm" || symbol === "copm" ? 18 : 6) }]
        : [];
    });
    await fundedWallet(network, chain.role, tokens, account);
    return { chain, account, privateKey };
  }),
);

console.log(`
Rehearsal ready in ${((performance.now() - started) / 1000).toFixed(1)} s: the worker in MODE=live, CHAIN_PROFILE=mainnet

  API            ${publicUrl}
  Admin token    ${adminToken}
  Circle (Iris)  ${stack.vendors.circle.url}
  Aggregator     ${stack.vendors.aggregator.url}
  BRE-B provider ${stack.breb.url}
  KYC provider   ${stack.kycUrl}
  Mailbox        ${stack.mailboxUrl}
${network.chains
  .map((chain) => {
    const funded = accounts.find((entry) => entry.chain.role === chain.role);
    return `  ${chain.name} (${chain.chainId})  ${chain.rpcUrl}\n    funded test account ${funded?.account.address}, key ${funded?.privateKey}`;
  })
  .join("\n")}
`);

if (!drive) {
  console.log("Ctrl-C stops everything.");
} else {
  let code = 0;
  try {
    const report = await driveRehearsal({
      apiUrl: publicUrl,
      adminToken,
      network,
      mailboxUrl: stack.mailboxUrl,
      planSigner: LOCAL_PLAN_SIGNER,
    });
    console.log(`mode: ${report.mode}`);
    for (const chain of report.chains) console.log(`chain ${chain.role}: ${chain.chainId}`);
    console.log("operator (GET /admin/health):");
    for (const line of report.operator) console.log(`    ${line}`);
    for (const outcome of report.outcomes) {
      const ok = outcome.got === outcome.wanted;
      if (!ok) code = 1;
      console.log(`\n${ok ? "ok" : "FAILED"}  ${outcome.what}: ${outcome.got} (wanted ${outcome.wanted})`);
      for (const line of outcome.lines) console.log(`    ${line}`);
    }
  } catch (error) {
    code = 1;
    console.error("the drive failed:", error instanceof Error ? error.stack : error);
    console.error(output.join("").slice(-4_000));
  }
  console.log(code === 0 ? "\nrehearsal: every outcome as wanted" : "\nrehearsal: an outcome fell short");
  await stop(code);
}
