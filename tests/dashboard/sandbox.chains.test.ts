import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxChainKey, sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { route as getSandboxNetwork } from "../../functions/sandbox/get-network";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { addMember, type DashboardClient, signedInClient } from "../harness/dashboard";
import { partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

// The sandbox page in-process: the network as GET /api/integrations/sandbox/network describes it,
// and the faucet form minting with real transactions on the sandbox chains.

let h: Harness;
let tenant: Tenant;
let member: DashboardClient;

beforeAll(async () => {
  h = await createHarness({ chains: true, identity: true });
  tenant = await createTenant(h, "Sandbox page");
  await addMember(h, tenant.organizationId, "dev@sandbox.example");
  member = await signedInClient(h, "dev@sandbox.example");
}, 120_000);
afterAll(() => h?.close());

const sandbox = () => `/dashboard/sandbox?integration=${tenant.integrationId}`;

async function balanceOf(key: SandboxChainKey, token: "usdc" | "copm", holder: Hex): Promise<bigint> {
  if (!h.network) throw new Error("no chains");
  const chain = sandboxChainOf(h.network, key);
  return sandboxPublicClient(chain).readContract({
    address: chain.contracts[token] as Hex,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [holder],
  });
}

describe("the sandbox page", () => {
  it("shows every chain of the network with its id, RPC URL and every contract address the API gives", async () => {
    const api = await partnerRequest(h, tenant, "/api/integrations/sandbox/network");
    const raw: unknown = await api.clone().json();
    const network = await bodyOf(api, getSandboxNetwork, 200);
    // Every contract the API gives is in what its schema reads: nothing is left out below.
    expect(network).toEqual(raw);
    const { chains } = network;
    expect(chains.map(({ role, chainId }) => [role, chainId])).toEqual([
      ["source", 31331],
      ["source", 31334],
      ["intermediate", 31332],
      ["destination", 31333],
    ]);
    const html = await member.page(sandbox());
    expect(html).toContain("<h1>Sandbox</h1>");
    for (const chain of chains) {
      expect(html).toContain(`<h3 id="chain-${chain.chainId}">${chain.name} (${chain.chainId})</h3>`);
      expect(html).toContain(`<dd class="mono">${chain.rpcUrl}</dd>`);
      for (const [name, address] of Object.entries(chain.contracts)) {
        expect(html).toContain(`<td><code>${name}</code></td><td><span class="mono">${address}</span></td>`);
      }
    }
    // The faucet's chain by id, one option per chain (both source chains), the destination chosen.
    expect(html).toContain('<select id="faucet-chain" name="chainId">');
    for (const chain of chains) {
      const selected = chain.role === "destination" ? ' selected=""' : "";
      const role = { source: "origen", intermediate: "intermedia", destination: "destino" }[chain.role];
      expect(html).toContain(
        `<option value="${chain.chainId}"${selected}>${chain.name} (${chain.chainId}) · ${role}</option>`,
      );
    }
    // The form: every field labelled, the CSRF token in it.
    for (const id of ["faucet-address", "faucet-chain", "faucet-token", "faucet-amount"]) {
      expect(html).toContain(`<label for="${id}">`);
    }
    expect(html).toMatch(
      /<form method="post" action="\/dashboard\/sandbox\?integration=int_\w+"><input type="hidden" name="_csrf"/,
    );
  });

  it("mints with the faucet and shows the transaction hash, the balance read from the chain", async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    await member.page(sandbox());
    const response = await member.post(sandbox(), {
      address: recipient,
      chainId: "31333",
      token: "COPm",
      amount: "1234567.5",
    });
    const html = await response.text();
    expect(response.status, html).toBe(200);
    expect(html).toContain("Listo: 1.234.567,5 COPm acuñados en Sandbox Destination (31333)");
    expect(html).toContain("1.234.567,5 COPm");
    const mint = html.match(
      /Transacción de acuñación<\/dt><dd><span class="mono">(0x[0-9a-f]{64})<\/span>/,
    )?.[1];
    expect(mint).toBeDefined();
    const gas = html.match(/Transacción de gas<\/dt><dd><span class="mono">(0x[0-9a-f]{64})<\/span>/)?.[1];
    expect(gas).toBeDefined();
    if (!h.network) throw new Error("no chains");
    const receipt = await sandboxPublicClient(sandboxChainOf(h.network, "destination")).getTransactionReceipt(
      {
        hash: mint as Hex,
      },
    );
    expect(receipt.status).toBe("success");
    expect(await balanceOf("destination", "copm", recipient)).toBe(1_234_567_500_000_000_000_000_000n);

    // Another chain and token: the form's chain choice reaches the faucet.
    const again = await member.post(sandbox(), {
      address: recipient,
      chainId: "31331",
      token: "USDC",
      amount: "25",
    });
    expect(again.status).toBe(200);
    expect(await balanceOf("source", "usdc", recipient)).toBe(25_000_000n);
  });

  it("funds the second source chain, which no role names, chosen by its id", async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    await member.page(sandbox());
    const response = await member.post(sandbox(), {
      address: recipient,
      chainId: "31334",
      token: "USDC",
      amount: "42.5",
    });
    const html = await response.text();
    expect(response.status, html).toBe(200);
    expect(html).toContain("Listo: 42,5 USDC acuñados en Sandbox Source B (31334)");
    // The chosen chain stays selected for the next mint.
    expect(html).toContain('<option value="31334" selected="">');
    expect(await balanceOf("sourceB", "usdc", recipient)).toBe(42_500_000n);
    expect(await balanceOf("source", "usdc", recipient)).toBe(0n);
  });

  it("refuses what the faucet's API refuses with 400, its message and the field, keeping what was typed", async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const typed = { address: recipient, chainId: "31333", token: "USDC", amount: "1" };
    // The form, what the page must say (code, the field named or none) and what it keeps typed.
    const cases: Array<[Record<string, string>, string, string | null, string]> = [
      [{ ...typed, address: "0x1234" }, "INVALID_REQUEST", "body.address", "0x1234"],
      [{ ...typed, amount: "ten" }, "INVALID_AMOUNT", "body.amount", "ten"],
      [{ ...typed, amount: "1.0000001" }, "INVALID_AMOUNT", "body.amount", "1.0000001"],
      [{ ...typed, amount: "100001" }, "ABOVE_MAXIMUM", null, "100001"],
      // Not a number, and a number that is no chain of the network: the API's body.chainId error.
      [{ ...typed, chainId: "moon" }, "INVALID_REQUEST", "body.chainId", recipient],
      [{ ...typed, chainId: "999" }, "INVALID_REQUEST", "body.chainId", recipient],
      [{ ...typed, token: "DOGE" }, "INVALID_REQUEST", "body.token", recipient],
    ];
    for (const [form, code, field, kept] of cases) {
      await member.page(sandbox());
      const response = await member.post(sandbox(), form);
      const html = await response.text();
      expect(response.status, JSON.stringify(form)).toBe(400);
      expect(html, JSON.stringify(form)).toContain(`<p class="error" role="alert" data-code="${code}">`);
      if (field) expect(html, JSON.stringify(form)).toContain(`<li><code>${field}</code> `);
      else expect(html, JSON.stringify(form)).not.toContain("<li><code>body.");
      expect(html).toContain(`value="${kept}"`);
      expect(html).not.toContain("Transacción de acuñación");
    }
    for (const key of ["source", "sourceB", "destination"] as const) {
      expect(await balanceOf(key, "usdc", recipient), key).toBe(0n);
    }
  });

  it("mints nothing for a form without its CSRF token", async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const form = { address: recipient, chainId: "31333", token: "USDC", amount: "5" };
    expect((await member.post(sandbox(), form, { csrf: false })).status).toBe(403);
    expect((await member.post(sandbox(), form, { csrf: "forged" })).status).toBe(403);
    expect(await balanceOf("destination", "usdc", recipient)).toBe(0n);
  });

  it("is the 404 page in live mode, for reading and for the faucet, and the navigation leaves it out", async () => {
    const config = h.deps.config as { MODE: "mock" | "live" };
    await member.page(sandbox());
    config.MODE = "live";
    try {
      const page = await member.get(sandbox());
      expect(page.status).toBe(404);
      const html = await page.text();
      expect(html).toContain("No existe en esta integración.");
      expect(html).not.toContain("faucet-address");
      const nav = html.slice(html.indexOf('<nav class="sections"'), html.indexOf("</nav>"));
      expect(nav).toContain('href="/dashboard/swaps');
      expect(nav).not.toContain('href="/dashboard/sandbox');
      const recipient = privateKeyToAccount(generatePrivateKey()).address;
      const posted = await member.post(sandbox(), {
        address: recipient,
        chainId: "31333",
        token: "USDC",
        amount: "5",
      });
      expect(posted.status).toBe(404);
      expect(await balanceOf("destination", "usdc", recipient)).toBe(0n);
    } finally {
      config.MODE = "mock";
    }
  });
});
