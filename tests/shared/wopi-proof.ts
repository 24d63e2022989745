import { proofPayload, ticksOf } from "../../functions/wopi/proof";

/** A WOPI client's proof keys for tests: an RSA pair, its discovery attributes, and signing as the client does. */

const b64 = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const fromUrl = (s: string) => s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4);

export async function proofKeyPair() {
  const pair = (await crypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
  return {
    /** Base64 modulus and exponent, as discovery's <proof-key> carries them. */
    modulus: fromUrl(jwk.n!),
    exponent: fromUrl(jwk.e!),
    async sign(token: string, url: string, ms = Date.now()) {
      const ticks = ticksOf(ms);
      const sig = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", pair.privateKey, proofPayload(token, url, ticks) as BufferSource);
      return { proof: b64(sig), timestamp: ticks.toString() };
    },
  };
}

export type ProofKeyPair = Awaited<ReturnType<typeof proofKeyPair>>;

/** Discovery XML as Collabora publishes it (abridged): writer edits docx/odt, views pdf; the proof keys when given. */
export const discoveryXml = (client: string, current?: ProofKeyPair, old?: ProofKeyPair) => `<?xml version="1.0" encoding="utf-8"?>
<wopi-discovery>
  <net-zone name="external-http">
    <app name="writer">
      <action default="true" ext="docx" name="edit" urlsrc="${client}/browser/abc/cool.html?&lt;ui=UI_LLCC&amp;&gt;"/>
      <action ext="odt" name="edit" urlsrc="${client}/browser/abc/cool.html?"/>
      <action ext="pdf" name="view" urlsrc="${client}/browser/abc/cool.html?"/>
    </app>
  </net-zone>
  ${current ? `<proof-key value="x" modulus="${current.modulus}" exponent="${current.exponent}"${old ? ` oldvalue="y" oldmodulus="${old.modulus}" oldexponent="${old.exponent}"` : ""}/>` : ""}
</wopi-discovery>`;
