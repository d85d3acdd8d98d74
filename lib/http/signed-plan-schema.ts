import { z } from "@hono/zod-openapi";

/**
 * The fields of a plan the service signs for a user to send (sdk/src/plans.ts: one format for burn
 * and payout plans): its steps in order and the EIP-712 signature over them, under the plan kind's
 * own primary type so one kind's signature never verifies as another's.
 */
export function signedPlanFields<const Step extends string, const Primary extends string>(
  stepTypes: readonly [Step, ...Step[]],
  primaryType: Primary,
) {
  return {
    steps: z.array(
      z.object({
        type: z.enum(stepTypes),
        chainId: z.number().int(),
        to: z.string(),
        data: z.string(),
        value: z.string(),
      }),
    ),
    signature: z.string().openapi({ description: "EIP-712 signature of the plan by `signer`." }),
    signer: z.string(),
    eip712: z.object({
      domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int() }),
      primaryType: z.literal(primaryType),
      types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() })).readonly()),
    }),
  };
}
