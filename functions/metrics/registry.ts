import type { Family, Labels, Sample } from "./prometheus";

/**
 * Per-request counters, kept in this isolate's memory (docs/decisions/044-metrics-logs-errors.md): each Worker
 * isolate counts what it served since it started, and the scrape answers the isolate it lands on. Prometheus's
 * rate() copes with the resets an isolate's end brings; totals across isolates are what the Analytics Engine
 * dataset is for. Labels are route patterns, never raw paths, so the series stay few and carry no ids.
 */

/** Latency bucket bounds in seconds: from a cached read to a slow upload part. */
export const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Histogram {
  labels: Labels;
  buckets: number[];
  sum: number;
  count: number;
}

const requests = new Map<string, { labels: Labels; value: number }>();
// One histogram for all routes: per-route latency would multiply the series by twelve buckets each (and the
// Analytics Engine points carry each request's duration with its route for that question).
const latency: Histogram = { labels: {}, buckets: latencyBuckets.map(() => 0), sum: 0, count: 0 };
let signInFailures = 0;
// Set on first use: workerd's clock reads 0 at module scope, outside any request.
let startedAt: number | undefined;
const started = () => (startedAt ??= Date.now() / 1000);

export interface Observed {
  method: string;
  route: string;
  status: number;
  durationMs: number;
}

export function observeRequest({ method, route, status, durationMs }: Observed) {
  started();
  const key = `${method} ${route} ${status}`;
  const counter = requests.get(key) ?? { labels: { method, route, status: String(status) }, value: 0 };
  counter.value++;
  requests.set(key, counter);
  const h = latency;
  const seconds = durationMs / 1000;
  latencyBuckets.forEach((le, i) => {
    if (seconds <= le) h.buckets[i]++;
  });
  h.sum += seconds;
  h.count++;
}

export function countSignInFailure() {
  signInFailures++;
}

function histogramSamples(h: Histogram): Sample[] {
  return [
    ...latencyBuckets.map((le, i) => ({ suffix: "_bucket", labels: { ...h.labels, le: String(le) }, value: h.buckets[i] })),
    { suffix: "_bucket", labels: { ...h.labels, le: "+Inf" }, value: h.count },
    { suffix: "_sum", labels: h.labels, value: h.sum },
    { suffix: "_count", labels: h.labels, value: h.count },
  ];
}

/** The isolate's families, as they stand at the scrape. */
export function isolateFamilies(): Family[] {
  return [
    {
      name: "mam_http_requests_total",
      help: "API requests served by this isolate, by method, route pattern and status.",
      type: "counter",
      samples: [...requests.values()].map((c) => ({ labels: c.labels, value: c.value })),
    },
    {
      name: "mam_http_request_duration_seconds",
      help: "API request latency in this isolate, all routes.",
      type: "histogram",
      samples: histogramSamples(latency),
    },
    {
      name: "mam_signin_failures_total",
      help: "Refused sign-ins (wrong credentials or throttled) counted by this isolate.",
      type: "counter",
      samples: [{ value: signInFailures }],
    },
    {
      name: "mam_isolate_start_time_seconds",
      help: "When this isolate started counting (Unix seconds): a change means the counters restarted.",
      type: "gauge",
      samples: [{ value: started() }],
    },
  ];
}
