/**
 * Prometheus text exposition format 0.0.4 (https://prometheus.io/docs/instrumenting/exposition_formats/):
 * one # HELP and # TYPE per family, then its samples. No server imports: plain strings in, text out.
 */

export type Labels = Record<string, string>;

export interface Sample {
  labels?: Labels;
  value: number;
  /** A suffix of the family name (histograms: _bucket, _sum, _count). */
  suffix?: string;
}

export interface Family {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  samples: Sample[];
}

export const contentType = "text/plain; version=0.0.4; charset=utf-8";

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
const escapeHelp = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

const number = (v: number) => (Number.isNaN(v) ? "NaN" : v === Infinity ? "+Inf" : v === -Infinity ? "-Inf" : String(v));

function labelText(labels: Labels | undefined) {
  const entries = Object.entries(labels ?? {});
  return entries.length ? `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")}}` : "";
}

export function render(families: Family[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) lines.push(`${f.name}${s.suffix ?? ""}${labelText(s.labels)} ${number(s.value)}`);
  }
  return `${lines.join("\n")}\n`;
}
