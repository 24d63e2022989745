import { describe, expect, it } from "vitest";
import { servers } from "./runtime";

/**
 * How `npm start` serves the build's static files (public/_headers, read by Workers static assets). The scripts and
 * styles under /assets/ are named by a hash of their content, so a browser may keep them for good and never ask
 * again; the files whose names stay the same across releases (the service worker, version.json that tells an open
 * page a new release is out) must be asked for again each time, or a page would keep running an old release.
 * And a page's scripts come in a few dozen files, not a hundred: each request costs the browser and the server
 * more than its bytes (vite.config.ts, docs/decisions/060).
 */
const scriptsOf = (html: string) => new Set(html.match(/\/assets\/[\w.-]+\.js/g) ?? []);

describe.each(servers())("on $store", ({ url }) => {
  it("a hashed script of the page is kept for a year without revalidation; sw.js and version.json are revalidated", async () => {
    const page = await (await fetch(`${url}/login`)).text();
    const script = /\/assets\/[\w.-]+\.js/.exec(page)?.[0];
    expect(script, "the sign-in page imports a script of the build").toBeTruthy();

    const asset = await fetch(`${url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    // The headers every static file gets still come with it.
    expect(asset.headers.get("X-Content-Type-Options")).toBe("nosniff");

    for (const file of ["/sw.js", "/version.json"]) {
      const res = await fetch(`${url}${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get("Cache-Control"), file).not.toContain("immutable");
      expect(res.headers.get("Cache-Control"), file).toContain("max-age=0");
    }
  });

  it("the sign-in page and the group screen each import at most 40 script files", async () => {
    for (const path of ["/login", "/mam"]) {
      const res = await fetch(`${url}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(200);
      const scripts = scriptsOf(await res.text());
      expect(scripts.size, `${path} imports ${[...scripts].join(" ")}`).toBeGreaterThan(0);
      expect(scripts.size, `${path} imports ${[...scripts].join(" ")}`).toBeLessThanOrEqual(40);
    }
  });
});
