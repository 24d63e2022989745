import parsePrometheusTextFormat, { type ParsedFamily } from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";
import { admin, call, issueToken, mkPerson } from "./fixtures";
import { mkMediaAsset, mkTask } from "./tasks.helpers";

/** GET /api/metrics (docs/decisions/044-metrics-logs-errors.md): Prometheus text that moves with the traffic. */

async function scrape(bearer?: string): Promise<ParsedFamily[]> {
  const r = await call("/api/metrics", { bearer: bearer ?? (await admin()) });
  expect(r.status).toBe(200);
  return parsePrometheusTextFormat(r.text);
}

const family = (families: ParsedFamily[], name: string) => {
  const f = families.find((x) => x.name === name);
  if (!f) throw new Error(`no ${name} in the scrape`);
  return f;
};

/** The value of the sample whose labels include `labels` (0 when there is none yet: a counter not yet seen). */
const value = (families: ParsedFamily[], name: string, labels: Record<string, string> = {}) => {
  const m = family(families, name).metrics.find((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v));
  return Number(m?.value ?? m?.count ?? 0);
};

describe("GET /api/metrics", () => {
  it("answers parseable Prometheus text with every family declared", async () => {
    const r = await call("/api/metrics", { bearer: await admin() });
    expect(r.status).toBe(200);
    const families = parsePrometheusTextFormat(r.text);
    const names = families.map((f) => f.name);
    for (const n of [
      "mam_http_requests_total",
      "mam_http_request_duration_seconds",
      "mam_signin_failures_total",
      "mam_tasks",
      "mam_queue_depth",
      "mam_dead_letters",
      "mam_uploads",
      "mam_upload_bytes",
      "mam_share_link_views",
      "mam_share_link_downloads",
    ]) {
      expect(names).toContain(n);
    }
    expect(family(families, "mam_http_request_duration_seconds").type).toBe("HISTOGRAM");
    expect(family(families, "mam_tasks").metrics.map((m) => m.labels?.status)).toContain("error");
  });

  it("counts requests by route pattern and status, with their latency", async () => {
    const route = { method: "GET", route: "/api/version", status: "200" };
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await call("/api/version")).status).toBe(200);
    const after = await scrape();
    expect(value(after, "mam_http_requests_total", route) - value(before, "mam_http_requests_total", route)).toBe(3);
    // The histogram counts every API request, the scrapes included: at least the three more.
    const hist = (fs: ParsedFamily[]) => family(fs, "mam_http_request_duration_seconds").metrics[0];
    expect(Number(hist(after).count) - Number(hist(before).count)).toBeGreaterThanOrEqual(3);
    expect(Number(hist(after).buckets?.["+Inf"])).toBe(Number(hist(after).count));
    expect(Number(hist(after).sum)).toBeGreaterThanOrEqual(0);
  });

  it("labels a parameterised route by its pattern, never by the id in the path", async () => {
    const id = "00000000-0000-4000-8000-00000000beef";
    await call(`/api/tasklist/task/${id}`, { bearer: await admin() });
    const r = await call("/api/metrics", { bearer: await admin() });
    expect(r.text).toContain('route="/api/tasklist/task/:id"');
    expect(r.text).not.toContain(id);
  });

  it("labels a made-up method OTHER and an unknown path unmatched, so callers cannot mint series", async () => {
    await call("/api/no-such-thing-123", { method: "PROPFIND", bearer: await admin() });
    const r = await call("/api/metrics", { bearer: await admin() });
    expect(r.text).toMatch(/mam_http_requests_total\{method="OTHER",route="unmatched",status="\d+"\} \d+/);
    expect(r.text).not.toContain("PROPFIND");
    expect(r.text).not.toContain("no-such-thing-123");
  });

  it("counts refused sign-ins", async () => {
    const someone = await mkPerson();
    const before = value(await scrape(), "mam_signin_failures_total");
    const r = await call("/api/auth/login", { method: "POST", json: { user: someone.login, passwd: "wrong-password" } });
    expect(r.status).toBe(401);
    expect(value(await scrape(), "mam_signin_failures_total") - before).toBe(1);
  });

  it("reads tasks by status, queue depth and dead letters from the database at scrape time", async () => {
    const before = await scrape();
    const adminId = (await call("/api/auth/whoami", { bearer: await admin() })).body.id as string;
    const asset = await mkMediaAsset(null, adminId);
    await mkTask(asset, "error");
    await mkTask(asset, "inqueue");
    const after = await scrape();
    expect(value(after, "mam_dead_letters") - value(before, "mam_dead_letters")).toBe(1);
    expect(value(after, "mam_queue_depth") - value(before, "mam_queue_depth")).toBe(1);
    expect(value(after, "mam_tasks", { status: "error" }) - value(before, "mam_tasks", { status: "error" })).toBe(1);
  });

  it("is for admins: a user gets 403, a robot 403 unless it is an admin robot, no bearer 401", async () => {
    const user = await mkPerson();
    expect((await call("/api/metrics", { bearer: user.bearer })).status).toBe(403);
    const robot = await mkPerson({ robot: true });
    const { token } = await issueToken(robot.id);
    expect((await call("/api/metrics", { bearer: token })).status).toBe(403);
    const adminRobot = await mkPerson({ robot: true, admin: true });
    const { token: adminToken } = await issueToken(adminRobot.id);
    expect(parsePrometheusTextFormat((await call("/api/metrics", { bearer: adminToken })).text).length).toBeGreaterThan(5);
    expect((await call("/api/metrics")).status).toBe(401);
  });
});
