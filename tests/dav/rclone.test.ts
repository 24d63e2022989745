import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { apiCall, davCall, rclone, requireTool } from "./clients";

/** rclone's webdav remote: a tree up and down with the same bytes, and the access rules as a client meets them. */

function hashes(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) Object.assign(out, hashes(full, `${prefix}${name}/`));
    else out[`${prefix}${name}`] = createHash("sha256").update(readFileSync(full)).digest("hex");
  }
  return out;
}

function sampleTree() {
  const dir = mkdtempSync(path.join(tmpdir(), "dav-up-"));
  mkdirSync(path.join(dir, "вложенная", "глубже"), { recursive: true });
  writeFileSync(path.join(dir, "a.txt"), "привет\n");
  writeFileSync(path.join(dir, "empty.bin"), "");
  writeFileSync(path.join(dir, "вложенная", "фото.jpg"), Buffer.alloc(300_000, 7));
  // Over one 16 MiB upload part, so the PUT is cut into two parts on its way to storage.
  const big = Buffer.alloc(17 * 1024 * 1024);
  for (let i = 0; i < big.length; i += 4096) big.writeUInt32LE(i, i);
  writeFileSync(path.join(dir, "вложенная", "глубже", "big.bin"), big);
  return dir;
}

describe("rclone", () => {
  const base = inject("davUrl");
  const admin = inject("davAdmin");

  it("copies a tree up and back down with identical bytes", () => {
    requireTool("rclone");
    const src = sampleTree();
    const folder = `rclone-${Date.now()}`;
    rclone(base, admin, ["mkdir", `:webdav:${folder}`]);
    rclone(base, admin, ["copy", src, `:webdav:${folder}`]);
    const back = mkdtempSync(path.join(tmpdir(), "dav-down-"));
    rclone(base, admin, ["copy", `:webdav:${folder}`, back]);
    expect(hashes(back)).toEqual(hashes(src));
  });

  it("a read-only user cannot upload, and never sees a group they cannot read", async () => {
    requireTool("rclone");
    const { bearer } = await apiCall(base, null, "/api/auth/login", { user: admin.login, passwd: admin.password });
    const stamp = Date.now();
    const open = `open-${stamp}`;
    const hidden = `hidden-${stamp}`;
    expect((await davCall(base, admin, "MKCOL", `/dav/${open}/`)).status).toBe(201);
    expect((await davCall(base, admin, "MKCOL", `/dav/${hidden}/`)).status).toBe(201);
    expect((await davCall(base, admin, "PUT", `/dav/${open}/f.txt`, { body: "x" })).status).toBe(201);
    const reader = { login: `reader-${stamp}`, password: "reader-password-1" };
    const user = await apiCall(base, bearer, "/api/user", {
      user_name: "Читатель",
      user_login: reader.login,
      user_passwd: reader.password,
      enabled: true,
    });
    const openId = (await apiCall(base, bearer, `/api/group/entity-by-path?path=${encodeURIComponent(`/${open}`)}`)).el_id;
    await apiCall(base, bearer, "/api/user/acl", { subj: user.user_id, obj: openId, acl: ["read", "download"] });

    expect(rclone(base, reader, ["lsf", ":webdav:"]).trim().split("\n")).toEqual([`${open}/`]);
    expect(rclone(base, reader, ["cat", `:webdav:${open}/f.txt`])).toBe("x");
    const src = mkdtempSync(path.join(tmpdir(), "dav-ro-"));
    writeFileSync(path.join(src, "new.txt"), "nope");
    expect(() => rclone(base, reader, ["copy", src, `:webdav:${open}`, "--retries", "1", "--low-level-retries", "1"])).toThrow(/403/);
    expect(() => rclone(base, reader, ["lsf", `:webdav:${hidden}`, "--retries", "1"])).toThrow();
    expect(rclone(base, admin, ["lsf", `:webdav:${open}`]).trim()).toBe("f.txt");
  });
});
