import { describe, expect, it } from "vitest";
import { clientUrl, parseDiscovery } from "../../functions/wopi/discovery";
import { maxProofAgeMs, proofPayload, proofValid, ticksOf, type ProofKeys } from "../../functions/wopi/proof";
import { decodeUtf7, encodeUtf7 } from "../../functions/wopi/utf7";
import { discoveryXml, proofKeyPair } from "../shared/wopi-proof";

const url = "https://mam.example/api/wopi/files/5b7f0e4e-8a8f-4a55-9a0b-6ad8b7c4e0d1?access_token=tok";

describe("WOPI proof keys", () => {
  it("lays out the signed bytes as the protocol states: lengths big-endian, the URL upper-cased, ticks as int64", () => {
    const bytes = proofPayload("ab", "http://x/y?z", 0x0102030405060708n);
    const view = new DataView(bytes.buffer);
    expect(view.getInt32(0)).toBe(2);
    expect(new TextDecoder().decode(bytes.subarray(4, 6))).toBe("ab");
    expect(view.getInt32(6)).toBe(12);
    expect(new TextDecoder().decode(bytes.subarray(10, 22))).toBe("HTTP://X/Y?Z");
    expect(view.getInt32(22)).toBe(8);
    expect(view.getBigInt64(26)).toBe(0x0102030405060708n);
    // 1970-01-01 in .NET ticks.
    expect(ticksOf(0)).toBe(621355968000000000n);
  });

  it("accepts the current key's proof, the old proof with the current key, the proof with the old key; nothing else", async () => {
    const [current, old, stranger] = await Promise.all([proofKeyPair(), proofKeyPair(), proofKeyPair()]);
    const keys: ProofKeys = { current, old };
    const now = Date.now();
    const a = await current.sign("tok", url, now);
    const b = await old.sign("tok", url, now);
    const c = await stranger.sign("tok", url, now);
    const check = (proof: string | null, proofOld: string | null, timestamp = a.timestamp, u = url, k: ProofKeys = keys) =>
      proofValid(k, { accessToken: "tok", url: u, timestamp, proof, proofOld }, now);
    expect(await check(a.proof, null)).toBe(true);
    expect(await check(c.proof, a.proof)).toBe(true);
    expect(await check(b.proof, c.proof)).toBe(true);
    expect(await check(c.proof, c.proof)).toBe(false);
    expect(await check(b.proof, null, a.timestamp, url, { current, old: undefined })).toBe(false);
    expect(await check(a.proof, null, a.timestamp, url.replace("tok", "tok2"))).toBe(false);
    expect(await check(null, null)).toBe(false);
    expect(await check("not base64!", null)).toBe(false);
    // The signed timestamp matters, and a proof older than 20 minutes is refused.
    expect(await check(a.proof, null, (BigInt(a.timestamp) + 1n).toString())).toBe(false);
    const stale = await current.sign("tok", url, now - maxProofAgeMs - 1000);
    expect(await check(stale.proof, null, stale.timestamp)).toBe(false);
  });
});

describe("WOPI discovery", () => {
  it("maps extension and action to urlsrc without placeholders, and reads the proof keys", async () => {
    const key = await proofKeyPair();
    const d = parseDiscovery(discoveryXml("http://office:9980", key));
    expect(d.proofKeys?.current).toEqual({ modulus: key.modulus, exponent: key.exponent });
    const src = "https://mam.example/api/wopi/files/1";
    expect(clientUrl(d, "Договор.DOCX", true, src)).toBe(`http://office:9980/browser/abc/cool.html?WOPISrc=${encodeURIComponent(src)}`);
    expect(clientUrl(d, "a.pdf", true, src)).toBe(`http://office:9980/browser/abc/cool.html?WOPISrc=${encodeURIComponent(src)}`);
    expect(clientUrl(d, "a.txt", true, src)).toBeNull();
    expect(parseDiscovery(discoveryXml("http://office:9980")).proofKeys).toBeNull();
  });
});

describe("UTF-7 names", () => {
  it("round-trips Cyrillic, plus signs and ASCII, and decodes what clients send", () => {
    for (const s of ["Отчёт за 2026.docx", "a+b.txt", "plain.md", "日本語"]) expect(decodeUtf7(encodeUtf7(s))).toBe(s);
    expect(encodeUtf7("a+b")).toBe("a+-b");
    expect(decodeUtf7("Hi Mom -+Jjo--!")).toBe("Hi Mom -\u263a-!");
  });
});
