// `npm run demo:failures`: each of mock mode's test amounts (docs/sandbox.md, "Failures on demand")
// through the public API of a running `npm run dev`, plus an operator's return, all at once (`.77`
// after the rest: its move of Mento's rate is every order's); prints each order's outcome, the
// seconds from its burn to it, and its timeline.
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { Copm } from "../sdk/src";
import { apiCaller } from "./demo-api";
import { orderAndBurn } from "./demo-flow";
import { LOCAL_ADMIN_TOKEN, LOCAL_PLAN_SIGNER } from "./local-defaults";

const apiUrl = (process.env.API_URL ?? "http://127.0.0.1:8787").replace(/\/+$/, "");
const adminToken = process.env.ADMIN_TOKEN || LOCAL_ADMIN_TOKEN;
const DEADLINE_MS = Number(process.env.DEMO_DEADLINE_MS ?? 240_000);
const call = apiCaller(apiUrl);
/** Each order is looked at every 2 s. */
const POLL_MS = 2_000;

const CASES = [
  { amount: "30.71", what: "Circle's forward fails: the service relays the attested message" },
  { amount: "30.72", what: "Circle's fee is above the burn's maxFee for a while (insufficient_fee)" },
  { amount: "30.73", what: "the attestation comes after its leg's deadline" },
  { amount: "30.74", what: "the aggregator refunds the first route" },
  { amount: "30.75", what: "the aggregator delivers USDC instead of USDm" },
  { amount: "30.80", what: "the aggregator delivers USDT instead of USDm" },
  { amount: "30.81", what: "Mento's MedianDeltaBreaker halts the USDm/COPm pool, then resets" },
  { amount: "30.78", what: "the aggregator reports the first route FAILED and refunds it at once" },
  {
    amount: "30.79",
    what: "the aggregator reports the first route FAILED and refunds it after the slow leg",
  },
  { amount: "30.82", what: "Circle's forward fails and its attestation expired: re-attested, relayed" },
  {
    amount: "30.83",
    what: "the aggregator delivers a token Mento does not trade: routed back to USDC, then routed again",
  },
  { amount: "30.76", what: "Mento's trading limit is exhausted at exchange time, then frees" },
  {
    amount: "30.77",
    what: "Mento stays below the floor past the retry window: the USDm goes back",
    alone: true,
  },
  { amount: "30.10", what: "the operator returns the order (admin API)", operatorReturn: true },
  { amount: "30.10", what: "nothing fails" },
] as const;

const { organization, apiKey } = await call<{ organization: { id: string }; apiKey: string }>(
  "/admin/organizations",
  adminToken,
  { method: "POST", body: { name: "Failures demo" } },
);
await call(`/admin/organizations/${organization.id}`, adminToken, {
  method: "PATCH",
  body: { burnPlanEnabled: true },
});
// Eight orders polled at once can meet the key's rate limit: the SDK waits out each 429's Retry-After.
const copm = new Copm({ baseUrl: apiUrl, apiKey, language: "en", retry: { maxRetries: 10 } });
const { chains } = (await copm.getSandboxNetwork()).data;
console.log(`organization ${organization.id}; ${CASES.length} orders, up to ${DEADLINE_MS / 1000} s each\n`);

const together = CASES.filter((testCase) => !("alone" in testCase));
const results = await Promise.all(together.map((testCase) => run(testCase)));
for (const testCase of CASES.filter((testCase) => "alone" in testCase)) results.push(await run(testCase));
for (const result of results) {
  console.log(`${result.amount}  ${result.what}`);
  console.log(`       ${result.outcome} after ${result.seconds.toFixed(1)} s (${result.orderId})`);
  for (const entry of result.timeline) {
    const hash = entry.txHash ? ` ${entry.txHash.slice(0, 18)}…` : "";
    const reason = entry.reason ? ` (${entry.reason})` : "";
    console.log(`         ${entry.at.slice(11, 19)} ${entry.kind}${reason}${hash}`);
  }
}
const unfinished = results.filter((result) => !/^(DELIVERED|RETURNED)/.test(result.outcome));
if (unfinished.length > 0) {
  console.error(`\n${unfinished.length} order(s) did not end DELIVERED or RETURNED`);
  process.exit(1);
}

async function run(testCase: (typeof CASES)[number]) {
  const user = privateKeyToAccount(generatePrivateKey());
  await copm.sandboxFaucet({
    body: { address: user.address, chainRole: "source", token: "USDC", amount: "100" },
  });
  const { data: quote } = await copm.createSettlementQuote({
    body: { sendAmountUsdc: testCase.amount, sourceAddress: user.address, destinationAddress: user.address },
  });
  const { orderId, burnHash } = await orderAndBurn({
    copm,
    quoteId: quote.quoteId,
    user,
    chains,
    planSigner: LOCAL_PLAN_SIGNER,
  });
  await copm.submitSettlementBurn({ path: { orderId }, body: { txHash: burnHash } });
  const burned = Date.now();
  if ("operatorReturn" in testCase) {
    await call(`/admin/settlements/orders/${orderId}/return`, adminToken, {
      method: "POST",
      body: { reason: "the demo's operator cancels it" },
    });
  }
  for (;;) {
    const { data: order } = await copm.getSettlementOrder({ path: { orderId } });
    const finished = order.status === "DELIVERED" || order.status === "RETURNED";
    if (finished || Date.now() - burned > DEADLINE_MS) {
      return {
        ...testCase,
        orderId,
        outcome: `${order.status} / ${order.fundsStatus} / ${order.health}`,
        seconds: (Date.now() - burned) / 1000,
        timeline: order.timeline,
      };
    }
    await sleep(POLL_MS);
  }
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
