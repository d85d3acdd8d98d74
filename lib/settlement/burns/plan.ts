import { concatHex, encodeFunctionData, type Hex, type LocalAccount, zeroAddress } from "viem";
import { burnPlans, type PlanStep } from "../../../sdk/src/plans";
import { erc20Abi, tokenMessengerV2Abi } from "../../kernel/chain/abis";
import { addressToBytes32, hookDataOf } from "../../kernel/chain/forwarding";
import type { SettlementChains } from "../pricing/prices";

export type BurnPlanStep = PlanStep<"approve" | "depositForBurnWithHook" | "transfer">;

/** The typed data an integrator verifies before asking the user to sign the steps. */
export const BURN_PLAN_TYPES = burnPlans.types;

export type BurnPlan = Awaited<ReturnType<typeof burnPlans.sign<BurnPlanStep>>>;

/**
 * The user's two transactions on the source chain: approve the TokenMessengerV2 for the total
 * debit, then burn it with depositForBurnWithHook to the intermediate chain's domain, the
 * settlement account as mint recipient, maxFee = the quoted upfront fee, the quote's finality
 * (Standard unless the organization burns Fast) and the Forwarding Service hook data (Circle submits
 * the mint) carrying the order's commitment, so the burn can only ever be claimed by this order.
 */
export function burnPlanSteps(input: {
  /** The order's commitment (orderCommitment), made once by its creation for the steps and the row. */
  commitment: Hex;
  chains: SettlementChains;
  totalDebitUsdc: bigint;
  maxFeeUsdc: bigint;
  finalityThreshold: number;
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
          input.finalityThreshold,
          hookDataOf(input.commitment),
        ],
      }),
      value: "0",
    },
  ];
}

/**
 * USDC already on the intermediate chain: one transfer of the total to the settlement account, the
 * order's 32-byte commitment after the call's arguments (ERC-20 ignores trailing calldata), so the
 * transfer proves which order it is for, as a burn's hook data does.
 */
export function depositPlanSteps(input: {
  commitment: Hex;
  chains: SettlementChains;
  totalDebitUsdc: bigint;
  settlementAccount: `0x${string}`;
}): BurnPlanStep[] {
  const { intermediate } = input.chains;
  return [
    {
      type: "transfer",
      chainId: intermediate.chainId,
      to: intermediate.contracts.usdc,
      data: depositCalldata(input.commitment, input.settlementAccount, input.totalDebitUsdc),
      value: "0",
    },
  ];
}

/**
 * The exact input of an order's deposit transfer, for the order's commitment (orderCommitment): what
 * its verification compares byte for byte.
 */
export function depositCalldata(
  commitment: Hex,
  settlementAccount: `0x${string}`,
  amount: bigint,
): `0x${string}` {
  return concatHex([
    encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [settlementAccount, amount] }),
    commitment,
  ]);
}

export function signBurnPlan(
  signer: LocalAccount,
  plan: {
    orderId: string;
    quoteId: string;
    depositor: `0x${string}`;
    chainId: number;
    steps: BurnPlanStep[];
  },
): Promise<BurnPlan> {
  return burnPlans.sign(signer, { ...plan, id: plan.orderId });
}
