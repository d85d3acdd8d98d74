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
