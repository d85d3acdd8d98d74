import { encodeFunctionData, keccak256, type LocalAccount, stringToHex, verifyTypedData } from "viem";
import { erc20Abi, payoutDepositorAbi } from "../chain/abis";
import { BURN_PLAN_TYPES } from "../settlement/burn-plan";

export interface PayoutStep {
  type: "approve" | "deposit";
  chainId: number;
  to: `0x${string}`;
  data: `0x${string}`;
  value: string;
}

/** The typed data an integrator verifies before asking the user to sign (README: verifying a plan). */
export const PAYOUT_PLAN_TYPES = {
  PayoutPlan: [
    { name: "payoutId", type: "string" },
    { name: "quoteId", type: "string" },
    { name: "depositor", type: "address" },
    { name: "steps", type: "Step[]" },
  ],
  Step: BURN_PLAN_TYPES.Step,
} as const;

export function payoutPlanDomain(chainId: number) {
  return { name: "COPm BRE-B Payout Plan", version: "1", chainId } as const;
}

/** What a payout's deposit carries on chain, so a deposit can only ever confirm this payout. */
export function payoutRef(payoutId: string): `0x${string}` {
  return keccak256(stringToHex(`copm-breb-payout/v1${payoutId}`));
}

/**
 * The user's two transactions on the payout chain: approve the depositor for amount + fee, then
 * deposit, which pays the provider's deposit address and the fee wallet in one call.
 */
export function payoutSteps(input: {
  payoutId: string;
  chainId: number;
  token: `0x${string}`;
  depositor: `0x${string}`;
  providerAmount: bigint;
  serviceFee: bigint;
  depositAddress: `0x${string}`;
  feeWallet: `0x${string}`;
}): PayoutStep[] {
  return [
    {
      type: "approve",
      chainId: input.chainId,
      to: input.token,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "approve",
        args: [input.depositor, input.providerAmount + input.serviceFee],
      }),
      value: "0",
    },
    {
      type: "deposit",
      chainId: input.chainId,
      to: input.depositor,
      data: encodeFunctionData({
        abi: payoutDepositorAbi,
        functionName: "deposit",
        args: [
          payoutRef(input.payoutId),
          input.token,
          input.providerAmount,
          input.serviceFee,
          input.depositAddress,
          input.feeWallet,
        ],
      }),
      value: "0",
    },
  ];
}

function typedMessage(payoutId: string, quoteId: string, depositor: `0x${string}`, steps: PayoutStep[]) {
  return {
    payoutId,
    quoteId,
    depositor,
    steps: steps.map((step) => ({
      stepType: step.type,
      chainId: BigInt(step.chainId),
      to: step.to,
      data: step.data,
      value: BigInt(step.value),
    })),
  };
}

export interface SignedPayoutPlan {
  steps: PayoutStep[];
  signature: `0x${string}`;
  signer: `0x${string}`;
  eip712: {
    domain: ReturnType<typeof payoutPlanDomain>;
    primaryType: "PayoutPlan";
    types: typeof PAYOUT_PLAN_TYPES;
  };
}

export async function signPayoutPlan(
  signer: LocalAccount,
  plan: { payoutId: string; quoteId: string; depositor: `0x${string}`; chainId: number; steps: PayoutStep[] },
): Promise<SignedPayoutPlan> {
  const domain = payoutPlanDomain(plan.chainId);
  const signature = await signer.signTypedData({
    domain,
    types: PAYOUT_PLAN_TYPES,
    primaryType: "PayoutPlan",
    message: typedMessage(plan.payoutId, plan.quoteId, plan.depositor, plan.steps),
  });
  return {
    steps: plan.steps,
    signature,
    signer: signer.address,
    eip712: { domain, primaryType: "PayoutPlan", types: PAYOUT_PLAN_TYPES },
  };
}

/** What an integrator does: true when the service signed exactly these steps for this payout and user. */
export function verifyPayoutPlan(input: {
  payoutId: string;
  quoteId: string;
  depositor: `0x${string}`;
  plan: Pick<SignedPayoutPlan, "steps" | "signature" | "signer" | "eip712">;
}): Promise<boolean> {
  return verifyTypedData({
    address: input.plan.signer,
    domain: input.plan.eip712.domain,
    types: PAYOUT_PLAN_TYPES,
    primaryType: "PayoutPlan",
    message: typedMessage(input.payoutId, input.quoteId, input.depositor, input.plan.steps),
    signature: input.plan.signature,
  });
}
