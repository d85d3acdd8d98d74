import { describe, expect, it } from "vitest";
import {
  API_KEY_PREFIXES,
  apiKeyModeOf,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from "../../lib/tenancy/api-key-format";

describe("API key format", () => {
  it.each(["live", "test"] as const)(
    "is the %s prefix, 256 random bits in base62 and a checksum",
    async (mode) => {
      const { key, hash, start } = await generateApiKey(mode);
      expect(key).toMatch(new RegExp(`^copm_${mode}_[0-9A-Za-z]{49}$`));
      expect(key.startsWith(API_KEY_PREFIXES[mode])).toBe(true);
      expect(apiKeyModeOf(key)).toBe(mode);
      expect(start).toBe(key.slice(0, 14));
      expect(hash).toBe(await hashApiKey(key));
      expect(isWellFormedApiKey(key)).toBe(true);
    },
  );

  it("never repeats across many keys", async () => {
    const keys = await Promise.all(Array.from({ length: 200 }, () => generateApiKey("test")));
    expect(new Set(keys.map((k) => k.key)).size).toBe(200);
  });

  it("tells a real key from one with any character changed, by checksum alone", async () => {
    const { key } = await generateApiKey("live");
    const prefix = API_KEY_PREFIXES.live;
    const body = key.slice(prefix.length);
    let detected = 0;
    for (let i = 0; i < body.length; i++) {
      const replacement = body[i] === "a" ? "b" : "a";
      const tampered = `${prefix}${body.slice(0, i)}${replacement}${body.slice(i + 1)}`;
      if (!isWellFormedApiKey(tampered)) detected += 1;
    }
    expect(detected).toBe(body.length);
    expect(isWellFormedApiKey(`sk_live_${body}`)).toBe(false);
    expect(isWellFormedApiKey(`copm_prod_${body}`)).toBe(false);
    expect(apiKeyModeOf(`copm_prod_${body}`)).toBeUndefined();
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
  });
});
