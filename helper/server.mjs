/**
 * The disk helper: a small HTTP server on 127.0.0.1 that the app (in the user's browser) asks to mount a
 * group's WebDAV folder as a local disk (docs/decisions/036-webdav-and-disk-helper.md).
 *   GET /status            {version, backend, token, mounts: [{group_id, name, path}]}
 *   POST /token {token, login, server}   stores the credential (file mode 0600, never logged)
 *   POST /mount {group_id, name, url}    {path}, or a 4xx/5xx with {error: "<Russian text>"}
 *   POST /unmount {group_id}             {ok}, or a 4xx/5xx with {error}
 * Only origins on its allowlist get answers (CORS), with the Private Network Access preflight, and only
 * requests addressed to it by its own name (Host 127.0.0.1 or localhost on its port): a page whose host
 * name is re-pointed at 127.0.0.1 (DNS rebinding) is same-origin to itself and sends no foreign Origin, but
 * its Host is its own name. It mounts only WebDAV folders (/dav/) of the server the app password was saved for.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { detectBackend, mountWebdav, unmount } from "./mount.mjs";

const isHttpUrl = (s) => {
  try {
    return ["http:", "https:"].includes(new URL(s).protocol);
  } catch {
    return false;
  }
};

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

  /**
   * A mount folder's name: one plain path segment under the mount root, never `.`/`..`, a separator or a
   * control character (which could point the mount elsewhere or hide in a listing). null when refused.
   */
  const folderName = (name) => {
    const n = name.trim();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    if (!n || n === "." || n === ".." || /[/\\\x00-\x1f\x7f]/.test(n)) return null;
    return n;
  };

  /** The WebDAV folder to mount: `url` resolved against the saved server, on its origin and under /dav/; else null. */
  const davUrl = (url, server) => {
    try {
      const base = new URL(server);
      const u = new URL(url, base);
      if (u.origin !== base.origin || u.username || u.password || !u.pathname.startsWith("/dav/")) return null;
      return u.href;
    } catch {
      return null;
    }
  };

  /** @type {Record<string, (b: any) => Promise<[number, unknown]>>} */
  const routes = {
    "GET /status": async () => [
      200,
      { version: helperVersion, backend: backend(), token: Boolean(readCreds()), mounts: [...mounts.values()] },
    ],
    "POST /token": async (b) => {
      if (typeof b.token !== "string" || typeof b.login !== "string" || typeof b.server !== "string")
        return [400, { error: "Нужны поля token, login и server" }];
      if (!isHttpUrl(b.server)) return [400, { error: "server: нужен адрес http(s)" }];
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
      const name = folderName(b.name);
      if (!name) return [400, { error: "Недопустимое имя папки: «.», «..», разделители путей и управляющие символы запрещены" }];
      const url = davUrl(b.url, creds.server);
      if (!url) return [403, { error: `Подключить можно только папку WebDAV (/dav/) сервера ${creds.server}` }];
      const dir = path.join(mountRoot, name);
      try {
        await mount({ backend: backend(), url, dir, login: creds.login, password: creds.token });
      } catch (err) {
        // The mount tool failed (no FUSE, no rclone, a refused login): the helper's own failure, not the request's.
        return [500, { error: err instanceof Error ? err.message : String(err) }];
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
        return [500, { error: err instanceof Error ? err.message : String(err) }];
      }
      mounts.delete(b.group_id);
      return [200, { ok: true }];
    },
  };

  const server = http.createServer(async (req, res) => {
    const port = /** @type {import("node:net").AddressInfo} */ (server.address()).port;
    if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`) {
      res.writeHead(403, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "Помощник отвечает только на 127.0.0.1" }));
      return;
    }
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
