/**
 * Comparisons of secrets that take the same time wherever the inputs first differ, so a caller
 * cannot learn a secret byte by byte from response times. Only a length difference returns early:
 * callers compare values of a public, fixed length (digests, signatures) or hash first.
 */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

export function equalStrings(a: string, b: string): boolean {
  const encoder = new TextEncoder();
  return equalBytes(encoder.encode(a), encoder.encode(b));
}
