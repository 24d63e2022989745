import { describe, expect, it } from "vitest";
import { appPolicy, mediaOrigin } from "../../functions/middleware/security-headers";
import { admin, mkGroup, uniq, VIRTUAL_ROOT } from "./fixtures";
import { api, login } from "./helpers";
import { concrete, operations, randomLinkId } from "./openapi-walk";
import { createAsset, uploadFile } from "./uploads.helpers";

/**
 * Every answer of the Worker carries the security headers (docs/decisions/022): each operation of the
 * OpenAPI document, successes and errors, and every page of app/routes/, whose inline scripts all carry
 * the request's CSP nonce.
 */

function expectCommonHeaders(res: Response, what: string) {
  expect(res.headers.get("X-Content-Type-Options"), what).toBe("nosniff");
  expect(res.headers.get("Referrer-Policy"), what).toMatch(/^(strict-origin-when-cross-origin|no-referrer|same-origin)$/);
  expect(res.headers.get("Strict-Transport-Security"), `${what}: no HSTS over plain http`).toBeNull();
}

function expectApiHeaders(res: Response, what: string, withBearer: boolean) {
  expectCommonHeaders(res, what);
  const type = res.headers.get("Content-Type") ?? "";
  const csp = res.headers.get("Content-Security-Policy") ?? "";
  if (type === "" || /json|html/.test(type)) {
    expect(csp, what).toContain("frame-ancestors 'none'");
    expect(csp, what).toContain("default-src 'none'");
  } else {
    // A stored file's bytes: their own policy (sandboxed), never an app policy.
    expect(csp, what).not.toContain("script-src 'self'");
  }
  if (withBearer) expect(res.headers.get("Cache-Control"), what).toBe("no-store");
}

