import { Copm, type CopmOptions } from "./client";

/** Where a partner reaches the BRE-B operations (with its key), and where the service's miniapp does (without). */
const PARTNER_BREB_PATH = "/api/integrations/breb/";
const MINIAPP_BREB_PATH = "/api/breb/";

/** The BRE-B operations a user's wallet makes through the miniapp, in the order of its steps. */
export const BREB_MINIAPP_OPERATIONS = [
  "createBrebWalletChallenge",
  "openBrebWalletSession",
  "sendBrebOtp",
  "verifyBrebOtp",
  "getBrebKyc",
  "quoteBrebPayout",
  "createBrebPayout",
  "confirmBrebPayout",
  "getBrebPayout",
] as const;

/** The miniapp's client: the BRE-B operations of `Copm`, typed alike, and nothing else. */
export type BrebMiniapp = Pick<Copm, (typeof BREB_MINIAPP_OPERATIONS)[number]>;

export interface BrebMiniappOptions extends Omit<CopmOptions, "apiKey" | "apiVersion"> {
  /** The wallet's current session (Sign-In with Ethereum), sent as `Wallet-Session` on every call. */
  walletSession?: () => string | undefined;
}

/**
 * The client of the service's own BRE-B miniapp page: the partner API's BRE-B operations without a
 * key, under `/api/breb` (which exists only in mock mode, acting as the integration the deployment
 * names in MINIAPP_INTEGRATION_ID), with the wallet's session on every call. Same bodies, answers,
 * errors and retries as `Copm`: only the path and the credential differ.
 */
export function brebMiniapp(options: BrebMiniappOptions): BrebMiniapp {
  const fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  // No key: the client sends no Authorization when its key is empty.
  return new Copm({ ...options, apiKey: "", fetch: miniappFetch(fetcher, options.walletSession) });
}

/** The request with the miniapp's path and the wallet's session, under the client's retries. */
function miniappFetch(
  fetcher: typeof fetch,
  walletSession: (() => string | undefined) | undefined,
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.pathname.startsWith(PARTNER_BREB_PATH)) {
      url.pathname = MINIAPP_BREB_PATH + url.pathname.slice(PARTNER_BREB_PATH.length);
    }
    const headers = new Headers(request.headers);
    const session = walletSession?.();
    if (session && !headers.has("wallet-session")) headers.set("wallet-session", session);
    // A new Request from the old one's bytes: browsers refuse a streamed body without `duplex`.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    return fetcher(new Request(url, { method: request.method, headers, body, signal: request.signal }));
  };
}
