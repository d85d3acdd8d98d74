/**
 * Judges a partner's webhook endpoint URL before it is stored or posted to. The rules guard against
 * server-side request forgery: a partner must not point the delivery worker at our own network, at a
 * cloud metadata service or at anything but a public web server. A Worker cannot resolve DNS here,
 * so names built to resolve to private addresses are refused by their shape; the parsed `URL` is the
 * single source of truth, so what is judged is exactly what will be fetched.
 */

export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

export const WEBHOOK_URL_MAX_LENGTH = 2048;

// Local receivers a developer runs beside the mock stack (127.0.0.1 spelled any other way is the same host).
const MOCK_LOCAL_HOSTS = new Set(["localhost", "127.0.0.1"]);

// Names that only resolve inside a network or describe an address: RFC 6761 and 6762, common private
// TLDs, and "arpa" for home.arpa (RFC 8375) and the reverse-lookup zones in-addr.arpa and ip6.arpa.
const INTERNAL_SUFFIXES = [
  "localhost",
  "local",
  "localdomain",
  "internal",
  "intranet",
  "lan",
  "corp",
  "arpa",
];

const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "instance-data",
  "instance-data.ec2.internal",
]);

// Wildcard DNS services that answer a name with the address spelled inside it (DNS rebinding helpers).
const IP_ECHO_DOMAINS = ["nip.io", "sslip.io", "xip.io", "localtest.me", "lvh.me", "traefik.me"];

// An IPv4 address spelled in a name, dotted or dashed ("127.0.0.1.example", "127-0-0-1.example").
const EMBEDDED_QUAD = /(?<!\d)\d{1,3}([.-])\d{1,3}\1\d{1,3}\1\d{1,3}(?!\d)/;
// An IPv4 address in hex ("7f000001"). Every private, loopback and link-local range has a digit in its
// hex form, so requiring one spares ordinary words such as "deadbeef".
const HEX_ADDRESS_LABEL = /^(?=[a-f]*\d)[0-9a-f]{8}$/;

const TOO_LONG = `is longer than ${WEBHOOK_URL_MAX_LENGTH} characters`;

export function checkWebhookUrl(raw: string, mode: "live" | "mock"): WebhookUrlCheck {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH) return refuse(TOO_LONG);
  // The parser silently drops surrounding whitespace and controls, and tabs or newlines anywhere, so
  // what we store would differ from what the partner sent: refuse rather than guess.
  if (raw !== raw.trim() || /\p{Cc}/u.test(raw)) {
    return refuse("must not contain control characters or surrounding whitespace");
  }

  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("is not an absolute URL");
  }
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH) return refuse(TOO_LONG);
  if (url.protocol !== "https:" && url.protocol !== "http:") return refuse("must use https");
  if (url.username !== "" || url.password !== "") return refuse("must not carry credentials");
  // An empty fragment ("…/#") leaves `hash` empty but still shows in `href`.
  if (url.href.includes("#")) return refuse("must not carry a fragment");

  const localReceiver = mode === "mock" && MOCK_LOCAL_HOSTS.has(url.hostname);
  if (url.protocol === "http:" && !localReceiver) return refuse("must use https");
  if (localReceiver) return { ok: true, url: url.href };

  const problem = hostProblem(url.hostname);
  return problem ? refuse(problem) : { ok: true, url: url.href };
}

function refuse(reason: string): WebhookUrlCheck {
  return { ok: false, reason };
}

/** `hostname` as the WHATWG parser leaves it: lower-case, IDNA-mapped, IPv4 dotted, IPv6 compressed. */
function hostProblem(hostname: string): string | undefined {
  if (hostname.startsWith("[")) return ipAddressReason(ipv6Category(ipv6Groups(hostname)));
  const quad = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(hostname);
  if (quad) return ipAddressReason(ipv4Category(quad.slice(1).map(Number)));

  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  const labels = name.split(".");
  if (labels.includes("")) return "does not name a valid host";
  if (METADATA_NAMES.has(name)) return "must not name a cloud metadata host";
  const under = (suffix: string) => name === suffix || name.endsWith(`.${suffix}`);
  if (labels.length < 2 || INTERNAL_SUFFIXES.some(under)) return "must not name a private or internal host";
  const embedsAddress = EMBEDDED_QUAD.test(name) || labels.some((l) => HEX_ADDRESS_LABEL.test(l));
  if (embedsAddress || IP_ECHO_DOMAINS.some(under)) return "must not name a host that embeds an IP address";
  return undefined;
}

function ipAddressReason(category: string | undefined): string {
  return category ? `must not be an IP address (${category})` : "must not be an IP address";
}

function ipv4Category([a = 0, b = 0, c = 0, d = 0]: number[]): string | undefined {
  if (a === 0) return "unspecified";
  if (a === 127) return "loopback";
  if (a === 169 && b === 254) return c === 169 && d === 254 ? "cloud metadata" : "link-local";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
  if (a === 100 && b >= 64 && b <= 127) return "carrier-grade NAT";
  return undefined;
}

/** The eight 16-bit groups of a serialized IPv6 literal such as "[fd00:ec2::254]". */
function ipv6Groups(literal: string): number[] {
  const parse = (part: string | undefined) =>
    part ? part.split(":").map((g) => Number.parseInt(g, 16)) : [];
  const [head, tail] = literal.slice(1, -1).split("::");
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...Array<number>(Math.max(0, 8 - left.length - right.length)).fill(0), ...right];
}

function ipv6Category(groups: number[]): string | undefined {
  const at = (i: number) => groups[i] ?? 0;
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zero(0, 8)) return "unspecified";
  if (zero(0, 7) && at(7) === 1) return "loopback";
  // IPv4-mapped (::ffff:0:0/96) and NAT64 (64:ff9b::/96) addresses reach the IPv4 host inside them.
  if ((zero(0, 5) && at(5) === 0xffff) || (at(0) === 0x64 && at(1) === 0xff9b && zero(2, 6))) {
    return ipv4Category([at(6) >> 8, at(6) & 0xff, at(7) >> 8, at(7) & 0xff]);
  }
  if (at(0) === 0xfd00 && at(1) === 0xec2 && zero(2, 7) && at(7) === 0x254) return "cloud metadata";
  if ((at(0) & 0xfe00) === 0xfc00) return "unique-local";
  if ((at(0) & 0xffc0) === 0xfe80) return "link-local";
  return undefined;
}
