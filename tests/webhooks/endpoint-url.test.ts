import { describe, expect, it } from "vitest";
import { checkWebhookUrl, hostAddressProblem, WEBHOOK_URL_MAX_LENGTH } from "../../lib/webhooks/endpoint-url";
import { runtimeHostResolver } from "../../lib/webhooks/host-resolver";

type Mode = "live" | "mock";

// [url, mode, a substring the reason must contain]
const hostile: [string, Mode, string][] = [
  // scheme
  ["http://hooks.example.com/copm", "live", "must use https"],
  ["http://hooks.example.com/copm", "mock", "must use https"],
  ["ftp://hooks.example.com/copm", "live", "must use https"],
  ["file:///etc/passwd", "mock", "must use https"],
  ["javascript:alert(1)", "live", "must use https"],
  ["data:text/plain,hello", "live", "must use https"],
  ["gopher://hooks.example.com:70/_x", "mock", "must use https"],
  ["ws://hooks.example.com/socket", "live", "must use https"],
  ["ftp://localhost/x", "mock", "must use https"],
  // credentials and fragment
  ["https://user:pw@example.com/hook", "live", "must not carry credentials"],
  ["https://user@example.com/hook", "live", "must not carry credentials"],
  ["https://:pw@example.com/hook", "mock", "must not carry credentials"],
  ["http://user:pw@localhost:4000/hook", "mock", "must not carry credentials"],
  ["https://example.com/hook#frag", "live", "must not carry a fragment"],
  ["https://example.com/hook#", "live", "must not carry a fragment"],
  // IPv4 literals, in the forms the parser normalizes
  ["https://127.0.0.1/x", "live", "IP address (loopback)"],
  ["https://2130706433/x", "live", "IP address (loopback)"],
  ["https://0x7f000001/x", "live", "IP address (loopback)"],
  ["https://0177.0.0.1/x", "live", "IP address (loopback)"],
  ["https://127.1/x", "live", "IP address (loopback)"],
  ["https://127%2E0%2E0%2E1/x", "live", "IP address (loopback)"],
  ["https://127.0.0.2/x", "mock", "IP address (loopback)"],
  ["https://10.0.0.1/x", "live", "IP address (private)"],
  ["https://172.16.0.1/x", "mock", "IP address (private)"],
  ["https://172.31.255.255/x", "live", "IP address (private)"],
  ["https://192.168.1.1/x", "live", "IP address (private)"],
  ["https://169.254.169.254/latest/meta-data/", "live", "IP address (cloud metadata)"],
  ["https://169.254.1.1/x", "live", "IP address (link-local)"],
  ["https://100.64.0.1/x", "live", "IP address (carrier-grade NAT)"],
  ["https://0.0.0.0/x", "mock", "IP address (unspecified)"],
  ["https://8.8.8.8/x", "live", "must not be an IP address"],
  // IPv6 literals
  ["https://[::1]/x", "mock", "IP address (loopback)"],
  ["https://[::]/x", "live", "IP address (unspecified)"],
  ["https://[fe80::1]/x", "live", "IP address (link-local)"],
  ["https://[fd00::1]/x", "live", "IP address (unique-local)"],
  ["https://[::ffff:127.0.0.1]/x", "mock", "IP address (loopback)"],
  ["https://[::ffff:a9fe:a9fe]/x", "live", "IP address (cloud metadata)"],
  ["https://[64:ff9b::10.0.0.1]/x", "live", "IP address (private)"],
  ["https://[fd00:ec2::254]/latest/meta-data/", "live", "IP address (cloud metadata)"],
  ["https://[2001:4860:4860::8888]/x", "live", "must not be an IP address"],
  // private and internal names
  ["https://localhost/x", "live", "private or internal host"],
  ["https://localhost./x", "live", "private or internal host"],
  ["https://localhost./x", "mock", "private or internal host"],
  ["https://foo.localhost/x", "mock", "private or internal host"],
  ["https://LocalHost/x", "live", "private or internal host"],
  ["https://intranet/hook", "live", "private or internal host"],
  ["https://billing.internal/hook", "live", "private or internal host"],
  ["https://printer.local/hook", "live", "private or internal host"],
  ["https://box.localdomain/hook", "live", "private or internal host"],
  ["https://router.home.arpa/hook", "live", "private or internal host"],
  ["https://1.0.0.127.in-addr.arpa/hook", "live", "private or internal host"],
  ["https://erp.corp/hook", "live", "private or internal host"],
  ["https://nas.lan/hook", "live", "private or internal host"],
  ["https://metadata.google.internal/computeMetadata/v1/", "live", "cloud metadata host"],
  ["https://metadata/computeMetadata/v1/", "live", "cloud metadata host"],
  ["https://instance-data/latest/", "live", "cloud metadata host"],
  ["https://example..com/x", "live", "does not name a valid host"],
  // cluster and service-discovery names (issue 20, finding 6)
  ["https://kubernetes.default.svc/api", "live", "private or internal host"],
  ["https://kubernetes.default.svc.cluster.local/api", "live", "private or internal host"],
  ["https://redis.cache.svc.cluster/x", "live", "private or internal host"],
  ["https://vault.service.consul/v1/secret", "live", "private or internal host"],
  ["https://vault.service.consul:8200/v1/secret", "mock", "private or internal host"],
  ["https://hooks.example.test/x", "live", "private or internal host"],
  ["https://hooks.partner.invalid/x", "live", "private or internal host"],
  ["https://router.home/x", "live", "private or internal host"],
  // live mode: https on port 443 only (issue 20, finding 5)
  ["https://example.com:8443/x?y=1", "live", "must use port 443"],
  ["https://hooks.example.com:22/x", "live", "must use port 443"],
  ["https://hooks.example.com:6379/x", "live", "must use port 443"],
  // names that embed an address (DNS rebinding helpers)
  ["https://127.0.0.1.nip.io/x", "live", "embeds an IP address"],
  ["https://10.0.0.1.sslip.io/x", "mock", "embeds an IP address"],
  ["https://127-0-0-1.sslip.io/x", "live", "embeds an IP address"],
  ["https://169-254-169-254.sslip.io/x", "live", "embeds an IP address"],
  ["https://169-254-169-254.nip.io/x", "live", "embeds an IP address"],
  ["https://7f000001.nip.io/x", "live", "embeds an IP address"],
  ["https://app.nip.io/x", "live", "embeds an IP address"],
  ["https://xip.io/x", "live", "embeds an IP address"],
  ["https://anything.localtest.me/x", "live", "embeds an IP address"],
  ["https://lvh.me/x", "live", "embeds an IP address"],
  ["https://app.traefik.me/x", "live", "embeds an IP address"],
  ["https://10.1.2.3.rebind.example.com/x", "live", "embeds an IP address"],
  ["https://c0a80001.rebind.example.com/x", "live", "embeds an IP address"],
  // shape
  [`https://example.com/${"a".repeat(WEBHOOK_URL_MAX_LENGTH)}`, "live", "is longer than 2048 characters"],
  [" https://example.com/hook", "live", "surrounding whitespace"],
  ["https://example.com/hook\n", "live", "surrounding whitespace"],
  ["https://exam\tple.com/hook", "mock", "control characters"],
  ["\u0000https://example.com/hook", "live", "control characters"],
  ["", "live", "is not an absolute URL"],
  ["/webhooks/copm", "live", "is not an absolute URL"],
  ["hooks.example.com/copm", "live", "is not an absolute URL"],
  ["https://", "live", "is not an absolute URL"],
];

