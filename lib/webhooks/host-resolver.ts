import { promises as dns } from "node:dns";

/** The addresses a host name resolves to, as the runtime resolves them; throws when it does not resolve. */
export type HostResolver = (hostname: string) => Promise<string[]>;

/**
 * The runtime's own resolution: on Node the system resolver (`lookup`, the one `fetch` connects
 * through, /etc/hosts included); on Workers, where `lookup` is not implemented, A and AAAA records
 * over Cloudflare's DNS over HTTPS.
 */
export const runtimeHostResolver: HostResolver = async (hostname) => {
  try {
    return (await dns.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch (error) {
    if (!isNotImplemented(error)) throw error;
  }
  const [v4, v6] = await Promise.allSettled([dns.resolve4(hostname), dns.resolve6(hostname)]);
  const addresses = [v4, v6].flatMap((answer) => (answer.status === "fulfilled" ? answer.value : []));
  if (addresses.length === 0) throw new Error(`${hostname} does not resolve`);
  return addresses;
};

function isNotImplemented(error: unknown): boolean {
  return error instanceof Error && /not implemented/i.test(error.message);
}
