import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../functions/lib/env";
import { api } from "./helpers";

/**
 * Error reporting is switched by SENTRY_DSN (docs/decisions/044-metrics-logs-errors.md): without it the pages carry
 * no DSN and connect nowhere new; with it the Worker still serves, the browser gets the DSN through the public
 * allow-list (and nothing else of the environment), and the pages may connect to the DSN's origin.
 */

const dsn = "https://publickey@o1.ingest.example.com/42";
const withDsn = { ...(env as unknown as Env), SENTRY_DSN: dsn };
const connectSrc = (res: Response) => /connect-src ([^;]*)/.exec(res.headers.get("Content-Security-Policy") ?? "")?.[1] ?? "";

describe("error reporting", () => {
  it("without a DSN: the page has no DSN and connects to no reporting origin", async () => {
    const page = await api("/login");
    expect(page.status).toBe(200);
    expect(connectSrc(page)).not.toContain("ingest");
    expect(await page.text()).not.toContain("ingest.example.com");
  });

  // The Worker loads Sentry's SDK on the first request with a DSN. Here that load goes through vitest's module
  // runner: 6 s alone, past the suite's 30 s on the busy machine of `npm test` (a deployed Worker has it bundled).
  it("with a DSN: the API and the pages still serve; the page gets the DSN and may connect to its origin", {
    timeout: 120_000,
  }, async () => {
    expect((await api("/api/health", { env: withDsn })).status).toBe(200);
    const page = await api("/login", { env: withDsn });
    expect(page.status).toBe(200);
    expect(connectSrc(page)).toContain("https://o1.ingest.example.com");
    const html = await page.text();
    expect(html).toContain(dsn);
    expect(html).not.toContain((env as unknown as Env).JWT_SECRET);
  });
});
