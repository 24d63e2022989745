import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";
import { render } from "../../functions/metrics/prometheus";
import { isolateFamilies, latencyBuckets, observeRequest } from "../../functions/metrics/registry";

/** The Prometheus text (functions/metrics/prometheus.ts) parses back to what was put in, escapes included. */
describe("render", () => {
  it("escapes label values and help text so a parser reads them back", () => {
    const text = render([
      {
        name: "x_total",
        help: 'a "help" with \\ and\nnewline',
        type: "counter",
        samples: [{ labels: { route: 'a"b\\c\nd' }, value: 3 }],
      },
    ]);
    const [family] = parsePrometheusTextFormat(text);
    expect(family).toMatchObject({ name: "x_total", type: "COUNTER", metrics: [{ labels: { route: 'a"b\\c\nd' }, value: "3" }] });
  });

  it("writes the latency histogram cumulatively, ending in +Inf = count", () => {
    const before = isolateFamilies().find((f) => f.name === "mam_http_request_duration_seconds")!;
    const count = (f: typeof before) => f.samples.find((s) => s.suffix === "_count")!.value;
    const startCount = count(before);
    observeRequest({ method: "GET", route: "/api/x", status: 200, durationMs: 7 });
    observeRequest({ method: "GET", route: "/api/x", status: 200, durationMs: 3000 });
    const [hist] = parsePrometheusTextFormat(render(isolateFamilies())).filter((f) => f.name === "mam_http_request_duration_seconds");
    const buckets = hist.metrics[0].buckets!;
    // (Object keys that look like integers come first in JavaScript: compare in bound order.)
    const bounds = [...latencyBuckets.map(String), "+Inf"];
    expect(Object.keys(buckets).sort()).toEqual([...bounds].sort());
    const values = bounds.map((b) => Number(buckets[b]));
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(Number(buckets["+Inf"])).toBe(startCount + 2);
    expect(Number(buckets["0.01"]) - Number(buckets["0.005"])).toBeGreaterThanOrEqual(1);
    expect(Number(buckets["5"]) - Number(buckets["2.5"])).toBeGreaterThanOrEqual(1);
  });
});
