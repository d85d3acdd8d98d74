import ipaddr from "ipaddr.js";

/**
 * An address range as a key's allow list takes it: an IPv4 or IPv6 CIDR, or one address (its /32 or
 * /128), written back in its canonical form ("2001:db8::/32"), or undefined when it is none.
 */
export function canonicalRange(text: string): string | undefined {
  try {
    const [address, bits] = text.includes("/")
      ? ipaddr.parseCIDR(text)
      : [ipaddr.parse(text), ipaddr.parse(text).kind() === "ipv4" ? 32 : 128];
    // The network's own address: "10.1.2.3/8" means 10.0.0.0/8, said so.
    const network =
      address.kind() === "ipv4"
        ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${bits}`)
        : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits}`);
    return `${network.toString()}/${bits}`;
  } catch {
    return undefined;
  }
}

/**
 * Whether a client address is in any of the ranges. An IPv4 client seen as IPv4-mapped IPv6
 * (::ffff:203.0.113.7, as a dual-stack socket reports it) is matched as IPv4. An address that does
 * not parse is in none.
 */
export function inRanges(address: string, ranges: readonly string[]): boolean {
  let client: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    client = ipaddr.process(address);
  } catch {
    return false;
  }
  return ranges.some((range) => {
    try {
      const cidr = ipaddr.parseCIDR(range);
      return cidr[0].kind() === client.kind() && client.match(cidr);
    } catch {
      return false;
    }
  });
}
