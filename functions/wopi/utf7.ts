/**
 * UTF-7 (RFC 2152), which WOPI uses for file names in headers (X-WOPI-SuggestedTarget, X-WOPI-RelativeTarget,
 * X-WOPI-RequestedName, X-WOPI-ValidRelativeTarget): ASCII as is, anything else as "+<modified base64 of
 * UTF-16BE>-", and "+-" for a plus sign.
 */

const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

export function decodeUtf7(s: string): string {
  return s.replace(/\+([A-Za-z0-9+/]*)-?/g, (_, chunk: string) => {
    if (chunk === "") return "+";
    let bits = 0;
    let value = 0;
    const units: number[] = [];
    for (const ch of chunk) {
      value = (value << 6) | b64.indexOf(ch);
      bits += 6;
      if (bits >= 16) {
        bits -= 16;
        units.push((value >> bits) & 0xffff);
      }
    }
    return String.fromCharCode(...units);
  });
}

const direct = /[A-Za-z0-9'(),./:? \-!"#$%&*;<=>@[\]^_`{|}]/;

export function encodeUtf7(s: string): string {
  let out = "";
  let run = "";
  const flush = () => {
    if (!run) return;
    let bits = 0;
    let value = 0;
    let enc = "";
    for (let i = 0; i < run.length; i++) {
      value = (value << 16) | run.charCodeAt(i);
      bits += 16;
      while (bits >= 6) {
        bits -= 6;
        enc += b64[(value >> bits) & 63];
      }
      value &= (1 << bits) - 1;
    }
    if (bits > 0) enc += b64[(value << (6 - bits)) & 63];
    out += `+${enc}-`;
    run = "";
  };
  for (const ch of s) {
    if (ch === "+") {
      flush();
      out += "+-";
    } else if (direct.test(ch)) {
      flush();
      out += ch;
    } else run += ch;
  }
  flush();
  return out;
}
