import { count, eq } from "drizzle-orm";
import { createTestClient, http, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxPublicClient, sandboxWalletClient } from "../../dev/chains/clients";
import { sandboxOperator } from "../../dev/chains/operator";
import { route as allowRoute } from "../../functions/compliance/admin-allow-address";
import { route as denyRoute } from "../../functions/compliance/admin-deny-address";
import { route as listDeniedRoute } from "../../functions/compliance/admin-list-denied";
import { route as sanctionRoute } from "../../functions/sandbox/sanctions";
import { ORACLE_ANSWER_MS } from "../../lib/compliance/oracle";
import { sanctionsListAbi } from "../../lib/kernel/chain/abis";
import { settlementOrders, settlementQuotes, swapIntents } from "../../schema";
import type { Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { rememberWallet, sendCode, signInWallet, walletSessionOf } from "../harness/identity";
import {
  createOrder,
  createQuote,
  DESTINATION_ADDRESS,
  partnerRequest,
  SOURCE_ADDRESS,
  settlementSuite,
} from "../harness/settlement";
import { destinationOf, prepareRequest } from "../harness/swaps";
import { adminRequest, type Tenant } from "../harness/tenants";

/**
 * Sanctions screening (issue 38): every address the service deals with is checked against the
 * operator's deny list and Chainalysis's oracle (its stand-in at the oracle's address on the local
 * chains) before anything is created; a listed one is 403 SANCTIONED_ADDRESS naming its field, and
 * nothing is stored; an oracle that does not answer fails closed (503 SCREENING_UNAVAILABLE).
 */

/** The oracle's reads, with `owner` (Ownable) beside the service's own. */
const ORACLE_READS = parseAbi([
  "function name() pure returns (string)",
  "function owner() view returns (address)",
  "function isSanctioned(address addr) view returns (bool)",
]);

let h: Harness;
let tenant: Tenant;

const fresh = () => privateKeyToAccount(generatePrivateKey()).address;

function quoteBody(sourceAddress: string, destinationAddress: string) {
  return { sendAmountUsdc: "100", sourceAddress, destinationAddress };
}

function quote(body: Record<string, unknown>) {
  return partnerRequest(h, tenant, "/api/integrations/settlements/quotes", { method: "POST", body });
}

async function sanction(address: string, listed = true) {
  const response = await partnerRequest(h, tenant, "/api/integrations/sandbox/sanctions", {
    method: "POST",
    body: { address, listed },
  });
  return bodyOf(response, sanctionRoute, 200);
}

async function refusedFields(response: Response): Promise<string[]> {
  const error = await errorOf(response, 403);
  expect(error.code).toBe("SANCTIONED_ADDRESS");
  return (error.problems ?? []).map((problem) => problem.field);
}

async function quotesStored(): Promise<number> {
  const [row] = await h.database.db
    .select({ n: count() })
    .from(settlementQuotes)
    .where(eq(settlementQuotes.organizationId, tenant.organizationId));
  return Number(row?.n ?? 0);
}

beforeAll(async () => {
  ({ h, tenant } = await settlementSuite());
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe("the oracle on the local chains", () => {
  it("is Chainalysis's interface at Chainalysis's address on every chain, owned by the sandbox operator", async () => {
    for (const chain of h.network?.chains ?? []) {
      const oracle = chain.contracts.sanctionsOracle as `0x${string}`;
      expect(oracle, chain.name).toBe("0x40C57923924B5c5c5455c48D93317139ADDaC8fb");
      const client = sandboxPublicClient(chain);
      const read = <F extends "name" | "owner" | "isSanctioned">(
        functionName: F,
        args: readonly unknown[] = [],
      ) => client.readContract({ address: oracle, abi: ORACLE_READS, functionName, args } as never);
      expect(await read("name")).toBe("Chainalysis sanctions oracle");
      expect(await read("owner")).toBe(sandboxOperator.address);
      expect(await read("isSanctioned", [fresh()])).toBe(false);
    }
  });
});

describe("a listed address is refused at every entry point, and nothing is stored", () => {
  it("refuses a quote whose destination is on the operator's deny list, naming the field", async () => {
    const listed = fresh();
    const denied = await adminRequest(h, "/admin/compliance/denied-addresses", {
      method: "POST",
      body: { address: listed, reason: "OFAC SDN, case 38-1" },
    });
    expect((await bodyOf(denied, denyRoute, 201)).deniedAddress).toMatchObject({
      address: listed.toLowerCase(),
      reason: "OFAC SDN, case 38-1",
      addedBy: "operator",
      removedAt: null,
    });
    const before = await quotesStored();
    expect(await refusedFields(await quote(quoteBody(SOURCE_ADDRESS, listed)))).toEqual([
      "body.destinationAddress",
    ]);
    expect(await quotesStored()).toBe(before);
  });

  it("refuses a quote whose source the sanctions oracle lists (sandbox), and every other entry point for it", async () => {
    const listed = fresh();
    const changed = await sanction(listed);
    expect(changed.chains).toHaveLength(h.network?.chains.length ?? 0);
    expect(await refusedFields(await quote(quoteBody(listed, DESTINATION_ADDRESS)))).toEqual([
      "body.sourceAddress",
    ]);
    // The swap's wallet.
    const before = await h.database.db.select({ n: count() }).from(swapIntents);
    const swap = await prepareRequest(h, tenant, {
      wallet: listed,
      tokenIn: "USDm",
      tokenOut: "COPm",
      amountIn: "10000000000000000000",
      slippageBps: 100,
    });
    expect(await refusedFields(swap)).toEqual(["body.wallet"]);
    expect(await h.database.db.select({ n: count() }).from(swapIntents)).toEqual(before);
    // The payout's user: a wallet signed in before its listing gets no code after it, nor a new session.
    const user = rememberWallet(privateKeyToAccount(generatePrivateKey()));
    const session = await walletSessionOf(h, tenant, user.address);
    await sanction(user.address);
    const code = await sendCode(h, tenant, "listed@example.com", user.address, { walletSession: session });
    expect(await refusedFields(code)).toEqual(["body.userAddress"]);
    const signIn = await signInWallet(h, tenant, user.address, (message) => user.signMessage({ message }));
    expect(await refusedFields(signIn)).toEqual(["body.message"]);
  });

  it("refuses the order of a quote whose destination was listed after the quote", async () => {
    const destination = fresh();
    const quoted = await quote(quoteBody(SOURCE_ADDRESS, destination));
    expect(quoted.status).toBe(201);
    const { quoteId } = (await quoted.json()) as { quoteId: string };
    await sanction(destination);
    const order = await createOrder(h, tenant, quoteId, "screen-order-1");
    expect(await refusedFields(order)).toEqual(["body.destinationAddress"]);
    const orders = await h.database.db
      .select({ id: settlementOrders.id })
      .from(settlementOrders)
      .where(eq(settlementOrders.quoteId, quoteId));
    expect(orders).toEqual([]);
  });

  it("refuses a partner fee address and a return's recipient that are listed", async () => {
    const listed = fresh();
    await sanction(listed);
    const patched = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
      method: "PATCH",
      body: { partnerFeeBps: 10, partnerFeeAddress: listed },
    });
    expect(await refusedFields(patched)).toEqual(["body.partnerFeeAddress"]);
  });
});

describe("the deny list's history and the oracle's answers", () => {
  it("lifts a listing with a reason, keeps it in the history, and the address is served again", async () => {
    const address = fresh();
    await adminRequest(h, "/admin/compliance/denied-addresses", {
      method: "POST",
      body: { address, reason: "court order 7" },
    });
    const again = await adminRequest(h, "/admin/compliance/denied-addresses", {
      method: "POST",
      body: { address: address.toLowerCase(), reason: "twice" },
    });
    expect((await bodyOf(again, denyRoute, 200)).deniedAddress.reason).toBe("court order 7");
    const lifted = await adminRequest(
      h,
      `/admin/compliance/denied-addresses/${address}?reason=${encodeURIComponent("order lifted")}`,
      { method: "DELETE" },
    );
    expect((await bodyOf(lifted, allowRoute, 200)).deniedAddress).toMatchObject({
      removalReason: "order lifted",
      removedBy: "operator",
    });
    expect((await quote(quoteBody(SOURCE_ADDRESS, address))).status).toBe(201);
    const history = await bodyOf(
      await adminRequest(h, "/admin/compliance/denied-addresses"),
      listDeniedRoute,
      200,
    );
    expect(history.data.find((row) => row.address === address.toLowerCase())?.removalReason).toBe(
      "order lifted",
    );
    const notListed = await adminRequest(h, `/admin/compliance/denied-addresses/${address}?reason=again`, {
      method: "DELETE",
    });
    expect((await errorOf(notListed, 404)).code).toBe("NOT_FOUND");
    const noReason = await adminRequest(h, "/admin/compliance/denied-addresses", {
      method: "POST",
      body: { address: fresh() },
    });
    expect(noReason.status).toBe(400);
  });

  it(`keeps an oracle answer ${ORACLE_ANSWER_MS / 60_000} minutes: a listing made on the chain directly is seen once it lapses`, async () => {
    const address = fresh();
    expect((await quote(quoteBody(SOURCE_ADDRESS, address))).status).toBe(201);
    // Chainalysis changes its list on chain; this isolate's earlier answer still stands.
    for (const chain of h.network?.chains ?? []) {
      const wallet = sandboxWalletClient(chain, sandboxOperator);
      const hash = await wallet.writeContract({
        address: chain.contracts.sanctionsOracle as `0x${string}`,
        abi: sanctionsListAbi,
        functionName: "addToSanctionsList",
        args: [[address]],
      });
      await sandboxPublicClient(chain).waitForTransactionReceipt({ hash });
    }
    expect((await quote(quoteBody(SOURCE_ADDRESS, address))).status).toBe(201);
    h.clock.advance(ORACLE_ANSWER_MS + 1);
    expect(await refusedFields(await quote(quoteBody(SOURCE_ADDRESS, address)))).toEqual([
      "body.destinationAddress",
    ]);
  });

  it("fails closed: an oracle that does not answer is 503 SCREENING_UNAVAILABLE, and nothing is stored", async () => {
    const destination = destinationOf(h);
    const oracle = destination.contracts.sanctionsOracle as `0x${string}`;
    const client = createTestClient({ mode: "hardhat", transport: http(destination.rpcUrl) });
    const code = await sandboxPublicClient(destination).getCode({ address: oracle });
    await client.setCode({ address: oracle, bytecode: "0x" });
    try {
      const before = await quotesStored();
      const refused = await quote(quoteBody(SOURCE_ADDRESS, fresh()));
      expect((await errorOf(refused, 503)).code).toBe("SCREENING_UNAVAILABLE");
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(await quotesStored()).toBe(before);
    } finally {
      await client.setCode({ address: oracle, bytecode: code ?? "0x" });
    }
    expect((await quote(quoteBody(SOURCE_ADDRESS, fresh()))).status).toBe(201);
  });

  it("quotes an unlisted pair as before", async () => {
    const quoted = await createQuote(h, tenant);
    expect(quoted?.quoteId).toMatch(/^qt_/);
  });
});
