import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactedBody } from "../../lib/audit/redact";
import { ERROR_CODES, ERRORS } from "../../lib/kernel/errors/registry";

// A request log's body redaction reads a long body as text, only as far as it keeps (the first 16 KiB
// of a 390 KB page of orders), where it parsed the whole body before. Random JSON texts (escapes,
// every form of number, whitespace, redacted names, emails and keys) and broken ones are compared
// with the implementation that parsed the whole body, kept here as it was.

// The redaction as it was before it read text (lib/audit/redact.ts and errorCodeOf in
// lib/audit/request-logs.ts), the oracle.
const OLD_REDACTED_FIELD =
  /secret|password|token|apikey|api_key|session|signature|otp|^code$|debugcode|email|brebkey|bre_b_key|accountownername|privatekey|authorization/i;
const OLD_REDACTED_TEXT =
  /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}|copm_(?:live|test)_\w+|whsec_[\w+/=]+/g;
const OLD_REDACTED = "[redacted]";

interface OldLoggedBody {
  text: string;
  json: { value: unknown } | undefined;
}

function oldLoggedBody(text: string | undefined): OldLoggedBody | undefined {
  if (text === undefined || text.length === 0) return undefined;
  try {
    return { text, json: { value: JSON.parse(text) } };
  } catch {
    return { text, json: undefined };
  }
}

function oldRedactedBody(body: OldLoggedBody | undefined, maxChars: number): string | null {
  if (body === undefined) return null;
  if (body.json === undefined) return oldCut(`[${body.text.length} characters, not JSON]`, maxChars);
  return oldCut(oldRedactedJson(body.json.value, maxChars), maxChars);
}

function oldCut(kept: string, maxChars: number): string {
  return kept.length > maxChars ? `${kept.slice(0, maxChars)}…[truncated]` : kept;
}

function oldRedactedJson(value: unknown, maxChars: number): string {
  const parts: string[] = [];
  let length = 0;
  const emit = (part: string) => {
    parts.push(part);
    length += part.length;
  };
  const write = (inner: unknown): boolean => {
    if (typeof inner === "string") emit(JSON.stringify(oldRedactedText(inner)));
    else if (Array.isArray(inner)) {
      emit("[");
      for (const [i, item] of inner.entries()) {
        if (length > maxChars) return false;
        if (i > 0) emit(",");
        if (!write(item)) return false;
      }
      emit("]");
    } else if (inner && typeof inner === "object") {
      emit("{");
      let first = true;
      for (const [key, field] of Object.entries(inner)) {
        if (length > maxChars) return false;
        emit(`${first ? "" : ","}${JSON.stringify(key)}:`);
        first = false;
        if (OLD_REDACTED_FIELD.test(key) && !oldIsErrorCode(key, field)) emit(JSON.stringify(OLD_REDACTED));
        else if (!write(field)) return false;
      }
      emit("}");
    } else emit(JSON.stringify(inner));
    return length <= maxChars;
  };
  write(value);
  return parts.join("");
}

function oldRedactedText(text: string): string {
  if (!text.includes("@") && !text.includes("copm_") && !text.includes("whsec_")) return text;
  return text.replace(OLD_REDACTED_TEXT, OLD_REDACTED);
}

function oldIsErrorCode(key: string, value: unknown): boolean {
  return key === "code" && typeof value === "string" && Object.hasOwn(ERRORS, value);
}

function oldErrorCodeOf(body: OldLoggedBody | undefined): string | null {
  const value = body?.json?.value as { error?: { code?: unknown } } | null | undefined;
  const code = value?.error?.code;
  return typeof code === "string" ? code : null;
}

/** What the log kept before, for a body and a limit. */
function oracle(text: string, maxChars: number): { text: string | null; errorCode: string | null } {
  const body = oldLoggedBody(text);
  return { text: oldRedactedBody(body, maxChars), errorCode: oldErrorCodeOf(body) };
}

