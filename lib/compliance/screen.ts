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
  refuseListed(ctx, subjects, listed, stage);
}

/**
 * The oracle half of screenAddresses, for a write that reads the deny list itself (noneDenied in its
 * WHERE, then refuseDenied when it wrote nothing): each of `chains`' oracles is asked of every
 * subject. A listed subject is 403 SANCTIONED_ADDRESS naming, as screenAddresses does, every
 * subject listed by an oracle or on the deny list; an oracle that does not answer is 503
 * SCREENING_UNAVAILABLE.
 */
export async function screenOnOracles(
  ctx: ServiceContext,
  subjects: readonly ScreenedAddress[],
  chains: readonly (ConfiguredChain | undefined)[],
  stage: string,
): Promise<void> {
  const addresses = subjects.map((subject) => subject.address);
  const listed = await oracleListedAmong(ctx, addresses, chains, stage);
  if (listed.size === 0) return;
  for (const address of await deniedAmong(ctx.db, addresses)) listed.add(address);
  refuseListed(ctx, subjects, listed, stage);
}

/**
 * After a write whose noneDenied condition may have refused it: 403 SANCTIONED_ADDRESS naming the
 * subjects on the deny list now, as screenAddresses names them. Returns when none is listed (the
 * write was refused for another reason, a unique index's conflict).
 */
export async function refuseDenied(
  ctx: ServiceContext,
  subjects: readonly ScreenedAddress[],
  stage: string,
): Promise<void> {
  const denied = await deniedAmong(
    ctx.db,
    subjects.map((subject) => subject.address),
  );
  refuseListed(ctx, subjects, denied, stage);
}

/** 403 SANCTIONED_ADDRESS naming the fields of the subjects in `listed` (lower-cased), if any. */
function refuseListed(
  ctx: ServiceContext,
  subjects: readonly ScreenedAddress[],
  listed: ReadonlySet<string>,
  stage: string,
): void {
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
  const unlisted = addresses.filter((address) => !listed.has(address.toLowerCase()));
  for (const address of await oracleListedAmong(ctx, unlisted, chains, stage)) listed.add(address);
  return listed;
}

/**
 * Which of `addresses` the oracle of any of `chains` lists, lower-cased; an oracle that does not
 * answer is SCREENING_UNAVAILABLE.
 */
async function oracleListedAmong(
  ctx: ServiceContext,
  addresses: readonly `0x${string}`[],
  chains: readonly (ConfiguredChain | undefined)[],
  stage: string,
): Promise<Set<string>> {
  const listed = new Set<string>();
  const oracles = uniqueOracleChains(chains);
  const unique = [...new Set(addresses.map((address) => address.toLowerCase() as `0x${string}`))];
  const answers = oracleAnswersOf(ctx);
  try {
    const reads = unique.flatMap((address) =>
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