describe("every operation of the OpenAPI document", () => {
  it("answers with the headers, with and without a bearer, errors included", async () => {
    const bearer = await admin();
    const { res, ops } = await operations(bearer);
    expectApiHeaders(res, "GET /api/openapi.json", true);
    expect(ops.length).toBeGreaterThan(60);
    const statuses = new Set<number>();
    for (const op of ops) {
      // Logout would end the admin's session for the rest of the walk; it is checked on its own below.
      if (op.path === "/api/auth/logout") continue;
      const url = concrete(op.path);
      const body = op.method === "GET" || op.method === "HEAD" ? undefined : "{}";
      const headers = body ? { "Content-Type": "application/json" } : undefined;
      const what = `${op.method} ${url}`;
      const signed = await api(url, { method: op.method, bearer, body, headers, redirect: "manual" });
      statuses.add(signed.status);
      expectApiHeaders(signed, `${what} (bearer)`, true);
      await signed.arrayBuffer();
      const anonymous = await api(url, { method: op.method, body, headers, redirect: "manual" });
      statuses.add(anonymous.status);
      expectApiHeaders(anonymous, `${what} (no bearer)`, false);
      await anonymous.arrayBuffer();
    }
    // Successes and the usual errors were all among them.
    for (const status of [200, 400, 401, 404]) expect(statuses).toContain(status);
  }, 300_000);

  it("logout and sign-in answers (which hand out a bearer) are never stored", async () => {
    const session = await login();
    for (const res of [
      await api("/api/auth/refresh", { cookie: session.cookie }),
      await api("/api/auth/logout", { cookie: session.cookie }),
    ]) {
      expectApiHeaders(res, res.url, false);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
    }
    const signIn = await api("/api/auth/login", { method: "POST", json: { user: "admin", passwd: "admin-test-password" } });
    expect(signIn.headers.get("Cache-Control")).toBe("no-store");
  });

  it("an unknown API path answers 404 with the headers", async () => {
    const res = await api("/api/no-such-call", { bearer: await admin() });
    expect(res.status).toBe(404);
    expectApiHeaders(res, "GET /api/no-such-call", true);
  });

  it("adds HSTS over https only", async () => {
    const res = await api("/api/health");
    expect(res.headers.get("Strict-Transport-Security")).toBeNull();
    const secure = await api("https://mam.test/api/health");
    expect(secure.headers.get("Strict-Transport-Security")).toBe("max-age=31536000");
    const page = await api("https://mam.test/login");
    expect(page.headers.get("Strict-Transport-Security")).toBe("max-age=31536000");
  });

  it("the subtree answer, gzip as it is held, says no-store too", async () => {
    const bearer = await admin();
    const group = await mkGroup(VIRTUAL_ROOT);
    const res = await api(`/api/group/subtree/${group}`, { bearer, headers: { "Accept-Encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(Array.isArray(await res.json())).toBe(true);
  });
});

/** app/routes/ file names (Remix flat routes) → a URL of that route with random ids. */
function appRoutePaths(): string[] {
  // Only the names: the glob is lazy, and no module is loaded.
  const files = Object.keys(import.meta.glob("../../app/routes/*.tsx")).map((f) => f.split("/").pop()!);
  const paths = files.map((file) => {
    const segments = file
      .replace(/\.tsx$/, "")
      .split(".")
      .filter((s) => !s.startsWith("_"))
      .map((s) =>
        s === "$" ? "no/such/page" : s === "$id" && file.startsWith("sl.") ? randomLinkId() : /^\(?\$/.test(s) ? crypto.randomUUID() : s,
      );
    return `/${segments.join("/")}`;
  });
  return [...new Set(paths)];
}

/** The nonce of the page's policy, and every <script> tag of the HTML. */
function scriptsOf(html: string) {
  return [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
}

function expectPageHeaders(res: Response, html: string, what: string) {
  expectCommonHeaders(res, what);
  const csp = res.headers.get("Content-Security-Policy") ?? "";
  const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce, `${what}: ${csp}`).toBeTruthy();
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("object-src 'none'");
  expect(csp, what).not.toContain("'unsafe-inline' 'nonce");
  expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  for (const tag of scriptsOf(html)) {
    // A script either loads a file of the app or carries this request's nonce.
    if (!/\bsrc=/.test(tag)) expect(tag, what).toContain(`nonce="${nonce}"`);
  }
  return nonce!;
}

describe("every page of app/routes/", () => {
  const paths = appRoutePaths();

  it("lists the screens it walks", () => {
    expect(paths).toEqual(expect.arrayContaining(["/", "/login", "/mam", "/admin", "/jobs", "/search"]));
    expect(paths.length).toBeGreaterThan(20);
  });

  it("answers with the app's policy and a fresh nonce on every inline script, signed in or not", async () => {
    const session = await login();
    const pageCookie = `mam_page=${session.bearer}`;
    const nonces = new Set<string>();
    for (const path of paths) {
      for (const cookie of [undefined, pageCookie]) {
        const res = await api(path, { cookie });
        const html = await res.text();
        const what = `${path}${cookie ? " (page session)" : ""} → ${res.status}`;
        expect(res.status, what).toBeLessThan(500);
        expect(res.headers.get("Content-Type"), what).toContain("text/html");
        nonces.add(expectPageHeaders(res, html, what));
        if (path.startsWith("/sl/")) {
          expect(res.headers.get("Referrer-Policy"), what).toBe("no-referrer");
        } else if (path.startsWith("/review/")) {
          // A review link's page: its address is the key, so it goes to no other site, and nothing keeps the page.
          expect(res.headers.get("Referrer-Policy"), what).toBe("same-origin");
          expect(res.headers.get("Cache-Control"), what).toContain("no-store");
        } else {
          expect(res.headers.get("Referrer-Policy"), what).toBe("strict-origin-when-cross-origin");
          expect(res.headers.get("Cache-Control"), what).toBe("no-store");
        }
      }
    }
    expect(nonces.size).toBe(paths.length * 2);
  }, 180_000);

  it("a page rendered with the user's data (the first page of a group) has inline scripts only with the nonce, and no-store", async () => {
    const session = await login();
    const name = uniq("Видна-на-сервере");
    await mkGroup(VIRTUAL_ROOT, name);
    const res = await api("/mam", { cookie: `mam_page=${session.bearer}` });
    const html = await res.text();
    expect(html).toContain(name);
    expect(scriptsOf(html).filter((t) => !/\bsrc=/.test(t)).length).toBeGreaterThan(0);
    expectPageHeaders(res, html, "/mam");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });

  it("the share page: no script at all, frame-ancestors 'none', no-referrer, its own public cache kept", async () => {
    const bearer = await admin();
    const group = await mkGroup(VIRTUAL_ROOT);
    const { asset_id } = await createAsset(bearer, { in_group: group, asset_name: "clip.txt", asset_mime: "text/plain" });
    await uploadFile(bearer, asset_id, new TextEncoder().encode("x"), { name: "clip.txt", mime: "text/plain" });
    const id = await (await api(`/api/sl/create/${asset_id}`, { method: "POST", json: { acl: ["view"] }, bearer })).text();
    for (let i = 0; i < 2; i++) {
      // The second answer may come from the edge cache: it gets its headers all the same.
      const res = await api(`/sl/${id}`);
      const html = await res.text();
      expect(res.status).toBe(200);
      expect(scriptsOf(html)).toEqual([]);
      expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");
      expect(html).toContain('<meta name="referrer" content="no-referrer"/>');
      expect(res.headers.get("Cache-Control")).toBe("public, max-age=60, s-maxage=60");
    }
  });
});

describe("a separate media origin", () => {
  it("is allowed for images, media, frames and reads of stored bytes, nothing else", () => {
    const media = mediaOrigin({ MEDIA_ORIGIN: "https://media.example/path" });
    expect(media).toBe("https://media.example");
    const policy = appPolicy("n0nce", media);
    for (const directive of ["img-src", "media-src", "frame-src", "connect-src"]) {
      expect(policy).toMatch(new RegExp(`${directive} 'self' https://media\\.example`));
    }
    expect(policy).toContain("script-src 'self' 'nonce-n0nce';");
    expect(mediaOrigin({})).toBeNull();
    expect(mediaOrigin({ MEDIA_ORIGIN: "not a url" })).toBeNull();
  });
});
