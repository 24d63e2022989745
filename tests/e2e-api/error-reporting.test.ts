import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../bench/server.mjs";
import { servers } from "./runtime";

/**
 * Error reporting is switched by SENTRY_DSN (docs/decisions/044-metrics-logs-errors.md): without it the pages carry
 * no DSN and connect nowhere new; with it the Worker still serves, the browser gets the DSN through the public
 * allow-list (and nothing else of the environment), and the pages may connect to the DSN's origin.
 * Against `npm start`, whose Worker has the error reporter bundled as a deployment does: in the Workers test pool
 * its SDK went through vitest's module runner, 30 s of a runtime of its own (docs/decisions/060).
 */

const dsn = "https://publickey@o1.ingest.example.com/42";
const connectSrc = (res: Response) => /connect-src ([^;]*)/.exec(res.headers.get("Content-Security-Policy") ?? "")?.[1] ?? "";

describe("error reporting", () => {
  it("without a DSN: the page has no DSN and connects to no reporting origin", async () => {
    const page = await fetch(`${servers()[0].url}/login`);
    expect(page.status).toBe(200);
    expect(connectSrc(page)).not.toContain("ingest");
    expect(await page.text()).not.toContain("ingest.example.com");
  });

  describe("with a DSN", () => {
    let server: Awaited<ReturnType<typeof startServer>>;
    beforeAll(async () => {
      server = await startServer({ env: { SENTRY_DSN: dsn } });
    });
    afterAll(() => server?.stop());

    it("the API and the pages still serve; the page gets the DSN and may connect to its origin, and no secret", async () => {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      const page = await fetch(`${server.url}/login`);
      expect(page.status).toBe(200);
      expect(connectSrc(page)).toContain("https://o1.ingest.example.com");
      const html = await page.text();
      expect(html).toContain(dsn);
      const secret = /JWT_SECRET=(\S+)/.exec(readFileSync(path.join(server.dataDir, "secrets.env"), "utf8"))?.[1];
      expect(secret, "the server's JWT secret").toBeTruthy();
      expect(html).not.toContain(secret);
    });
  });
});
