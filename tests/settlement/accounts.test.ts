import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { accountForNewOrder } from "../../lib/settlement/accounts";
import type { SettlementSetup } from "../../lib/settlement/context";

const sender = (key: `0x${string}`) => {
  const signer = privateKeyToAccount(key);
  return { address: signer.address, signer };
};
const B = sender("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
const C = sender("0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6");
/** SETTLEMENT_ACCOUNT_ADDRESS set alone: it receives, and cannot send. */
const RECEIVE_ONLY = { address: "0x1111111111111111111111111111111111111111" as const };
const ids = Array.from({ length: 300 }, (_, i) => `ord_${i.toString(36).padStart(8, "0")}`);

describe("the pool's account a new order gets (lib/settlement/accounts.ts)", () => {
  it("is one that can send: a receive-only first account takes no new order, and the others share them", () => {
    const setup = { intakePaused: false, accounts: [RECEIVE_ONLY, B, C] } satisfies SettlementSetup;
    const chosen = ids.map((id) => accountForNewOrder(setup, id)?.address);
    expect(chosen).not.toContain(RECEIVE_ONLY.address);
    expect(new Set(chosen)).toEqual(new Set([B.address, C.address]));
  });

  it("is the same account for the same order, and the only account when the pool has one", () => {
    const setup = { intakePaused: false, accounts: [B, C] } satisfies SettlementSetup;
    expect(ids.map((id) => accountForNewOrder(setup, id))).toEqual(
      ids.map((id) => accountForNewOrder(setup, id)),
    );
    expect(accountForNewOrder({ intakePaused: false, accounts: [RECEIVE_ONLY] }, "ord_1")).toBe(RECEIVE_ONLY);
  });
});
