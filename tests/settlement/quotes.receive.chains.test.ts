import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { route as createQuoteRoute } from "../../functions/settlement/create-quote";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { parseAmount } from "../../lib/kernel/money";
import type { Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { deliveredOrder } from "../harness/burns";
import {
  DESTINATION_ADDRESS,
  orderEvents,
  partnerRequest,
  SOURCE_ADDRESS,
  settlementSuite,
} from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

const copm = (text: string) => {
  const parsed = parseAmount(text, 18);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.units;
};
const usdc = (text: string) => {
  const parsed = parseAmount(text, 6);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.units;
};

/**
 * A quote for a fixed amount received: the partner names the COPm the destination must receive
 * at least, and the service solves for the principal whose floor holds it.
 */
describe("quotes by the amount received", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

  const quote = (body: Record<string, string>) =>
    partnerRequest(h, tenant, "/api/integrations/settlements/quotes", {
      method: "POST",
      body: { sourceAddress: SOURCE_ADDRESS, destinationAddress: DESTINATION_ADDRESS, ...body },
      headers: { "accept-language": "en" },
    });

  it("solves for the principal whose floor delivers the amount asked, within two units of the least, and answers both", async () => {
    for (const asked of ["400000", "100000.5", "3000000"]) {
      const solved = await bodyOf(await quote({ receiveAmountCop: asked }), createQuoteRoute, 201);
      expect(solved.receiveAmountCop).toBe(asked);
      expect(copm(solved.copAmountMin)).toBeGreaterThanOrEqual(copm(asked));
      // Within a unit or two of the least: two USDC units less, priced by that send amount, fall short.
      const less = (usdc(solved.sendAmountUsdc) - 2n).toString().padStart(7, "0");
      const lower = await bodyOf(
        await quote({ sendAmountUsdc: `${less.slice(0, -6)}.${less.slice(-6)}` }),
        createQuoteRoute,
        201,
      );
      expect(copm(lower.copAmountMin), `${asked}: ${solved.sendAmountUsdc} less two units`).toBeLessThan(
        copm(asked),
      );
      expect(lower.receiveAmountCop).toBeNull();
    }
  });

  it("refuses both amounts, neither, a bad amount, and one outside the limits", async () => {
    const both = await errorOf(await quote({ sendAmountUsdc: "100", receiveAmountCop: "400000" }), 400);
    expect(both.code).toBe("INVALID_AMOUNT");
    expect(both.problems?.map((problem) => problem.field)).toEqual(["body.sendAmountUsdc"]);
    expect((await errorOf(await quote({}), 400)).code).toBe("INVALID_AMOUNT");
    for (const bad of ["0", "-5", "abc", "1.0000000000000000001"]) {
      const refused = await errorOf(await quote({ receiveAmountCop: bad }), 400);
      expect(refused.problems?.map((problem) => problem.field)).toEqual(["body.receiveAmountCop"]);
    }
    // About 0.26 USDC of pesos, and more than 1,000 USDC buys.
    expect((await errorOf(await quote({ receiveAmountCop: "1000" }))).code).toBe("BELOW_MINIMUM");
    expect((await errorOf(await quote({ receiveAmountCop: "5000000" }))).code).toBe("ABOVE_MAXIMUM");
  });

  it("delivers at least the amount asked", async () => {
    const asked = "150000";
    const placed = await deliveredOrder(h, tenant, { receiveAmountCop: asked });
    const delivered = (await orderEvents(h, placed.orderId)).find((event) => event.kind === "DELIVERED");
    expect(BigInt(String(delivered?.detail?.copm))).toBeGreaterThanOrEqual(copm(asked));
    if (!h.network) throw new Error("no chains");
    const destination = sandboxChainOf(h.network, "destination");
    const held = await sandboxPublicClient(destination).readContract({
      address: destination.contracts.copm as Hex,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [placed.user.address],
    });
    expect(held).toBeGreaterThanOrEqual(copm(asked));
  });
});
