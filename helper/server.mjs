/**
 * The disk helper: a small HTTP server on 127.0.0.1 that the app (in the user's browser) asks to mount a
 * group's WebDAV folder as a local disk (docs/decisions/036-webdav-and-disk-helper.md).
 *   GET /status            {version, backend, token, mounts: [{group_id, name, path}]}
 *   POST /token {token, login, server}   stores the credential (file mode 0600, never logged)
 *   POST /mount {group_id, name, url}    {path} or {error: "<Russian text>"}
 *   POST /unmount {group_id}             {ok} or {error}
 * Only origins on its allowlist get answers (CORS), with the Private Network Access preflight.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { detectBackend, mountWebdav, unmount } from "./mount.mjs";

export const helperVersion = "1.0.0";
export const defaultPort = 18981;

/**
 * @param {{ port?: number, home: string, origins: string[], mountRoot?: string,
 *   mount?: typeof mountWebdav, unmountDir?: typeof unmount, backend?: () => string | null }} opts
 */
export function createHelper(opts) {
  const stateDir = path.join(opts.home, ".config", "mam-helper");
  const credFile = path.join(stateDir, "credentials.json");
  const mountRoot = opts.mountRoot ?? path.join(opts.home, "МАМ");
  const mount = opts.mount ?? mountWebdav;
  const unmountDir = opts.unmountDir ?? unmount;
  const backend = opts.backend ?? detectBackend;
  /** @type {Map<string, { group_id: string, name: string, path: string }>} */
  const mounts = new Map();

  const readCreds = () => (existsSync(credFile) ? JSON.parse(readFileSync(credFile, "utf8")) : null);

  /** @param {http.IncomingMessage} req */
  const body = (req) =>
    new Promise((resolve, reject) => {
      let text = "";
      req.on("data", (d) => {
        text += d;
        if (text.length > 64 * 1024) reject(new Error("Слишком большой запрос"));
      });
      req.on("end", () => {
        try {
          resolve(text ? JSON.parse(text) : {});
        } catch {
          reject(new Error("Тело запроса — не JSON"));
        }
      });
    });

  const safeName = (name) =>
    String(name)
      .replace(/[/\\\0]/g, "_")
      .trim() || "группа";

  /** @type {Record<string, (b: any) => Promise<[number, unknown]>>} */
  const routes = {
    "GET /status": async () => [
      200,
      { version: helperVersion, backend: backend(), token: Boolean(readCreds()), mounts: [...mounts.values()] },
    ],
    "POST /token": async (b) => {
      if (typeof b.token !== "string" || typeof b.login !== "string" || typeof b.server !== "string")
        return [400, { error: "Нужны поля token, login и server" }];
      mkdirSync(stateDir, { recursive: true, mode: 0o700 });
      writeFileSync(credFile, JSON.stringify({ token: b.token, login: b.login, server: b.server }), { mode: 0o600 });
      chmodSync(credFile, 0o600);
      return [200, { ok: true }];
    },
    "POST /mount": async (b) => {
      if (typeof b.group_id !== "string" || typeof b.name !== "string" || typeof b.url !== "string")
        return [400, { error: "Нужны поля group_id, name и url" }];
      const creds = readCreds();
      if (!creds) return [409, { error: "Помощник не получил пароль приложения: подключите диск из приложения ещё раз" }];
      const existing = mounts.get(b.group_id);
      if (existing) return [200, { path: existing.path }];
      const dir = path.join(mountRoot, safeName(b.name));
      const url = new URL(b.url, creds.server).href;
      try {
        await mount({ backend: backend(), url, dir, login: creds.login, password: creds.token });
      } catch (err) {
        return [200, { error: err instanceof Error ? err.message : String(err) }];
      }
      mounts.set(b.group_id, { group_id: b.group_id, name: b.name, path: dir });
      return [200, { path: dir }];
    },
    "POST /unmount": async (b) => {
      const m = mounts.get(b.group_id);
      if (!m) return [404, { error: "Эта группа не подключена" }];
      try {
        unmountDir(m.path);
      } catch (err) {
        return [200, { error: err instanceof Error ? err.message : String(err) }];
      }
      mounts.delete(b.group_id);
      return [200, { ok: true }];
    },
  };

  const server = http.createServer(async (req, res) => {
    const origin = req.headers.origin;
    // Browsers send Origin on cross-origin calls; a page of any other site gets no answer it can read.
    if (origin && !opts.origins.includes(origin)) {
      res.writeHead(403, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "Источник не разрешён" }));
      return;
    }
    const cors = origin ? { "Access-Control-Allow-Origin": origin, Vary: "Origin" } : {};
    if (req.method === "OPTIONS") {
      res
        .writeHead(204, {
          ...cors,
          "Access-Control-Allow-Methods": "GET, POST",
          "Access-Control-Allow-Headers": "Content-Type",
          "Access-Control-Allow-Private-Network": "true",
          "Access-Control-Max-Age": "600",
        })
        .end();
      return;
    }
    const handler = routes[`${req.method} ${new URL(req.url ?? "/", "http://x").pathname}`];
    let status = 404;
    /** @type {unknown} */
    let answer = { error: "Нет такого метода" };
    if (handler) {
      try {
        [status, answer] = await handler(req.method === "POST" ? await body(req) : {});
      } catch (err) {
        [status, answer] = [400, { error: err instanceof Error ? err.message : String(err) }];
      }
    }
    res.writeHead(status, { ...cors, "Content-Type": "application/json; charset=utf-8" }).end(JSON.stringify(answer));
  });

  return {
    server,
    /** @returns {Promise<number>} the port it listens on */
    listen: () =>
      new Promise((resolve) => {
        server.listen(opts.port ?? defaultPort, "127.0.0.1", () =>
          resolve(/** @type {import("node:net").AddressInfo} */ (server.address()).port),
        );
      }),
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
