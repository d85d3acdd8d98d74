/**
 * The API's dated versions, oldest first; the last is current, and a request without the header is
 * answered at it. A version lives at least twelve months after the next one is dated
 * (docs/versioning.md); breaking changes get a new date, additions do not.
 */
export const API_VERSIONS = ["2026-11-25", "2026-11-28"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1] as ApiVersion;
export const API_VERSION_HEADER = "API-Version";

/**
 * Each breaking change, by the version that made it: a route renders the change for requests at that
 * version or later, and the older shape for those pinned before it. docs/versioning.md's changelog
 * says the same in prose.
 */
export const API_CHANGES = {
  /** `GET /settlements/orders` lists summaries; the read answers the whole order. */
  orderListSummaries: "2026-11-28",
} as const satisfies Record<string, ApiVersion>;

/** Whether a request at `version` gets `change`. Dated versions compare as text (ISO dates). */
export function hasChange(version: ApiVersion, change: keyof typeof API_CHANGES): boolean {
  return version >= API_CHANGES[change];
}
