/**
 * The key a client address is throttled under: an IPv4 address as it is, an IPv6 address by its /64
 * (one customer's whole allocation, which hands out as many /128s as anyone wants). IPv4-mapped IPv6
 * counts as the IPv4 address. Anything unparsable (the "local" of a request without CF-Connecting-IP)
 * is used as it is.
 */
export function addressKey(ip: string): string {
  const a = ip
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  if (!a.includes(":")) return a;
  const mapped = /^(?:(?:0{1,4}:){5}|::(?:0{1,4}:)?)ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  if (mapped) return mapped[1];
  const halves = a.split("::");
  if (halves.length > 2) return a;
  const groups = (s: string | undefined) => (s ? s.split(":") : []);
  // An embedded IPv4 tail (…:1.2.3.4) takes two groups' room.
  const width = (gs: string[]) => gs.reduce((n, g) => n + (g.includes(".") ? 2 : 1), 0);
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const fill = halves.length === 2 ? 8 - width(head) - width(tail) : 0;
  const all = [...head, ...Array<string>(Math.max(fill, 0)).fill("0"), ...tail];
  const prefix = all.slice(0, 4);
  if (prefix.length < 4 || prefix.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return a;
  return `${prefix.map((g) => parseInt(g, 16).toString(16)).join(":")}::/64`;
}
