import { type LocalAccount, recoverTypedDataAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { burnPlans, payoutPlans, verifyBurnPlan } from "../../sdk/src/plans";

const key = generatePrivateKey();
const signer = privateKeyToAccount(key);
// The same key without raw signing: what a remote signer offers, so sign() takes viem's typed-data path.
const typedDataOnly: LocalAccount = { ...signer, sign: undefined };

const depositor = privateKeyToAccount(generatePrivateKey()).address;
const plan = (id: string, chainId: number) => ({
  id,
  quoteId: `qt_${id}`,
  depositor,
  chainId,
  steps: [
    {
      type: "approve",
      chainId,
      to: signer.address,
      data: `0x095ea7b3${"0".repeat(62)}2a` as const,
      value: "0",
    },
    {
      type: "depositForBurnWithHook",
      chainId,
      to: depositor,
      data: `0x779b432d${"ab".repeat(300)}` as const,
      value: "7",
    },
  ],
});

describe("signed plans", () => {
  it("signs the digest it makes exactly as viem signs the typed data, on every chain and for both kinds", async () => {
    for (const kind of [burnPlans, payoutPlans]) {
      for (const chainId of [1, 42161, 8453, 1, 42161]) {
        const input = plan(`ord_${chainId}_${kind.domain(chainId).name.length}`, chainId);
        const fast = await kind.sign(signer, input);
        const typed = await kind.sign(typedDataOnly, input);
        // RFC 6979 signatures are deterministic: the same digest gives the same bytes.
        expect(fast.signature).toBe(typed.signature);
        expect(fast).toEqual(typed);
      }
    }
  });

  it("binds the signature to the chain: a plan signed for one chain recovers another address on the next", async () => {
    const signed = await burnPlans.sign(signer, plan("ord_chain", 42161));
    const typedData = {
      domain: burnPlans.domain(8453),
      types: burnPlans.types,
      primaryType: "BurnPlan",
      message: {
        orderId: "ord_chain",
        quoteId: "qt_ord_chain",
        depositor,
        steps: signed.steps.map((step) => ({
          stepType: step.type,
          chainId: BigInt(step.chainId),
          to: step.to,
          data: step.data,
          value: BigInt(step.value),
        })),
      },
    } as const;
    expect(await recoverTypedDataAddress({ ...typedData, signature: signed.signature })).not.toBe(
      signer.address,
    );
    expect(
      await recoverTypedDataAddress({
        ...typedData,
        domain: burnPlans.domain(42161),
        signature: signed.signature,
      }),
    ).toBe(signer.address);
  });

  it("verifies for its order only", async () => {
    const signed = await burnPlans.sign(signer, plan("ord_v", 42161));
    const input = { quoteId: "qt_ord_v", depositor, expectedSigner: signer.address, plan: signed };
    expect(await verifyBurnPlan({ ...input, orderId: "ord_v" })).toBe(true);
    expect(await verifyBurnPlan({ ...input, orderId: "ord_w" })).toBe(false);
  });
});
