/**
 * A self-contained page listing the OpenAPI document's operations. Swagger UI would need assets
 * from a CDN; this renders from /api/openapi.json with no outside requests.
 */
export function renderDocsPage(doc: {
  info: { title: string; version: string };
  paths: Record<string, Record<string, { summary?: string; tags?: string[] }>>;
}) {
  const esc = (s: string) => s.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const rows = Object.entries(doc.paths)
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(
        ([method, op]) =>
          `<tr><td class="m">${esc(method.toUpperCase())}</td><td><code>${esc(path)}</code></td><td>${esc(op.tags?.join(", ") ?? "")}</td><td>${esc(op.summary ?? "")}</td></tr>`,
      ),
    )
    .join("");
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>${esc(doc.info.title)} API</title>
<style>body{background:#1a1b1e;color:#c1c2c5;font:14px system-ui;margin:2rem}table{border-collapse:collapse}td{padding:4px 10px;border-bottom:1px solid #2c2e33}.m{color:#4dabf7;font-weight:600}a{color:#4dabf7}</style>
</head><body><h1>${esc(doc.info.title)} ${esc(doc.info.version)}</h1><p><a href="/api/openapi.json">openapi.json</a> (OpenAPI 3.1)</p>
<table>${rows}</table></body></html>`;
}
