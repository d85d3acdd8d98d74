import { isAddress, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { burnWithForwarding, type DiscoveredChain, swapOnBroker } from "../../dev/sandbox/flows";
import { route as faucetRoute } from "../../functions/sandbox/faucet";
import { type GetSandboxNetworkResponse, route as getNetwork } from "../../functions/sandbox/get-network";
import { FINALITY_STANDARD } from "../../lib/kernel/chain/abis";
import { addressToBytes32, FORWARDING_HOOK_DATA } from "../../lib/kernel/chain/forwarding";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { createTenant, type Tenant } from "../harness/tenants";

/** A chain as the network answer gives it, as the sandbox flows take it: its contracts checked as addresses. */
function discovered(chain: GetSandboxNetworkResponse["chains"][number]): DiscoveredChain {
  const contracts: DiscoveredChain["contracts"] = {};
  for (const [name, address] of Object.entries(chain.contracts)) {
    if (address === undefined) continue;
    if (!isAddress(address))
      throw new Error(`the ${chain.role} chain's ${name} is not an address: ${address}`);
    contracts[name] = address;
  }
  const exchanges: DiscoveredChain["exchanges"] = chain.exchanges?.map(({ exchangeId, tokens }) => {
    const [first, second] = tokens;
    if (first === undefined || second === undefined)
      throw new Error(`exchange ${exchangeId} lacks its two tokens`);
    return { exchangeId, tokens: [first, second] };
  });
  return { ...chain, contracts, exchanges };
}

describe("sandbox network end to end", () => {
  let h: Harness;
  let tenant: Tenant;
  /** The network answer as sent, for what it must not contain (parsing would drop unknown keys). */
  let network: unknown;
  let chains: DiscoveredChain[];
  const chain = (role: DiscoveredChain["role"]) => {
    const found = chains.find((c) => c.role === role);
    if (!found) throw new Error(`no ${role} chain`);
    return found;
  };
  const faucet = async (body: Record<string, string>) => {
    const response = await h.app.request("/api/integrations/sandbox/faucet", {
      method: "POST",
      headers: { authorization: `Bearer ${tenant.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return bodyOf(response, faucetRoute, 200);
  };

  beforeAll(async () => {
    h = await createHarness({ chains: true });
    tenant = await createTenant(h);
    const response = await h.app.request("/api/integrations/sandbox/network", {
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    network = await response.clone().json();
    chains = (await bodyOf(response, getNetwork, 200)).chains.map(discovered);
  }, 60_000);
  afterAll(() => h.close());

  it("discovers four chains (two sources) with their own ids, names, RPC URLs and contracts", () => {
    expect(chains.map((c) => [c.role, c.chainId, c.name])).toEqual([
      ["source", 31331, "Sandbox Source"],
      ["source", 31334, "Sandbox Source B"],
      ["intermediate", 31332, "Sandbox Intermediate"],
      ["destination", 31333, "Sandbox Destination"],
    ]);
    expect(new Set(chains.map((c) => c.rpcUrl)).size).toBe(4);
    expect(chains[1]).toMatchObject({ cctpDomain: 1, attestation: { standardSeconds: 3 } });
    expect(chain("source")).toMatchObject({
      cctpDomain: 3,
      contracts: { usdc: expect.any(String), tokenMessenger: expect.any(String) },
    });
    expect(chain("intermediate")).toMatchObject({ cctpDomain: 6, contracts: { usdc: expect.any(String) } });
    expect(chain("destination").contracts).toMatchObject({
      usdm: expect.any(String),
      copm: expect.any(String),
      usdt: expect.any(String),
      broker: expect.any(String),
      exchangeProvider: expect.any(String),
    });
    const operatorKey = h.network?.operator.privateKey.slice(2).toLowerCase() ?? "missing";
    expect(JSON.stringify(network).toLowerCase()).not.toContain(operatorKey);
    expect(JSON.stringify(network)).not.toMatch(/privateKey/i);
  });

  it("funds a fresh wallet from the faucet, which then burns with the forwarding hook on the source chain", async () => {
    const user = privateKeyToAccount(generatePrivateKey());
    const funded = await faucet({
      address: user.address,
      chainRole: "source",
      token: "USDC",
      amount: "250.5",
    });
    expect(funded).toMatchObject({
      address: user.address,
      amount: "250.5",
      balance: "250.5",
      chainId: chain("source").chainId,
    });
    expect(funded.gasTxHash).toMatch(/^0x[0-9a-f]{64}$/);

    const settlementAccount = privateKeyToAccount(generatePrivateKey()).address;
    const { event, receipt } = await burnWithForwarding({
      source: chain("source"),
      destinationDomain: 6,
      user,
      amount: parseUnits("250.5", 6),
      maxFee: parseUnits("0.5", 6),
      mintRecipient: settlementAccount,
    });
    expect(receipt.status).toBe("success");
    expect(event).toMatchObject({
      burnToken: chain("source").contracts.usdc,
      amount: parseUnits("250.5", 6),
      depositor: user.address,
      mintRecipient: addressToBytes32(settlementAccount),
      destinationDomain: 6,
      maxFee: parseUnits("0.5", 6),
      minFinalityThreshold: FINALITY_STANDARD,
      hookData: FORWARDING_HOOK_DATA,
    });
  });

  it("funds a contract (a smart wallet) with tokens and no gas: a contract may refuse a plain transfer (was a 500)", async () => {
    const contract = chain("destination").contracts.payoutDepositor as string;
    const funded = await faucet({ address: contract, chainRole: "destination", token: "USDC", amount: "5" });
    expect(funded).toMatchObject({ amount: "5", gasTxHash: null });
  });

  it("swaps USDm for COPm on the local broker, with the Transfer logs to show it", async () => {
    const trader = privateKeyToAccount(generatePrivateKey());
    await faucet({ address: trader.address, chainRole: "destination", token: "USDm", amount: "100" });
    const destination = chain("destination");
    const usdm = destination.contracts.usdm as `0x${string}`;
    const copm = destination.contracts.copm as `0x${string}`;
    const { transfers, expected } = await swapOnBroker({
      destination,
      trader,
      tokenIn: usdm,
      tokenOut: copm,
      amountIn: parseUnits("100", 18),
      slippageBps: 50n,
    });
    const burned = transfers.find((t) => t.address.toLowerCase() === usdm.toLowerCase());
    const minted = transfers.find((t) => t.address.toLowerCase() === copm.toLowerCase());
    expect(burned?.args.value).toBe(parseUnits("100", 18));
    expect(minted?.args).toMatchObject({ to: trader.address, value: expected });
    expect(expected).toBeGreaterThan(parseUnits("380000", 18));
  });

  it("refuses a token that does not exist on the chain asked", async () => {
    const response = await h.app.request("/api/integrations/sandbox/faucet", {
      method: "POST",
      headers: { authorization: `Bearer ${tenant.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ address: trader(), chainRole: "source", token: "COPm", amount: "1" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: "INVALID_REQUEST", problems: [{ field: "body.token" }] },
    });
  });
});

function trader() {
  return privateKeyToAccount(generatePrivateKey()).address;
}
