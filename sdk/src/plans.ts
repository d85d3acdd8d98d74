import {
  concat,
  getTypesForEIP712Domain,
  type Hex,
  hashDomain,
  hashStruct,
  isAddress,
  isHex,
  keccak256,
  type LocalAccount,
  verifyTypedData,
} from "viem";

/** One transaction the user sends, as a plan lists it. */
export interface PlanStep<Type extends string = string> {
  type: Type;
  chainId: number;
  to: `0x${string}`;
  data: `0x${string}`;
  value: string;
}

/** The EIP-712 struct of a step, shared by every plan the service signs. */
const PLAN_STEP_TYPE = [
  { name: "stepType", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "to", type: "address" },
  { name: "data", type: "bytes" },
  { name: "value", type: "uint256" },
] as const;

/*
 * The plans the service signs for a user to send, as partners verify them. The service signs with
 * these same definitions (lib/settlement/burns/plan.ts, lib/payouts/payout-plan.ts): one format, one
 * home.
 */

/**
 * A kind of plan the service signs for a user to send: `{ <id>, quoteId, depositor, steps }` under
 * its own EIP-712 domain name and primary type, so a burn plan's signature never verifies as a
 * payout plan's. Integrators verify with viem's verifyTypedData and the `eip712` the plan carries.
 */
function stepPlanKind<PrimaryType extends string, IdField extends string>(spec: {
  domainName: string;
  primaryType: PrimaryType;
  idField: IdField;
}) {
  const types = {
    [spec.primaryType]: [
      { name: spec.idField, type: "string" },
      { name: "quoteId", type: "string" },
      { name: "depositor", type: "address" },
      { name: "steps", type: "Step[]" },
    ],
    Step: PLAN_STEP_TYPE,
  } as const;
  const domain = (chainId: number) => ({ name: spec.domainName, version: "1", chainId }) as const;
  const message = (id: string, quoteId: string, depositor: `0x${string}`, steps: readonly PlanStep[]) => ({
    [spec.idField]: id,
    quoteId,
    depositor,
    steps: steps.map((step) => ({
      stepType: step.type,
      chainId: BigInt(step.chainId),
      to: step.to,
      data: step.data,
      value: BigInt(step.value),
    })),
  });
  // viem types typed data by literal keys; these are built from the spec, so the call sites cast.
  type TypedData = Parameters<LocalAccount["signTypedData"]>[0];
  type Struct = Parameters<typeof hashStruct>[0];

  // The domain's hash per chain, made once: about a sixth of the digest's keccak work, which with the
  // signature itself was a third of an order's CPU under load (viem's signTypedData makes both anew).
  const separators = new Map<number, Hex>();
  const separator = (chainId: number) => {
    let hash = separators.get(chainId);
    if (!hash) {
      const chainDomain = domain(chainId);
      hash = hashDomain({
        domain: chainDomain,
        types: { EIP712Domain: getTypesForEIP712Domain({ domain: chainDomain }) },
      } as Parameters<typeof hashDomain>[0]);
      separators.set(chainId, hash);
    }
    return hash;
  };
  /** EIP-712's digest, `keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message))`, as viem's hashTypedData makes it. */
  const digest = (chainId: number, data: ReturnType<typeof message>) =>
    keccak256(
      concat([
        "0x1901",
        separator(chainId),
        hashStruct({ data, primaryType: spec.primaryType, types } as Struct),
      ]),
    );

  return {
    types,
    domain,
    async sign<Step extends PlanStep>(
      signer: LocalAccount,
      plan: { id: string; quoteId: string; depositor: `0x${string}`; chainId: number; steps: Step[] },
    ) {
      const data = message(plan.id, plan.quoteId, plan.depositor, plan.steps);
      // A local key signs the digest made here; an account without raw signing (a remote signer) signs the typed data.
      const signature = signer.sign
        ? await signer.sign({ hash: digest(plan.chainId, data) })
        : await signer.signTypedData({
            domain: domain(plan.chainId),
            types,
            primaryType: spec.primaryType,
            message: data,
          } as TypedData);
      return {
        steps: plan.steps,
        signature,
        signer: signer.address,
        eip712: { domain: domain(plan.chainId), primaryType: spec.primaryType, types },
      };
    },
    /**
     * True only when the service's own signer (`expectedSigner`, published to integrators out of
     * band) signed exactly these steps for this id, quote and depositor, under this kind's domain on
     * the steps' chain. The plan's own `signer` and `domain` are never trusted: anyone can sign a
     * plan of their own and name themselves.
     */
    verify(input: {
      id: string;
      quoteId: string;
      depositor: `0x${string}`;
      expectedSigner: string;
      plan: SignedPlan;
    }): Promise<boolean> {
      const { plan } = input;
      const chainId = plan.steps[0]?.chainId;
      const wellFormed =
        isAddress(input.expectedSigner) &&
        isHex(plan.signature) &&
        plan.steps.every((step) => isAddress(step.to) && isHex(step.data) && /^\d+$/.test(step.value));
      if (
        !wellFormed ||
        chainId === undefined ||
        plan.signer.toLowerCase() !== input.expectedSigner.toLowerCase() ||
        plan.steps.some((step) => step.chainId !== chainId)
      ) {
        return Promise.resolve(false);
      }
      return verifyTypedData({
        address: input.expectedSigner,
        domain: domain(chainId),
        types,
        primaryType: spec.primaryType,
        message: message(input.id, input.quoteId, input.depositor, plan.steps as readonly PlanStep[]),
        signature: plan.signature,
      } as Parameters<typeof verifyTypedData>[0]);
    },
  };
}

