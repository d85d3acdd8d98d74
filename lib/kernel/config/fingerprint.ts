import { hmacSha256 } from "../hmac";
import type { Config } from "./index";
import { VARIABLE_NAMES } from "./variables";

/**
 * Each variable's value as parsed (defaults applied), as an HMAC-SHA256 under `nonce`: two workers
 * that must run on the same values compare them without either's values crossing between them
 * (lib/http/pages.ts). A fresh nonce each check keeps fingerprints from being precomputed or matched
 * across checks; they travel over the service binding only, and are neither logged nor answered.
 */
export async function configurationFingerprints(
  config: Config,
  nonce: string,
): Promise<Record<string, string>> {
  const sign = await hmacSha256(nonce);
  const fingerprints: Record<string, string> = {};
  for (const name of VARIABLE_NAMES) {
    const value = JSON.stringify((config as Record<string, unknown>)[name] ?? null, (_key, item) =>
      typeof item === "bigint" ? item.toString() : item,
    );
    fingerprints[name] = await sign(`${name}=${value}`);
  }
  return fingerprints;
}

/** The variables whose fingerprints differ, or that one side has and the other lacks, in the list's order. */
export function differingVariables(ours: Record<string, string>, theirs: Record<string, string>): string[] {
  return VARIABLE_NAMES.filter((name) => ours[name] !== theirs[name]);
}
