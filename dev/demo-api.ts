import type { PrivateKeyAccount } from "viem/accounts";
import type { Copm } from "../sdk/src";

/** The operator's admin API as the demos call it (partner calls go through the SDK): JSON in and out, a bearer token, a clear error on non-2xx. */
export type ApiCall = <T>(
  path: string,
  token: string | undefined,
  init?: { method?: string; body?: unknown; headers?: Record<string, string> },
) => Promise<T>;

export function apiCaller(apiUrl: string): ApiCall {
  const base = apiUrl.replace(/\/+$/, "");
  return async <T>(
    path: string,
    token: string | undefined,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? "GET",
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        "content-type": "application/json",
        "accept-language": "en",
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${init.method ?? "GET"} ${path}: HTTP ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };
}

/**
 * A new organization made by the operator, with its first key, the burn plan enabled when asked:
 * where every demo and the rehearsal start.
 */
export async function newOrganization(
  call: ApiCall,
  adminToken: string,
  name: string,
  options: { burnPlan?: boolean } = {},
): Promise<{ organizationId: string; apiKey: string }> {
  const { organization, apiKey } = await call<{ organization: { id: string }; apiKey: string }>(
    "/admin/organizations",
    adminToken,
    { method: "POST", body: { name } },
  );
  if (options.burnPlan) {
    await call(`/admin/organizations/${organization.id}`, adminToken, {
      method: "PATCH",
      body: { burnPlanEnabled: true },
    });
  }
  return { organizationId: organization.id, apiKey };
}

/** The user signs in with the wallet (EIP-4361) through the SDK: the header later BRE-B calls carry. */
export async function walletSession(
  copm: Copm,
  user: PrivateKeyAccount,
): Promise<{ "wallet-session": string }> {
  const { data: challenge } = await copm.createBrebWalletChallenge({ body: { userAddress: user.address } });
  const { data: session } = await copm.openBrebWalletSession({
    body: { message: challenge.message, signature: await user.signMessage({ message: challenge.message }) },
  });
  return { "wallet-session": session.walletSession };
}