// [url, mode, normalized url]
const allowed: [string, Mode, string][] = [
  ["https://hooks.example.com/copm", "live", "https://hooks.example.com/copm"],
  ["https://hooks.example.com/copm", "mock", "https://hooks.example.com/copm"],
  ["https://example.com:8443/x?y=1", "mock", "https://example.com:8443/x?y=1"],
  ["HTTPS://Hooks.Example.COM:443/copm", "live", "https://hooks.example.com/copm"],
  ["https://hooks.example.com.", "live", "https://hooks.example.com./"],
  ["https://deadbeef.example.com/x", "live", "https://deadbeef.example.com/x"],
  ["https://v2-2024-01-15.example.com/x", "live", "https://v2-2024-01-15.example.com/x"],
  ["http://localhost:4000/hook", "mock", "http://localhost:4000/hook"],
  ["http://127.0.0.1:9999/x", "mock", "http://127.0.0.1:9999/x"],
  ["https://localhost/x", "mock", "https://localhost/x"],
];

describe("checkWebhookUrl", () => {
  it("has a table of at least 30 hostile URLs", () => {
    expect(hostile.length).toBeGreaterThanOrEqual(30);
  });

  it.each(hostile)("refuses %j in %s mode", (url, mode, reason) => {
    const check = checkWebhookUrl(url, mode);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toContain(reason);
  });

  it.each(allowed)("allows %j in %s mode", (url, mode, normalized) => {
    expect(checkWebhookUrl(url, mode)).toEqual({ ok: true, url: normalized });
  });

  it("refuses local receivers in live mode", () => {
    expect(checkWebhookUrl("http://localhost:4000/hook", "live").ok).toBe(false);
    expect(checkWebhookUrl("http://127.0.0.1/x", "live").ok).toBe(false);
    expect(checkWebhookUrl("https://localhost/x", "live").ok).toBe(false);
    expect(checkWebhookUrl("https://127.0.0.1:9999/x", "live").ok).toBe(false);
  });

  it("never echoes the host or a credential in a reason", () => {
    const secretive: [string, Mode][] = [
      ["https://partner-admin:s3cr3t-Pa55@hooks.example.com/copm", "live"],
      ["https://tok_live_4f9a8b@hooks.example.com/copm", "mock"],
      ["http://deploy:hunter2@localhost:4000/hook", "mock"],
    ];
    for (const [url, mode] of [...hostile.map(([u, m]): [string, Mode] => [u, m]), ...secretive]) {
      const check = checkWebhookUrl(url, mode);
      if (check.ok) throw new Error(`expected a refusal for ${url}`);
      const reason = check.reason.toLowerCase();
      if (!URL.canParse(url)) {
        if (url.trim().length > 3) expect(reason).not.toContain(url.trim().toLowerCase());
        continue;
      }
      const parsed = new URL(url);
      const secrets = [
        parsed.hostname,
        parsed.hostname.replace(/^\[|\]$/g, ""),
        parsed.username,
        parsed.password,
      ];
      // "metadata" is both a refused host and a word of the reason's own category.
      for (const secret of secrets.filter((s) => s.length > 0 && s !== "metadata")) {
        expect(reason).not.toContain(decodeURIComponent(secret).toLowerCase());
      }
    }
  });
});

