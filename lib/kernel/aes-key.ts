/** Whether a configured key is 32 bytes of base64, as AES-256 needs. */
export function isAes256Key(keyBase64: string): boolean {
  try {
    return atob(keyBase64).length === 32;
  } catch {
    return false;
  }
}
