import { beforeAll, describe, expect, inject, it } from "vitest";
import { maxJsonBody } from "../../functions/lib/bodies";
import { apiCall, davCall, type Creds } from "./clients";

/**
 * Refusals are answered, not reset (docs/decisions/025-threat-model.md, "Request bodies"): against
 * `npm start`, with Node's own fetch, a request refused before its body is read still gets its status,
 * because the server reads what is left of a small body before it answers.
 */

const base = inject("davUrl");
const admin = inject("davAdmin");
const basic = (c: Creds) => `Basic ${Buffer.from(`${c.login}:${c.password}`).toString("base64")}`;

/** Sends every request and records each status, or the socket error a reset gives Node's fetch. */
async function outcomes(n: number, parallel: number, send: () => Promise<Response>) {
  const seen: string[] = [];
  for (let i = 0; i < n; i += parallel) {
    await Promise.all(
      Array.from({ length: Math.min(parallel, n - i) }, async () => {
        try {
          const res = await send();
          await res.arrayBuffer();
          seen.push(String(res.status));
        } catch (err) {
          const cause = (err as { cause?: { code?: string; message?: string } }).cause;
          seen.push(`error ${cause?.code ?? cause?.message ?? String(err)}`);
        }
      }),
    );
  }
  const counts: Record<string, number> = {};
  for (const s of seen) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

let reader: Creds;
let group: string;

beforeAll(async () => {
  const { bearer } = await apiCall(base, null, "/api/auth/login", { user: admin.login, passwd: admin.password });
  const stamp = Date.now();
  group = `refusals-${stamp}`;
  expect((await davCall(base, admin, "MKCOL", `/dav/${group}/`)).status).toBe(201);
  reader = { login: `refused-${stamp}`, password: "reader-password-1" };
  const user = await apiCall(base, bearer, "/api/user", {
    user_name: "Читатель",
    user_login: reader.login,
    user_passwd: reader.password,
    enabled: true,
  });
  const groupId = (await apiCall(base, bearer, `/api/group/entity-by-path?path=${encodeURIComponent(`/${group}`)}`)).el_id;
  await apiCall(base, bearer, "/api/user/acl", { subj: user.user_id, obj: groupId, acl: ["read", "download"] });
});

describe("refusals against npm start", () => {
  it("300 anonymous POSTs with a body all get their 401, none a reset", async () => {
    // Before the drain, about a third of these (one at a time, a few KB each) saw ECONNRESET instead of the 401.
    const body = JSON.stringify({ parent: "00000000-0000-0000-0000-000000000000", group_name: "x".repeat(4096) });
    const counts = await outcomes(300, 1, () =>
      fetch(`${base}/api/group`, { method: "POST", headers: { "Content-Type": "application/json" }, body }),
    );
    expect(counts).toEqual({ 401: 300 });
  });

  it("a WebDAV PUT of a few hundred KB without the right gets its 403 (and an anonymous one its 401)", async () => {
    const bytes = new Uint8Array(400 * 1024).fill(7);
    const refused = await outcomes(60, 10, () =>
      fetch(`${base}/dav/${group}/big.bin`, { method: "PUT", headers: { Authorization: basic(reader) }, body: bytes }),
    );
    expect(refused).toEqual({ 403: 60 });
    const anonymous = await outcomes(60, 10, () => fetch(`${base}/dav/${group}/big.bin`, { method: "PUT", body: bytes }));
    expect(anonymous).toEqual({ 401: 60 });
  });

  it("a body over its limit gets 413: a 2 MB PROPFIND and a JSON body past the API's size", async () => {
    const propfind = `<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>${" ".repeat(2 * 1024 * 1024)}`;
    const dav = await outcomes(5, 1, () =>
      fetch(`${base}/dav/${group}/`, { method: "PROPFIND", headers: { Authorization: basic(admin), Depth: "0" }, body: propfind }),
    );
    expect(dav).toEqual({ 413: 5 });
    const { bearer } = await apiCall(base, null, "/api/auth/login", { user: admin.login, passwd: admin.password });
    const json = JSON.stringify({ csv: "a".repeat(maxJsonBody), dry_run: true });
    const api = await outcomes(3, 1, () =>
      fetch(`${base}/api/fields/import-csv/00000000-0000-0000-0000-000000000000`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer}` },
        body: json,
      }),
    );
    expect(api).toEqual({ 413: 3 });
  });
});
