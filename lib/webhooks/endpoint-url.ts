/**
 * Judges a partner's webhook endpoint URL before it is stored or posted to. The rules guard against
 * server-side request forgery: a partner must not point the delivery worker at our own network, at a
 * cloud metadata service or at anything but a public web server. Live mode takes https on port 443
 * only; names built to resolve to private addresses, and names that only resolve inside a network,
 * are refused by their shape here, and before each delivery the name's addresses are resolved and
 * checked (`hostAddressProblem`). The parsed `URL` is the single source of truth, so what is judged
 * is exactly what will be fetched.
 */

export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

export const WEBHOOK_URL_MAX_LENGTH = 2048;

// Local receivers a developer runs beside the mock stack (127.0.0.1 spelled any other way is the same host).
const MOCK_LOCAL_HOSTS = new Set(["localhost", "127.0.0.1"]);

// Names that only resolve inside a network or describe an address: RFC 6761 and 6762 (localhost,
// local, test, invalid), RFC 9476 (alt), common private TLDs, "arpa" for home.arpa (RFC 8375) and the
// reverse-lookup zones, and the service-discovery zones of clusters: Kubernetes (svc, svc.cluster,
// cluster.local) and Consul (consul).
const INTERNAL_SUFFIXES = [
  "localhost",
  "local",
  "localdomain",
  "internal",
  "intranet",
  "lan",
  "corp",
  "home",
  "private",
  "arpa",
  "test",
  "invalid",
  "alt",
  "onion",
  "svc",
  "cluster",
  "consul",
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

  const localReceiver = isMockLocalReceiver(url.hostname, mode);
  if (url.protocol === "http:" && !localReceiver) return refuse("must use https");
  if (localReceiver) return { ok: true, url: url.href };
  // The parser drops the default port, so any port left is not 443.
  if (mode === "live" && url.port !== "") return refuse("must use port 443 (the default of https)");

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

/** Whether `hostname` is one of mock mode's local receivers, which are never resolved or checked. */
export function isMockLocalReceiver(hostname: string, mode: "live" | "mock"): boolean {
  return mode === "mock" && MOCK_LOCAL_HOSTS.has(hostname);
}

/**
 * Why a resolved address of a webhook host must not be connected to (private, loopback, link-local,
 * reserved, multicast…), or undefined for a public one. `address` is as a resolver answers it:
 * dotted IPv4, or IPv6 without brackets.
 */
export function hostAddressProblem(address: string): string | undefined {
  const quad = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  let category: string | undefined;
  if (quad) {
    category = ipv4Category(quad.slice(1).map(Number));
  } else {
    let host: string;
    try {
      host = new URL(`http://[${address}]/`).hostname;
    } catch {
      return "the host resolves to something that is not an IP address";
    }
    category = ipv6Category(ipv6Groups(host));
  }
  return category ? `the host resolves to a private or reserved address (${category})` : undefined;
}

function ipAddressReason(category: string | undefined): string {
  return category ? `must not be an IP address (${category})` : "must not be an IP address";
}

/** The special-purpose ranges of the IANA IPv4 registry that no public web server answers from. */
function ipv4Category([a = 0, b = 0, c = 0, d = 0]: number[]): string | undefined {
  if (a === 0) return "unspecified";
  if (a === 127) return "loopback";
  if (a === 169 && b === 254) return c === 169 && d === 254 ? "cloud metadata" : "link-local";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
  if (a === 100 && b >= 64 && b <= 127) return "carrier-grade NAT";
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return "reserved";
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return "reserved";
  if (a === 198 && (b === 18 || b === 19)) return "reserved";
  if (a >= 224 && a <= 239) return "multicast";
  if (a >= 240) return "reserved";
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
  if ((at(0) & 0xff00) === 0xff00) return "multicast";
  // 6to4 (2002::/16) carries an IPv4 address in its second and third groups.
  if (at(0) === 0x2002) return ipv4Category([at(1) >> 8, at(1) & 0xff, at(2) >> 8, at(2) & 0xff]);
  // Documentation (2001:db8::/32) and Teredo (2001::/32).
  if (at(0) === 0x2001 && (at(1) === 0x0db8 || at(1) === 0)) return "reserved";
  // Only global unicast (2000::/3) reaches a public web server: the rest (IPv4-compatible, local
  // NAT64 64:ff9b:1::/48, site-local fec0::/10, discard 100::/64…) is reserved or local.
  if ((at(0) & 0xe000) !== 0x2000) return "reserved";
  return undefined;
}
