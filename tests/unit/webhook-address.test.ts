import { describe, expect, it } from "vitest";
import { ipv4Value, privateHost, privateUrlReason } from "../../functions/udwf/webhook";

/**
 * The address rule of automation webhooks as written in the URL (functions/udwf/webhook.ts): the check before the
 * public-only outbound service, which judges what names resolve to. Every notation of an internal address is refused.
 */
describe("webhook addresses", () => {
  const refused = [
    // loopback, however IPv4 is spelled (inet_aton forms: parts, decimal, octal, hex)
    "127.0.0.1",
    "127.1",
    "127.0.1",
    "2130706433",
    "0x7f000001",
    "0x7f.1",
    "0x7F.0.0.1",
    "0177.0.0.1",
    "017700000001",
    "127.255.255.254",
    // this network, private, CGNAT, link-local and cloud metadata, benchmark, multicast, reserved, broadcast
    "0.0.0.0",
    "0",
    "10.1.2.3",
    "012.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "100.64.0.1",
    "100.127.255.255",
    "169.254.169.254",
    "0xa9fea9fe",
    "2852039166",
    "198.18.0.1",
    "224.0.0.1",
    "240.0.0.1",
    "255.255.255.255",
    // IPv6: loopback, unspecified, mapped and compatible IPv4, NAT64, 6to4, Teredo, ULA, link-local, multicast
    "[::1]",
    "[::]",
    "[0:0:0:0:0:0:0:1]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "[0:0:0:0:0:ffff:a9fe:a9fe]",
    "[::ffff:10.0.0.1]",
    "[::127.0.0.1]",
    "[64:ff9b::7f00:1]",
    "[64:ff9b::169.254.169.254]",
    "[2002:7f00:1::]",
    "[2001::1]",
    "[fc00::1]",
    "[fd00:ec2::254]",
    "[fe80::1]",
    "[ff02::1]",
    // names that mean something only inside a network
    "localhost",
    "LOCALHOST",
    "localhost.",
    "api.localhost",
    "printer.local",
    "metadata.google.internal",
    "metadata",
    "instance-data",
    "intranet",
    "router.lan",
    "nas.home.arpa",
    "1.0.0.127.in-addr.arpa",
  ];
  // Not an address and not a name: URL refuses most; the host rule refuses them all.
  const malformed = ["256.1.1.1", "1.2.3.4.5", "4294967296", "08.1.1.1", "fe80::1%eth0", "[fe80::1%25eth0]"];

  const allowed = [
    "hooks.example.com",
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "[2606:4700:4700::1111]",
    "[2a00:1450::1]",
    "hooks.slack.com",
  ];

  it("refuses internal addresses in every notation, and the names of internal hosts", () => {
    for (const host of refused) {
      expect(privateUrlReason(`http://${host}/hook`, false), host).toContain("внутренней сети");
      expect(privateUrlReason(`https://${host}:8443/hook`, false), host).toContain("внутренней сети");
    }
  });

  it("refuses them as URL.hostname gives them and as written", () => {
    for (const host of [...refused, ...malformed]) expect(privateHost(host), host).toBe(true);
    for (const host of malformed) expect(privateUrlReason(`http://${host}/hook`, false), host).not.toBe(null);
    // A zone id is no URL at all: refused before any address rule.
    expect(privateUrlReason("http://[fe80::1%25eth0]/hook", false)).toBe("не адрес URL");
  });

  it("lets public addresses and names through", () => {
    for (const host of allowed) {
      expect(privateHost(host), host).toBe(false);
      expect(privateUrlReason(`https://${host}/hook`, false), host).toBe(null);
    }
  });

  it("reads IPv4 the way a resolver would", () => {
    expect(ipv4Value("127.1")).toBe(0x7f000001);
    expect(ipv4Value("0x7f.1")).toBe(0x7f000001);
    expect(ipv4Value("0177.0.0.1")).toBe(0x7f000001);
    expect(ipv4Value("2130706433")).toBe(0x7f000001);
    expect(ipv4Value("1.2.3")).toBe(0x01020003);
    expect(ipv4Value("1.256.1.1")).toBe(null);
    expect(ipv4Value("example.com")).toBe(null);
  });

  it("takes only http(s), no credentials in the URL, and everything with WEBHOOK_ALLOW_PRIVATE=true", () => {
    expect(privateUrlReason("ftp://hooks.example.com/x", false)).toBe("только http(s)-адрес");
    expect(privateUrlReason("file:///etc/passwd", true)).toBe("только http(s)-адрес");
    expect(privateUrlReason("not a url", false)).toBe("не адрес URL");
    expect(privateUrlReason("https://user:pw@hooks.example.com/x", false)).toContain("логином");
    expect(privateUrlReason("http://127.0.0.1:8080/x", true)).toBe(null);
  });
});