// Both marked pure: a bundle that uses neither (the miniapp's) leaves out viem's signature code.

/** Settlement burn plans: the user's approve and depositForBurnWithHook on the source chain. */
export const burnPlans = /* @__PURE__ */ stepPlanKind({
  domainName: "COPm Settlement Burn Plan",
  primaryType: "BurnPlan",
  idField: "orderId",
});

/** BRE-B payout plans: the user's approve and deposit on the payout chain. */
export const payoutPlans = /* @__PURE__ */ stepPlanKind({
  domainName: "COPm BRE-B Payout Plan",
  primaryType: "PayoutPlan",
  idField: "payoutId",
});

/**
 * A signed plan as an order's `execution.burnPlan` or a payout's `deposit` carries it, as received
 * (strings, unchecked): the verifiers check its shape before its signature.
 */
export interface SignedPlan {
  steps: readonly { type: string; chainId: number; to: string; data: string; value: string }[];
  signature: string;
  signer: string;
  eip712: { domain: { name: string; version: string; chainId: number } };
}

/**
 * True only when the service's plan signer (`expectedSigner`, published to integrators out of band,
 * never read from the plan) signed exactly these steps for this order, quote and depositor. Verify
 * before asking the user to sign the steps.
 */
export function verifyBurnPlan(input: {
  orderId: string;
  quoteId: string;
  depositor: `0x${string}`;
  expectedSigner: string;
  plan: SignedPlan;
}): Promise<boolean> {
  return burnPlans.verify({ ...input, id: input.orderId });
}

/** As verifyBurnPlan, for a payout's deposit plan. */
export function verifyPayoutPlan(input: {
  payoutId: string;
  quoteId: string;
  depositor: `0x${string}`;
  expectedSigner: string;
  plan: SignedPlan;
}): Promise<boolean> {
  return payoutPlans.verify({ ...input, id: input.payoutId });
}

/**
 * A plan's steps as the transactions to send, in order, typed for viem's `sendTransaction`. Send them
 * only once the plan verifies, each after the previous one is mined (the burn spends the approval).
 * Each carries its step's chain id, so it is signed for that chain only: a wallet or node on another
 * chain refuses it instead of sending the approval there.
 */
export function planTransactions(
  plan: SignedPlan,
): { chainId: number; to: `0x${string}`; data: `0x${string}`; value: bigint }[] {
  return plan.steps.map((step) => {
    if (!isAddress(step.to) || !isHex(step.data)) throw new Error(`a ${step.type} step is not a transaction`);
    return { chainId: step.chainId, to: step.to, data: step.data, value: BigInt(step.value) };
  });
}
