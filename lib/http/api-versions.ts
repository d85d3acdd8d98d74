/**
 * The API's dated versions, oldest first; the last is current, and a request without the header is
 * answered at it. A version lives at least twelve months after the next one is dated
 * (docs/versioning.md); breaking changes get a new date, additions do not.
 */
export const API_VERSIONS = ["2026-11-25"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1] as ApiVersion;
export const API_VERSION_HEADER = "API-Version";
