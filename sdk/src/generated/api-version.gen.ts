// Written by dev/sdk/generate.ts from the document's info["x-api-version"].

/** The dated API version this SDK was generated for: sent as API-Version on every call. */
export const API_VERSION = "2026-11-28";
