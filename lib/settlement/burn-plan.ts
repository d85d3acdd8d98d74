import { encodeFunctionData, type LocalAccount, verifyTypedData, zeroAddress } from "viem";
import { erc20Abi, FINALITY_FAST, tokenMessengerV2Abi } from "../chain/abis";
import { addressToBytes32, orderHookData } from "../chain/forwarding";
import type { SettlementChains } from "./quote-prices";

export interface BurnPlanStep {
  type: "approve" | "depositForBurnWithHook";
  chainId: number;
  to: `0x${string}`;
  data: `0x${string}`;
  value: string;
}

export interface BurnPlan {
  steps: BurnPlanStep[];
  /** EIP-712 signature by `signer` over { orderId, quoteId, depositor, steps } (see eip712). */
  signature: `0x${string}`;
  signer: `0x${string}`;
  eip712: {
    domain: ReturnType<typeof burnPlanDomain>;
    primaryType: "BurnPlan";
    types: typeof BURN_PLAN_TYPES;
  };
}

/** The typed data an integrator verifies before asking the user to sign the steps. */
export const BURN_PLAN_TYPES = {
  BurnPlan: [
    { name: "orderId", type: "string" },
    { name: "quoteId", type: "string" },
    { name: "depositor", type: "address" },
    { name: "steps", type: "Step[]" },
  ],
  Step: [
    { name: "stepType", type: "string" },
    { name: "chainId", type: "uint256" },
    { name: "to", type: "address" },
    { name: "data", type: "bytes" },
    { name: "value", type: "uint256" },
  ],
} as const;

export function burnPlanDomain(chainId: number) {
  return { name: "COPm Settlement Burn Plan", version: "1", chainId } as const;
}

/**
 * The user's two transactions on the source chain: approve the TokenMessengerV2 for the total
 * debit, then burn it with depositForBurnWithHook to the intermediate chain's domain, the
 * settlement account as mint recipient, maxFee = the quoted upfront fee, Fast finality and the
 * Forwarding Service hook data (Circle submits the mint) carrying the order's commitment, so the burn
 * can only ever be claimed by this order.
 */
export function burnPlanSteps(input: {
  orderId: string;
  chains: SettlementChains;
  totalDebitUsdc: bigint;
  maxFeeUsdc: bigint;
  settlementAccount: `0x${string}`;
}): BurnPlanStep[] {
  const { source, intermediate } = input.chains;
  return [
    {
      type: "approve",
      chainId: source.chainId,
      to: source.contracts.usdc,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "approve",
        args: [source.contracts.tokenMessenger, input.totalDebitUsdc],
      }),
      value: "0",
    },
    {
      type: "depositForBurnWithHook",
      chainId: source.chainId,
      to: source.contracts.tokenMessenger,
      data: encodeFunctionData({
        abi: tokenMessengerV2Abi,
        functionName: "depositForBurnWithHook",
        args: [
          input.totalDebitUsdc,
          intermediate.cctpDomain,
          addressToBytes32(input.settlementAccount),
          source.contracts.usdc,
          addressToBytes32(zeroAddress),
          input.maxFeeUsdc,
          FINALITY_FAST,
          orderHookData(input.orderId),
        ],
      }),
      value: "0",
    },
  ];
}

function typedMessage(orderId: string, quoteId: string, depositor: `0x${string}`, steps: BurnPlanStep[]) {
  return {
    orderId,
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

export async function signBurnPlan(
  signer: LocalAccount,
  plan: {
    orderId: string;
    quoteId: string;
    depositor: `0x${string}`;
    chainId: number;
    steps: BurnPlanStep[];
  },
): Promise<BurnPlan> {
  const domain = burnPlanDomain(plan.chainId);
  const signature = await signer.signTypedData({
    domain,
    types: BURN_PLAN_TYPES,
    primaryType: "BurnPlan",
    message: typedMessage(plan.orderId, plan.quoteId, plan.depositor, plan.steps),
  });
  return {
    steps: plan.steps,
    signature,
    signer: signer.address,
    eip712: { domain, primaryType: "BurnPlan", types: BURN_PLAN_TYPES },
  };
}

/** What an integrator does (README, "Verifying a burn plan"): true when the service signed exactly this. */
export function verifyBurnPlan(input: {
  orderId: string;
  quoteId: string;
  depositor: `0x${string}`;
  plan: Pick<BurnPlan, "steps" | "signature" | "signer" | "eip712">;
}): Promise<boolean> {
  return verifyTypedData({
    address: input.plan.signer,
    domain: input.plan.eip712.domain,
    types: BURN_PLAN_TYPES,
    primaryType: "BurnPlan",
    message: typedMessage(input.orderId, input.quoteId, input.depositor, input.plan.steps),
    signature: input.plan.signature,
  });
}
