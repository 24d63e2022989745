import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { inject } from "vitest";
import { benchAdmin } from "../bench/server.mjs";
import { Client } from "../media/media";

/** The two `npm start` servers of servers.setup.ts, and what the flows share: an admin client, polling, a receiver. */

export const servers = () => inject("servers");

/** A client of `url` signed in as the first admin. */
export async function adminOf(url: string) {
  const client = new Client(url);
  await client.login(benchAdmin.user, benchAdmin.passwd);
  return client;
}

let people = 0;
/** A new user (with a password) signed in on the same server; `id` is their user id. */
export async function personOf(admin: Client) {
  const login = `e2e-${Date.now().toString(36)}-${++people}`;
  const passwd = "e2e-password-1";
  const made = await admin.call("/api/user", {
    json: { user_name: `Проверка ${people}`, user_login: login, user_passwd: passwd, enabled: true },
  });
  const client = new Client(admin.url);
  await client.login(login, passwd);
  return { client, id: made.user_id as string, login };
}

/** Polls `probe` every 100 ms until it answers something truthy; fails naming `what` (and the last answer) after `ms`. */
export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    last = await probe();
    if (last) return last as T;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)?.slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A webhook receiver on 127.0.0.1: keeps every POST's headers, body and arrival time. */
export async function startReceiver() {
  const hits: { headers: Record<string, string>; body: string; at: number }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      hits.push({ headers: req.headers as Record<string, string>, body, at: Date.now() });
      res.end("принято");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, hits, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Creates a workflow as `client`, sets it up and enables it; answers its id. */
export async function workflowOf(client: Client, name: string, setup: Record<string, unknown>) {
  const { workflow_id } = await client.call("/api/udwf/workflow", { json: { name } });
  await client.call(`/api/udwf/workflow-setup/${workflow_id}`, { method: "PATCH", json: setup });
  await client.call(`/api/udwf/workflow-enable-disable/${workflow_id}`, { json: { enabled: true } });
  return workflow_id as string;
}

/** The runs of a workflow once `count` of them have ended. */
export const endedRuns = (client: Client, workflow: string, count = 1, ms = 60_000) =>
  until(
    `${count} ended run(s) of workflow ${workflow}`,
    async () => {
      const { items } = await client.call<{ items: { run_id: string; status: string; error?: string | null }[] }>(
        `/api/udwf/runs?workflow=${workflow}&take=50`,
      );
      return items.length >= count && items.every((r) => ["done", "failed", "stopped"].includes(r.status)) && items;
    },
    ms,
  );
