/**
 * The mount backends of the disk helper: rclone mount (FUSE) or davfs2, whichever is present. Each answers
 * a Russian error text the helper passes to the app as is (the app shows it in a toast).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { accessSync, constants, mkdirSync, readdirSync } from "node:fs";

const has = (cmd) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;

/** Why FUSE mounts cannot work here, or null when they may. */
export function fuseProblem() {
  try {
    accessSync("/dev/fuse", constants.R_OK | constants.W_OK);
  } catch {
    return "Нет доступа к /dev/fuse: FUSE недоступен на этой машине";
  }
  if (!has("fusermount3") && !has("fusermount")) return "Не найден fusermount: установите пакет fuse3";
  return null;
}

/** "rclone", "davfs2" or null. */
export function detectBackend() {
  if (has("rclone")) return "rclone";
  if (has("mount.davfs")) return "davfs2";
  return null;
}

/**
 * Mounts `url` (a WebDAV folder) at `dir` as `login` with `password`; resolves when the mount is up.
 * @param {{ backend: string | null, url: string, dir: string, login: string, password: string }} m
 */
export async function mountWebdav({ backend, url, dir, login, password }) {
  if (!backend) throw new Error("Не найдено ни rclone, ни davfs2: установите rclone (например, «apt install rclone fuse3»)");
  const fuse = fuseProblem();
  if (fuse) throw new Error(fuse);
  mkdirSync(dir, { recursive: true });
  if (readdirSync(dir).length) throw new Error(`Папка ${dir} не пуста: подключение в неё невозможно`);
  if (backend === "davfs2") throw new Error("Подключение через davfs2 требует прав администратора: установите rclone");
  const child = startRclone({ url, dir, login, password });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`rclone не подключил папку: ${stderr.trim().split("\n").at(-1) ?? "без объяснения"}`);
    if (isMounted(dir)) {
      child.unref();
      return child.pid;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error("rclone не подключил папку за 15 секунд");
}

/**
 * Starts `rclone mount` of `url` at `dir`. The password never appears on a command line, where any local
 * user could read it from the process list: `rclone obscure -` reads it from stdin, and the mount takes
 * the user and the obscured password from its environment (RCLONE_WEBDAV_USER, RCLONE_WEBDAV_PASS).
 * @param {{ url: string, dir: string, login: string, password: string }} m
 */
export function startRclone({ url, dir, login, password }) {
  const pass = execFileSync("rclone", ["obscure", "-"], { input: `${password}\n`, encoding: "utf8" }).trim();
  const args = ["mount", ":webdav:", dir, "--config", "/dev/null", "--webdav-url", url, "--webdav-vendor", "other"];
  args.push("--vfs-cache-mode", "writes", "--dir-cache-time", "10s");
  return spawn("rclone", args, {
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
    env: { ...process.env, RCLONE_WEBDAV_USER: login, RCLONE_WEBDAV_PASS: pass },
  });
}

/** Whether `dir` is a mount point (listed in /proc/mounts). */
export function isMounted(dir) {
  try {
    return execFileSync("cat", ["/proc/mounts"], { encoding: "utf8" })
      .split("\n")
      .some((l) => l.split(" ")[1] === dir.replace(/ /g, "\\040"));
  } catch {
    return false;
  }
}

export function unmount(dir) {
  const tool = has("fusermount3") ? "fusermount3" : "fusermount";
  const r = spawnSync(tool, ["-u", dir], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`Не удалось отключить ${dir}: ${r.stderr.trim()}`);
}
