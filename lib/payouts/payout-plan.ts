import { encodeFunctionData, keccak256, type LocalAccount, stringToHex } from "viem";
import { type PlanStep, payoutPlans } from "../../sdk/src/plans";
import { erc20Abi, payoutDepositorAbi } from "../kernel/chain/abis";

export type PayoutStep = PlanStep<"approve" | "deposit">;

/** What a payout's deposit carries on chain, so a deposit can only ever confirm this payout. */
export function payoutRef(payoutId: string): `0x${string}` {
  return keccak256(stringToHex(`copm-breb-payout/v1${payoutId}`));
}

/**
 * The user's two transactions on the payout chain: approve the depositor for everything the payout
 * takes, then deposit, which pays the provider's deposit address and the fee wallet (and the
 * organization's fee address, when it charges its own fee) in one call.
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
  /** The organization's own fee and where it goes; 0 and null when it charges none. */
  partnerFee: bigint;
  partnerFeeAddress: `0x${string}` | null;
}): PayoutStep[] {
  if (input.partnerFee > 0n && !input.partnerFeeAddress) {
    throw new Error(`payout ${input.payoutId} charges a partner fee with nowhere to pay it`);
  }
  const deposit = [
    payoutRef(input.payoutId),
    input.token,
    input.providerAmount,
    input.serviceFee,
    input.depositAddress,
    input.feeWallet,
  ] as const;
  return [
    {
      type: "approve",
      chainId: input.chainId,
      to: input.token,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "approve",
        args: [input.depositor, input.providerAmount + input.serviceFee + input.partnerFee],
      }),
      value: "0",
    },
    {
      type: "deposit",
      chainId: input.chainId,
      to: input.depositor,
      data:
        input.partnerFee > 0n && input.partnerFeeAddress
          ? encodeFunctionData({
              abi: payoutDepositorAbi,
              functionName: "depositWithPartnerFee",
              args: [...deposit, input.partnerFee, input.partnerFeeAddress],
            })
          : encodeFunctionData({ abi: payoutDepositorAbi, functionName: "deposit", args: deposit }),
      value: "0",
    },
  ];
}

export type SignedPayoutPlan = Awaited<ReturnType<typeof payoutPlans.sign<PayoutStep>>>;

export function signPayoutPlan(
  signer: LocalAccount,
  plan: { payoutId: string; quoteId: string; depositor: `0x${string}`; chainId: number; steps: PayoutStep[] },
): Promise<SignedPayoutPlan> {
  return payoutPlans.sign(signer, { ...plan, id: plan.payoutId });
}
