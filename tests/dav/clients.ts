import { execFileSync, spawnSync } from "node:child_process";
import { fetchFresh } from "../shared/fetch-fresh";

/**
 * The Debian clients these tests drive. A missing one fails the test with what to install: a silent
 * pass would claim WebDAV works with a client nobody ran.
 */
export function requireTool(name: "litmus" | "rclone") {
  const found = spawnSync("sh", ["-c", `command -v ${name}`]).status === 0;
  if (!found)
    throw new Error(`${name} is not installed: run \`apt-get install -y ${name}\` (Debian package "${name}"; .ci/run installs it)`);
}

export interface Creds {
  login: string;
  password: string;
}

const basic = (c: Creds) => `Basic ${Buffer.from(`${c.login}:${c.password}`).toString("base64")}`;

/** One WebDAV request from Node, for set-up steps. */
export async function davCall(
  base: string,
  creds: Creds,
  method: string,
  path: string,
  init: { body?: string; headers?: Record<string, string> } = {},
) {
  const res = await fetchFresh(`${base}${path}`, { method, body: init.body, headers: { Authorization: basic(creds), ...init.headers } });
  return { status: res.status, text: await res.text() };
}

/** A JSON API call as the admin (bearer from sign-in). */
export async function apiCall(base: string, bearer: string | null, path: string, json?: unknown): Promise<any> {
  const res = await fetchFresh(`${base}${path}`, {
    method: json === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json", ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** rclone with an inline WebDAV remote (no config file); returns stdout, throws with stderr on failure. */
export function rclone(base: string, creds: Creds, args: string[]) {
  const pass = execFileSync("rclone", ["obscure", creds.password], { encoding: "utf8" }).trim();
  const flags = [
    "--config",
    "/dev/null",
    "--webdav-url",
    `${base}/dav`,
    "--webdav-vendor",
    "other",
    "--webdav-user",
    creds.login,
    "--webdav-pass",
    pass,
  ];
  const r = spawnSync("rclone", [...flags, ...args], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`rclone ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}
