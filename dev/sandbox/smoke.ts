// `npm run sandbox:smoke`: what a partner's engineer does first against a running `npm run dev`,
// through the public API only: an organization and key from the admin API, the sandbox network from
// discovery, a fresh wallet funded by the faucet, a CCTP v2 burn with the forwarding hook read back
// from its receipt, and a USDm to COPm swap on the local broker with its Transfer logs.
import { formatUnits, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { LOCAL_ADMIN_TOKEN } from "../local-defaults";
import { burnWithForwarding, type DiscoveredChain, swapOnBroker } from "./flows";

const apiUrl = (process.env.API_URL ?? "http://127.0.0.1:8787").replace(/\/+$/, "");
const adminToken = process.env.ADMIN_TOKEN || LOCAL_ADMIN_TOKEN;

async function call<T>(path: string, init: { method?: string; token: string; body?: unknown }): Promise<T> {
  const response = await fetch(`${apiUrl}${path}`, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${init.token}`,
      "content-type": "application/json",
      "accept-language": "en",
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${path}: HTTP ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

const { apiKey, organization } = await call<{ apiKey: string; organization: { id: string } }>(
  "/admin/organizations",
  {
    method: "POST",
    token: adminToken,
    body: { name: "Sandbox smoke" },
  },
);
console.log(`organization ${organization.id} with key ${apiKey.slice(0, 14)}…`);

const { chains } = await call<{ chains: DiscoveredChain[] }>("/api/integrations/sandbox/network", {
  token: apiKey,
});
const byRole = (role: DiscoveredChain["role"]) => {
  const chain = chains.find((c) => c.role === role);
  if (!chain) throw new Error(`discovery lists no ${role} chain`);
  return chain;
};
const source = byRole("source");
const intermediate = byRole("intermediate");
const destination = byRole("destination");
// Every source chain is listed with the role `source`, the default first: the name tells them apart.
for (const chain of chains) {
  console.log(`${chain.role.padEnd(12)} chain ${chain.chainId} (${chain.name}) at ${chain.rpcUrl}`);
}

const user = privateKeyToAccount(generatePrivateKey());
const funded = await call<{ balance: string; mintTxHash: string }>("/api/integrations/sandbox/faucet", {
  method: "POST",
  token: apiKey,
  body: { address: user.address, chainRole: "source", token: "USDC", amount: "100.25" },
});
console.log(
  `faucet: ${user.address} holds ${funded.balance} USDC on the source chain (mint ${funded.mintTxHash})`,
);

const recipient = privateKeyToAccount(generatePrivateKey()).address;
const burn = await burnWithForwarding({
  source,
  destinationDomain: intermediate.cctpDomain ?? 6,
  user,
  amount: parseUnits("100.25", 6),
  maxFee: parseUnits("0.25", 6),
  mintRecipient: recipient,
});
console.log(
  `burn ${burn.receipt.transactionHash}: DepositForBurn amount ${formatUnits(burn.event.amount, 6)} USDC, ` +
    `depositor ${burn.event.depositor}, domain ${burn.event.destinationDomain}, maxFee ${formatUnits(burn.event.maxFee, 6)}, ` +
    `hookData ${burn.event.hookData}`,
);

const trader = privateKeyToAccount(generatePrivateKey());
await call("/api/integrations/sandbox/faucet", {
  method: "POST",
  token: apiKey,
  body: { address: trader.address, chainRole: "destination", token: "USDm", amount: "50" },
});
const swap = await swapOnBroker({
  destination,
  trader,
  tokenIn: destination.contracts.usdm as `0x${string}`,
  tokenOut: destination.contracts.copm as `0x${string}`,
  amountIn: parseUnits("50", 18),
  slippageBps: 50n,
});
for (const transfer of swap.transfers) {
  console.log(
    `swap ${swap.receipt.transactionHash}: Transfer of ${formatUnits(transfer.args.value, 18)} ` +
      `(token ${transfer.address}) from ${transfer.args.from} to ${transfer.args.to}`,
  );
}
console.log("sandbox smoke passed");