/** The body read as text whatever its length (no body is parsed whole). */
const read = (text: string, maxChars: number) => redactedBody(text, maxChars, 0);

const LIMITS = [10, 100, 16_384, Number.MAX_SAFE_INTEGER];

/** Read as text, the same as the oracle: what is kept always, the error code when all of it is kept. */
function expectSameAsOracle(text: string, maxChars: number) {
  const before = oracle(text, maxChars);
  const now = read(text, maxChars);
  expect(now.text).toBe(before.text);
  if (before.text?.endsWith("…[truncated]")) expect([before.errorCode, null]).toContain(now.errorCode);
  else expect(now.errorCode).toBe(before.errorCode);
}

// Random JSON texts, written token by token: strings with escapes (\u0040 is an "@"), numbers in
// every form the grammar has (1.0, 1E+2, -0, 1e400), any whitespace JSON allows.

const RAW_PIECES = [
  "a",
  "Z",
  "0",
  " ",
  ".",
  "-",
  "@",
  "example.com",
  "ana@example.com",
  "copm_test_abc",
  "copm_live_",
  "whsec_x+/=",
  "ORDER_NOT_FOUND",
  "é",
  "😀",
  "\ud800",
  "\u2028",
  "0x5f3a9c",
];
const ESCAPES = [
  '\\"',
  "\\\\",
  "\\/",
  "\\b",
  "\\f",
  "\\n",
  "\\r",
  "\\t",
  "\\u0040",
  "\\u0000",
  "\\u001F",
  "\\uD83D\\uDE00",
  "\\ud800",
  "\\u00e9",
];
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...RAW_PIECES) },
  { weight: 2, arbitrary: fc.constantFrom(...ESCAPES) },
  // Any characters, escaped where JSON must.
  {
    weight: 1,
    arbitrary: fc.string({ unit: "binary", maxLength: 3 }).map((s) => JSON.stringify(s).slice(1, -1)),
  },
  // Any character as \uXXXX, in either case.
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 0, max: 0xffff }), fc.boolean()).map(([c, upper]) => {
      const hex = c.toString(16).padStart(4, "0");
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    }),
  },
);
const stringToken = fc.array(piece, { maxLength: 8 }).map((pieces) => `"${pieces.join("")}"`);

const digits = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength, maxLength });
const numberToken = fc
  .tuple(
    fc.boolean(),
    fc.oneof(
      fc.constant("0"),
      fc.tuple(fc.constantFrom(..."123456789"), digits(0, 22)).map(([a, b]) => a + b),
    ),
    fc.option(digits(1, 20)),
    fc.option(fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), digits(1, 3))),
  )
  .map(
    ([minus, whole, fraction, exponent]) =>
      `${minus ? "-" : ""}${whole}${fraction === null ? "" : `.${fraction}`}${exponent === null ? "" : exponent.join("")}`,
  );

const space = fc.constantFrom("", "", "", " ", "\n  ", "\t", "\r\n");

/** Keys the redaction names (some escaped: "co\u0064e" is "code"), ordinary ones, numeric ones. */
const KEYS = [
  "secret",
  "clientSecret",
  "apiKey",
  "api_key",
  "email",
  "userEmail",
  "code",
  "co\\u0064e",
  "CODE",
  "signature",
  "otp",
  "sessionId",
  "authorization",
  "breBKey",
  "error",
  "data",
  "id",
  "amount",
  "status",
  "message",
  "nextCursor",
  "__proto__",
  "0",
  "12",
  "007",
  "-1",
].map((key) => `"${key}"`);
const keyToken = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...KEYS) },
  { weight: 1, arbitrary: stringToken },
);

/** A key as JSON.parse reads it. */
const keyOf = (token: string) => JSON.parse(token) as string;
/** Keys JSON.parse would move: a repeated key, or one an object lists first. */
const movesKey = (key: string) => /^(?:0|[1-9][0-9]*)$/.test(key);

