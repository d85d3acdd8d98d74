import { sanctionsListAbi } from "../kernel/chain/abis";
import type { ConfiguredChain } from "../kernel/chain/registry";
import type { Clock } from "../kernel/clock";

/**
 * How long one oracle answer stands, listed or not (docs/compliance.md): Chainalysis updates the
 * list by hand, so a few minutes add little to its own lag, and a quote and its order a minute
 * later read the chain once.
 */
export const ORACLE_ANSWER_MS = 5 * 60_000;
/** The most answers one isolate keeps; the oldest go first. */
const MAX_ANSWERS = 10_000;

/** The oracle's recent answers in this isolate, by chain and lower-cased address. */
export class OracleAnswers {
  readonly #answers = new Map<string, { listed: boolean; until: number }>();

  get(chainId: number, address: string, now: Date): boolean | undefined {
    const key = `${chainId}:${address.toLowerCase()}`;
    const answer = this.#answers.get(key);
    if (!answer) return undefined;
    if (answer.until > now.getTime()) return answer.listed;
    this.#answers.delete(key);
    return undefined;
  }

  set(chainId: number, address: string, listed: boolean, now: Date): void {
    if (this.#answers.size >= MAX_ANSWERS) {
      const oldest = this.#answers.keys().next().value;
      if (oldest !== undefined) this.#answers.delete(oldest);
    }
    this.#answers.set(`${chainId}:${address.toLowerCase()}`, {
      listed,
      until: now.getTime() + ORACLE_ANSWER_MS,
    });
  }

  /** The sandbox changed the list: this isolate reads the chains again for `address`. */
  forget(address: string): void {
    const suffix = `:${address.toLowerCase()}`;
    for (const key of this.#answers.keys()) if (key.endsWith(suffix)) this.#answers.delete(key);
  }
}

const answersByConfig = new WeakMap<object, OracleAnswers>();

/** One app's answers (keyed by its config object, as the caller cache is). */
export function oracleAnswersOf(ctx: { config: object }): OracleAnswers {
  let answers = answersByConfig.get(ctx.config);
  if (!answers) {
    answers = new OracleAnswers();
    answersByConfig.set(ctx.config, answers);
  }
  return answers;
}

/**
 * Whether Chainalysis's oracle on `chain` lists `address`, from this isolate's recent answers or one
 * `isSanctioned` read. A read that fails throws: the caller fails closed.
 */
export async function oracleLists(
  chain: ConfiguredChain & { contracts: { sanctionsOracle: `0x${string}` } },
  address: `0x${string}`,
  answers: OracleAnswers,
  clock: Clock,
): Promise<boolean> {
  const known = answers.get(chain.chainId, address, clock.now());
  if (known !== undefined) return known;
  const listed = await chain.client.readContract({
    address: chain.contracts.sanctionsOracle,
    abi: sanctionsListAbi,
    functionName: "isSanctioned",
    args: [address],
  });
  answers.set(chain.chainId, address, listed, clock.now());
  return listed;
}
