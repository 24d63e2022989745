import { describe, expect, it } from "vitest";
import { addressKey } from "../../functions/lib/address";

/** The key a client address is throttled under (functions/lib/address.ts). */
describe("addressKey", () => {
  it("keeps an IPv4 address as it is", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
  });

  it("keys IPv6 by its /64, whatever the spelling", () => {
    const key = "2001:db8:aa:1::/64";
    for (const ip of [
      "2001:db8:aa:1::1",
      "2001:0DB8:00aa:0001:ffff:1:2:3",
      "[2001:db8:aa:1:abcd::9]",
      "2001:db8:aa:1::192.0.2.1",
      "2001:db8:aa:1::1%eth0",
    ]) {
      expect(addressKey(ip)).toBe(key);
    }
    expect(addressKey("2001:db8:aa:2::1")).not.toBe(key);
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("2001:db8::")).toBe("2001:db8:0:0::/64");
  });

  it("counts an IPv4-mapped address as the IPv4 address", () => {
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("0:0:0:0:0:ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("uses anything unparsable as it is", () => {
    expect(addressKey("local")).toBe("local");
    expect(addressKey("1::2::3")).toBe("1::2::3");
    expect(addressKey("zzzz::1")).toBe("zzzz::1");
  });
});
