/**
 * vitest globalSetup (runs in Node, not workerd): a local HTTP server automation webhooks are sent to.
 * POST /<box>[?status=N][&location=URL] keeps the request (headers and body) and answers N (200 by default), with
 * a Location header when given (a redirect the sender must not follow);
 * GET /<box> answers what that box received. Tests read it with fetch from workerd.
 */
import { createServer } from "node:http";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    webhookUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const boxes = new Map<string, { headers: Record<string, string>; body: string }[]>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const box = url.pathname;
    if (req.method === "GET") {
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify(boxes.get(box) ?? []));
      return;
    }
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const list = boxes.get(box) ?? [];
      list.push({ headers: req.headers as Record<string, string>, body });
      boxes.set(box, list);
      res.statusCode = Number(url.searchParams.get("status") ?? 200);
      const location = url.searchParams.get("location");
      if (location) res.setHeader("Location", location);
      res.end(res.statusCode < 300 ? "принято" : "сломано");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  project.provide("webhookUrl", `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