describe("the addresses a webhook host resolves to (checked before each delivery)", () => {
  it("refuses private, loopback, link-local, reserved and multicast addresses, IPv4 and IPv6, and passes public ones", () => {
    const refused = [
      "10.1.2.3",
      "127.0.0.1",
      "169.254.169.254",
      "172.20.0.5",
      "192.168.0.10",
      "100.100.0.1",
      "0.0.0.0",
      "192.0.2.7",
      "198.18.0.1",
      "224.0.0.251",
      "255.255.255.255",
      "::1",
      "fd12:3456::1",
      "fe80::1",
      "::ffff:10.0.0.1",
      "ff02::1",
      "2001:db8::1",
      "fe80::1%eth0",
      "64:ff9b:1::a00:5",
      "::a00:5",
      "::ffff:0:a00:5",
      "fec0::1",
      "100::1",
      "2002:a00:5::1",
      "2001:0:a00:5::1",
    ];
    for (const address of refused) expect(hostAddressProblem(address), address).toBeDefined();
    for (const address of [
      "93.184.216.34",
      "1.1.1.1",
      "2606:4700:4700::1111",
      "2a00:1450:4001::200e",
      "2002:5db8:d822::1",
    ]) {
      expect(hostAddressProblem(address), address).toBeUndefined();
    }
  });

  it("resolves names with the runtime's own resolver, whose answer for localhost the check refuses", async () => {
    const addresses = await runtimeHostResolver("localhost");
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(hostAddressProblem(address)).toContain("loopback");
    await expect(runtimeHostResolver("no-such-host.invalid")).rejects.toThrow();
  });
});
