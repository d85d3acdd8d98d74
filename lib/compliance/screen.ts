import type { ConfiguredChain } from "../kernel/chain/registry";
import type { ServiceContext } from "../kernel/context";
import { ApiError } from "../kernel/errors/api-error";
import { describeError } from "../kernel/log";
import { deniedAmong } from "./deny-list";
import { oracleAnswersOf, oracleLists } from "./oracle";

/** An address a request names, and the request field it came in (what a refusal points to). */
export interface ScreenedAddress {
  address: `0x${string}`;
  field: string;
}

/**
 * Screens addresses before anything is created or moves (docs/compliance.md): the operator's deny
 * list, then Chainalysis's sanctions oracle on each of `chains` that has one (a sanction is the
 * address's, whatever the chain, so every copy the operation touches is asked). A listed address is
 * 403 SANCTIONED_ADDRESS naming its field; an oracle that does not answer is 503
 * SCREENING_UNAVAILABLE (fail closed: new money never moves unscreened).
 */
export async function screenAddresses(
  ctx: ServiceContext,
  subjects: readonly ScreenedAddress[],
  chains: readonly (ConfiguredChain | undefined)[],
  stage: string,
): Promise<void> {
  const listed = await listedAmong(
    ctx,
    subjects.map((subject) => subject.address),
    chains,
    stage,
  );
  const refused = subjects.filter((subject) => listed.has(subject.address.toLowerCase()));
  if (refused.length === 0) return;
  ctx.log.warn("sanctioned address refused", { stage, fields: refused.map((subject) => subject.field) });
  throw new ApiError("SANCTIONED_ADDRESS", {
    stage,
    problems: refused.map((subject) => ({
      field: subject.field,
      code: "SANCTIONED_ADDRESS" as const,
      problem: "is on a sanctions or deny list",
    })),
  });
}

/**
 * Which of `addresses` are listed, lower-cased: on the deny list, or by the oracle of any of
 * `chains`. For a check that must not throw on a listing (a leg already moving money holds its
 * order instead); an oracle that does not answer still throws SCREENING_UNAVAILABLE.
 */
export async function listedAmong(
  ctx: ServiceContext,
  addresses: readonly `0x${string}`[],
  chains: readonly (ConfiguredChain | undefined)[],
  stage: string,
): Promise<Set<string>> {
  const listed = await deniedAmong(ctx.db, addresses);
  const oracles = uniqueOracleChains(chains);
  const unlisted = [...new Set(addresses.map((address) => address.toLowerCase() as `0x${string}`))].filter(
    (address) => !listed.has(address),
  );
  const answers = oracleAnswersOf(ctx);
  try {
    const reads = unlisted.flatMap((address) =>
      oracles.map(async (chain) =>
        (await oracleLists(chain, address, answers, ctx.clock)) ? address : undefined,
      ),
    );
    for (const address of await Promise.all(reads)) if (address) listed.add(address);
  } catch (error) {
    // describeError redacts: an RPC URL in a viem message may carry its provider's key.
    ctx.log.error("sanctions oracle unreachable", { stage, ...describeError(error) });
    throw new ApiError("SCREENING_UNAVAILABLE", { stage, retryAfterSeconds: 5 });
  }
  return listed;
}

type OracleChain = ConfiguredChain & { contracts: { sanctionsOracle: `0x${string}` } };

function uniqueOracleChains(chains: readonly (ConfiguredChain | undefined)[]): OracleChain[] {
  const byId = new Map<number, OracleChain>();
  for (const chain of chains) {
    if (chain?.contracts.sanctionsOracle) byId.set(chain.chainId, chain as OracleChain);
  }
  return [...byId.values()];
}