/** Valid JSON texts; `clean`: no object has a repeated key or a numeric one. */
function jsonTexts(clean: boolean) {
  const { value } = fc.letrec<{ value: string; array: string; object: string; scalar: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      tie("scalar"),
      tie("array"),
      tie("object"),
    ),
    scalar: fc.oneof(
      stringToken,
      numberToken,
      fc.constantFrom("true", "false", "null"),
      fc.constantFrom(...ERROR_CODES.slice(0, 5), "NOT_A_CODE").map((code) => `"${code}"`),
    ),
    array: fc
      .tuple(fc.array(fc.tuple(space, tie("value"), space), { maxLength: 5 }), space)
      .map(([items, after]) =>
        items.length === 0 ? `[${after}]` : `[${items.map(([a, item, b]) => a + item + b).join(",")}]`,
      ),
    object: fc
      .tuple(fc.array(fc.tuple(space, keyToken, space, space, tie("value"), space), { maxLength: 6 }), space)
      .map(([entries, after]) => {
        const seen = new Set<string>();
        const kept = clean
          ? entries.filter(([, key]) => {
              const name = keyOf(key);
              if (seen.has(name) || movesKey(name)) return false;
              seen.add(name);
              return true;
            })
          : entries;
        if (kept.length === 0) return `{${after}}`;
        return `{${kept.map(([a, key, b, c, field, d]) => `${a}${key}${b}:${c}${field}${d}`).join(",")}}`;
      }),
  }));
  // An error answer's shape now and then, its code first or after other fields.
  const errorBody = fc
    .tuple(
      fc.oneof(
        fc.constantFrom(...ERROR_CODES).map((code) => `"${code}"`),
        value,
      ),
      fc.boolean(),
      value,
      space,
    )
    .map(([code, errorFirst, other, s]) => {
      const error = `${s}"error"${s}:${s}{"code":${code}${s},"message":"No such order."}`;
      return errorFirst ? `{${error},"data":${other}}` : `{"data":${other},${error}}`;
    });
  return fc
    .tuple(fc.oneof({ weight: 5, arbitrary: value }, { weight: 1, arbitrary: errorBody }), space, space)
    .map(([body, before, after]) => before + body + after);
}

