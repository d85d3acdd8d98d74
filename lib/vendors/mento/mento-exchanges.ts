import { type PublicClient, parseAbi } from "viem";
import { chainUnavailable } from "../../kernel/chain/failure";
import { withinDeadline } from "../../kernel/deadline";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "../../kernel/provider-failure";

const PROVIDER = "mento";

/** One Mento exchange: its id and the two tokens it trades. */
export interface MentoExchange {
  exchangeId: `0x${string}`;
  tokens: readonly [`0x${string}`, `0x${string}`];
}

/** Mento's IExchangeProvider listing (BiPoolManager; the sandbox exchange provider keeps it). */
export const mentoExchangeProviderAbi = parseAbi([
  "struct Exchange { bytes32 exchangeId; address[] assets; }",
  "function getExchanges() view returns (Exchange[] exchanges)",
]);

/**
 * The exchanges an exchange provider lists, for the live profile where the pools are not
 * configured by hand. A BiPoolManager exchange always has two assets; any other entry is skipped.
 */
export async function mentoExchangesOf(
  client: PublicClient,
  exchangeProvider: `0x${string}`,
  options: { timeoutMs?: number } = {},
): Promise<MentoExchange[]> {
  try {
    const listed = await withinDeadline(PROVIDER, options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS, () =>
      client.readContract({
        address: exchangeProvider,
        abi: mentoExchangeProviderAbi,
        functionName: "getExchanges",
      }),
    );
    return listed.flatMap(({ exchangeId, assets }) => {
      const [first, second, ...rest] = assets;
      return first && second && rest.length === 0 ? [{ exchangeId, tokens: [first, second] as const }] : [];
    });
  } catch (error) {
    throw chainUnavailable(PROVIDER, error);
  }
}
