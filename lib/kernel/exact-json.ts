/** JSON.parse's reviver with the source text access of ES2025 ("JSON.parse source text access"). */
type SourceTextReviver = (
  this: unknown,
  key: string,
  value: unknown,
  context?: { source?: string },
) => unknown;

const numberAsSourceText: SourceTextReviver = (_key, value, context) =>
  typeof value === "number" ? (context?.source ?? String(value)) : value;

/**
 * Parses JSON with every number kept as the text the provider wrote ("1.3", "207543"), so a fee
 * never passes through a float on its way to a bigint. Runtimes without source text access (it is
 * in V8 since 11.4: Node 22, Workers) fall back to the shortest round-trip text, which is still
 * exact for the short decimals fees are written with. Throws SyntaxError on malformed JSON.
 */
export function parseJsonKeepingNumberText(text: string): unknown {
  return JSON.parse(text, numberAsSourceText as (this: unknown, key: string, value: unknown) => unknown);
}
