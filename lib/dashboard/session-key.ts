import type { Config } from "../kernel/config";
import { hmacSha256 } from "../kernel/hmac";

/** Mock mode's key when none is configured: public by design, so a mock dashboard guards test data only. */
const MOCK_SESSION_KEY = "mock-mode-dashboard-session-key-guards-test-data-only";

function dashboardSessionKey(config: Config): string {
  return config.DASHBOARD_SESSION_KEY ?? MOCK_SESSION_KEY;
}

/**
 * The key the dashboard's cookies are signed with: derived from the session key, so a cookie
 * signature can never double as a CSRF token or the other way round.
 */
export function dashboardCookieKey(config: Config): Promise<string> {
  return dashboardMac(config, "cookie-signing-key");
}

/** HMAC-SHA256 under the dashboard's key, hex: the one derivation of CSRF tokens. */
export async function dashboardMac(config: Config, message: string): Promise<string> {
  return (await hmacSha256(dashboardSessionKey(config)))(message);
}