// Random JSON values (the body a route answers), written by JSON.stringify.
const words = fc.constantFrom(
  "secret",
  "apiKey",
  "email",
  "code",
  "signature",
  "orderId",
  "status",
  "amount",
  "txHash",
  "error",
  "0",
  "3",
);
const { jsonValue } = fc.letrec<{ jsonValue: unknown }>((tie) => ({
  jsonValue: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(
      fc.string({ unit: "binary", maxLength: 10 }),
      fc.constantFrom(
        "ana@example.com",
        "pay copm_test_abc now",
        "whsec_x",
        "ORDER_NOT_FOUND",
        "INVALID_REQUEST",
        "\u0040home",
        'línea\n"dos"\t\\',
        "\ud83d",
      ),
    ),
    fc.oneof(
      fc.integer({ min: -1_000_000, max: 1_000_000 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(-0, 1e21, 1.5e-7, 2 ** 53 + 2, 0.1 + 0.2),
    ),
    fc.constantFrom(true, false, null),
    fc.array(tie("jsonValue"), { maxLength: 5 }),
    fc.dictionary(fc.oneof(words, fc.string({ maxLength: 6 })), tie("jsonValue"), { maxKeys: 6 }),
  ),
}));

describe("request log redaction, reading the body as text", () => {
  it("keeps what parsing the whole body kept, for JSON.stringify's text, compact or indented", () => {
    fc.assert(
      fc.property(jsonValue, fc.constantFrom(undefined, 2, "\t"), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        for (const maxChars of LIMITS) expectSameAsOracle(text, maxChars);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps what parsing the whole body kept, for any JSON text with no key JSON.parse moves", () => {
    fc.assert(
      fc.property(jsonTexts(true), (text) => {
        for (const maxChars of LIMITS) expectSameAsOracle(text, maxChars);
      }),
      { numRuns: 500 },
    );
  });

  it("keeps what parsing the whole body kept, for repeated and numeric keys, when it reads all of it", () => {
    fc.assert(
      fc.property(jsonTexts(false), (text) => {
        expect(read(text, Number.MAX_SAFE_INTEGER)).toEqual(oracle(text, Number.MAX_SAFE_INTEGER));
      }),
      { numRuns: 500 },
    );
  });

  it("tells what is not JSON as parsing the whole body did, when it reads all of it", () => {
    const broken = fc.oneof(
      fc
        .tuple(jsonTexts(false), fc.nat(), fc.constantFrom(...'{}[],:"\\ x0-.eE+tfn\u0001'), fc.boolean())
        .map(([text, at, c, insert]) => {
          const i = at % (text.length + 1);
          return insert ? text.slice(0, i) + c + text.slice(i) : text.slice(0, i) + text.slice(i + 1);
        }),
      fc.tuple(jsonTexts(false), fc.nat()).map(([text, at]) => text.slice(0, at % (text.length + 1))),
      fc.string({ unit: fc.constantFrom(...'{}[],:"\\ 01-.eEtrufalsn\n') }),
      fc.string({ unit: "binary" }),
    );
    fc.assert(
      fc.property(broken, (text) => {
        expect(read(text, Number.MAX_SAFE_INTEGER)).toEqual(oracle(text, Number.MAX_SAFE_INTEGER));
      }),
      { numRuns: 1_000 },
    );
  });

  it("is the same for hand-picked texts", () => {
    const texts = [
      "{}",
      "[]",
      " [ ] ",
      '""',
      "0",
      "-0",
      "-0.0e-0",
      "1.0",
      "1e2",
      "1E+2",
      "1e400",
      "-1e-400",
      "123456789012345678901234567890",
      "0.1",
      "true",
      "null",
      '"\\u0040"',
      '{"email":{"a":[1,2,{"secret":3}]},"b":"ana\\u0040example.com"}',
      '{"code":"ORDER_NOT_FOUND","x":{"code":"123456"},"y":{"code":7}}',
      '{"error":[{"code":"ORDER_NOT_FOUND"}]}',
      '{"error":{"x":{"code":"ORDER_NOT_FOUND"}}}',
      '{"__proto__":{"secret":1},"x":"copm_live_abc"}',
      '{"s\\u0065cret":"x","SECRET":"y","tokens":[1]}',
      "\ufeff{}",
      "{} x",
      "[1,]",
      '{"a":1,}',
      "[01]",
      "[1.]",
      "[.5]",
      "[+1]",
      '["\t"]',
      '["\\x"]',
      '["\\u00g0"]',
      "nul",
      "[tru]",
      "",
      "   ",
    ];
    for (const text of texts) for (const maxChars of LIMITS) expectSameAsOracle(text, maxChars);
    // Keys JSON.parse moves: the same where they are read (here, all of the text).
    const moved = [
      '{"error":{"code":"ORDER_NOT_FOUND","code":"NOPE"}}',
      '{"error":{"code":"ORDER_NOT_FOUND","code":7}}',
      '{"error":{"code":"ORDER_NOT_FOUND"},"error":5}',
      '{"b":1,"2":2,"1":3,"a":{"z":1,"0":0}}',
      '{"a":1,"b":2,"a":3}',
    ];
    for (const text of moved) expectSameAsOracle(text, Number.MAX_SAFE_INTEGER);
  });

  it("writes a 400 KB page of a hundred orders as parsing it whole did", () => {
    const text = JSON.stringify(ordersPage(100));
    expect(text.length).toBeGreaterThan(390_000);
    // The length is past what is parsed whole: this is the text read.
    expect(redactedBody(text, 16_384)).toEqual(oracle(text, 16_384));
    expect(redactedBody(text, 8_192)).toEqual(oracle(text, 8_192));
    expect(redactedBody(JSON.stringify(ordersPage(100), null, 2), 16_384)).toEqual(
      oracle(JSON.stringify(ordersPage(100), null, 2), 16_384),
    );
  });

  it("reads a long body only as far as it keeps, and parses a short one whole", () => {
    const padding = "x".repeat(70_000);
    // Not JSON past what is kept: a long body is not read that far; a short one is.
    expect(redactedBody(`{"data":"${padding}"} trailing`, 100).text).toBe(
      `{"data":"${"x".repeat(91)}…[truncated]`,
    );
    const short = `{"data":"${"x".repeat(80)}"} trailing`;
    expect(redactedBody(short, 100).text).toBe(`[${short.length} characters, not JSON]`);
    // Not JSON where it is read: told as before.
    const broken = `{"data":[1,,"${padding}"]}`;
    expect(redactedBody(broken, 100).text).toBe(`[${broken.length} characters, not JSON]`);
    // A numeric key read is put first, as JSON.parse does.
    expect(redactedBody(`{"b":1,"2":"${padding}"}`, 20).text).toBe(`{"2":"${"x".repeat(14)}…[truncated]`);
    // An error code in what is read, and past it.
    expect(redactedBody(`{"error":{"code":"ORDER_NOT_FOUND"},"data":"${padding}"}`, 100).errorCode).toBe(
      "ORDER_NOT_FOUND",
    );
    expect(
      redactedBody(`{"data":"${padding}","error":{"code":"ORDER_NOT_FOUND"}}`, 100).errorCode,
    ).toBeNull();
    expect(redactedBody(`{"error":{"code":"ORDER_NOT_FOUND"}}`, 100).errorCode).toBe("ORDER_NOT_FOUND");
    expect(redactedBody(undefined, 100)).toEqual({ text: null, errorCode: null });
    expect(redactedBody("", 100)).toEqual({ text: null, errorCode: null });
  });
});

/** A page of orders like the settlement list answers (~3.9 KB each), some fields redacted. */
function ordersPage(count: number) {
  const hex = (seed: number, length: number) => {
    let out = "";
    let state = seed;
    while (out.length < length) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      out += state.toString(16);
    }
    return `0x${out.slice(0, length)}`;
  };
  const orders = Array.from({ length: count }, (_, i) => ({
    id: `ord_${hex(i, 24).slice(2)}`,
    status: i % 3 === 0 ? "DELIVERED" : "SETTLING",
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
    amount: { usdc: `${1000 + i}.250000`, cop: `${4_100_000 + i * 17}.00`, rate: 4123.45 + i / 100 },
    fees: { serviceBps: 50, partnerBps: i % 7, forwardUsdc: "0.120000", total: 1.5e-3 * i },
    recipient: { name: "Ana Pérez", email: `ana${i}@example.com`, breBKey: `@ana${i}`, bank: "Bancolombia" },
    webhook: { url: "https://hooks.example.com/copm", signature: hex(i + 7, 64), secret: `whsec_${i}` },
    legs: Array.from({ length: 8 }, (_, leg) => ({
      kind: ["BURN", "MINT", "SWAP", "FORWARD", "PAYOUT", "RECEIPT", "REFUND", "RETURN"][leg],
      txHash: hex(i * 10 + leg, 64),
      from: hex(i * 20 + leg, 40),
      to: hex(i * 30 + leg, 40),
      amount: `${(i + 1) * (leg + 1)}.000001`,
      confirmations: leg * 3,
      note: leg === 4 ? `paid to ana${i}@example.com via copm_test_${i}` : null,
    })),
    timeline: Array.from({ length: 16 }, (_, step) => ({
      kind: `STEP_${step}`,
      at: new Date(Date.UTC(2025, 0, 1, 1, i, step)).toISOString(),
      detail: {
        block: 1_000_000 + i * 8 + step,
        ok: step % 2 === 0,
        code: step === 3 ? "123456" : undefined,
      },
    })),
  }));
  return { data: orders, nextCursor: hex(count, 32), hasMore: true };
}
