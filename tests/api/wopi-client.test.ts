import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../functions/lib/env";
import { discoveryXml, proofKeyPair, type ProofKeyPair } from "../shared/wopi-proof";
import { api } from "./helpers";
import { desk, doc, testEnv, tokenFor, wopi, type Desk } from "./wopi.helpers";

/**
 * An office client configured (WOPI_CLIENT_URL): the Worker reads its discovery (only the client's HTTP is
 * faked, as env.WOPI_FETCH), hands out its urlsrc for the types it opens, and checks the proofs of its calls.
 */

let d: Desk;
let key: ProofKeyPair;
let served = 0;
let n = 0;

/** An environment with a client of its own address, so each test reads discovery afresh (it is cached per address). */
function withClient(xml: (base: string) => string | null): Env {
  const base = `http://office-${++n}.test:9980`;
  return {
    ...testEnv(),
    WOPI_CLIENT_URL: base,
    WOPI_FETCH: {
      fetch: async (input: RequestInfo | URL) => {
        served++;
        const u = new URL(String(input instanceof Request ? input.url : input));
        const body = u.pathname === "/hosting/discovery" ? xml(base) : null;
        return body === null ? new Response("no", { status: 404 }) : new Response(body, { headers: { "Content-Type": "text/xml" } });
      },
    } as never,
  };
}

beforeAll(async () => {
  d = await desk();
  key = await proofKeyPair();
}, 60_000);

describe("discovery", () => {
  it("gives the client's edit page for an office file, with WOPISrc; a text file stays with the built-in editor", async () => {
    const env = withClient((base) => discoveryXml(base));
    const id = await doc(d.group, "Договор.docx", "PK", "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    const t = await tokenFor(d.editor.bearer, id, env);
    expect(t.urlsrc).toBe(`${env.WOPI_CLIENT_URL}/browser/abc/cool.html?WOPISrc=${encodeURIComponent(t.wopi_src)}`);
    const txt = await doc(d.group, "заметка.txt", "x");
    expect((await tokenFor(d.editor.bearer, txt, env)).urlsrc).toBeNull();
    // Read once and cached.
    const before = served;
    await tokenFor(d.editor.bearer, id, env);
    expect(served).toBe(before);
  });

  it("a client that cannot be reached leaves every file to the built-in page", async () => {
    const env = withClient(() => null);
    const id = await doc(d.group, "b.docx", "PK", "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect((await tokenFor(d.editor.bearer, id, env)).urlsrc).toBeNull();
  });
});

describe("proof keys", () => {
  it("calls with the office client's token must carry a valid proof when discovery publishes keys", async () => {
    const env = withClient((base) => discoveryXml(base, key));
    const id = await doc(d.group, "c.docx", "PK", "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    const t = (await tokenFor(d.editor.bearer, id, env)).access_token;
    const url = `http://mam.test/api/wopi/files/${id}?access_token=${encodeURIComponent(t)}`;
    expect((await wopi(id, t, { env })).status).toBe(401);
    const good = await key.sign(t, url);
    const ok = await wopi(id, t, { env, headers: { "X-WOPI-Proof": good.proof, "X-WOPI-TimeStamp": good.timestamp } });
    expect(ok.status).toBe(200);
    const other = await (await proofKeyPair()).sign(t, url);
    expect((await wopi(id, t, { env, headers: { "X-WOPI-Proof": other.proof, "X-WOPI-TimeStamp": other.timestamp } })).status).toBe(401);
    const stale = await key.sign(t, url, Date.now() - 21 * 60_000);
    expect((await wopi(id, t, { env, headers: { "X-WOPI-Proof": stale.proof, "X-WOPI-TimeStamp": stale.timestamp } })).status).toBe(401);
  });

  it("the built-in editor's token (no office client for the type) needs no proof", async () => {
    const env = withClient((base) => discoveryXml(base, key));
    const id = await doc(d.group, "d.txt", "x");
    const t = (await tokenFor(d.editor.bearer, id, env)).access_token;
    expect((await wopi(id, t, { env })).status).toBe(200);
  });
});

describe("the editor page's policy", () => {
  it("lets the page frame the office server and post the token to it, and nothing more without one", async () => {
    const env = withClient((base) => discoveryXml(base));
    const policy = (await api("/editor/00000000-0000-4000-8000-000000000000", { env })).headers.get("Content-Security-Policy")!;
    const origin = new URL(env.WOPI_CLIENT_URL!).origin;
    expect(policy).toMatch(new RegExp(`frame-src [^;]*${origin.replace(/[.]/g, "\\.")}`));
    expect(policy).toMatch(new RegExp(`form-action 'self' ${origin.replace(/[.]/g, "\\.")}`));
    const plain = (await api("/editor/00000000-0000-4000-8000-000000000000")).headers.get("Content-Security-Policy")!;
    expect(plain).toContain("form-action 'self';");
    expect(plain).not.toContain("office-");
  });
});
