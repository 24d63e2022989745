import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { makeClip, makePdf } from "../media/media";
import { VIRTUAL_ROOT_ID as ROOT } from "../../shared/lib/constants";
import { ADMIN, expect, openSignedIn, test } from "./fixtures";

/**
 * Uploads in Chromium (docs/decisions/007-uploads.md, 015-upload-queue.md): the picker and drag and drop into a group (files and folders),
 * what was uploaded opened in the viewer, cancel, reload and resume, the unload warning, and a read-only
 * user. Groups and checks go through the API from Node; the drop zone sits on /mam/{idGroup}.
 */

const base = `http://127.0.0.1:${process.env.MAM_E2E_PORT ?? "8790"}`;
const dir = mkdtempSync(path.join(tmpdir(), "mam-upload-e2e-"));
// A 1×1 PNG, a one-page PDF and a 4 s H.264/AAC clip: real files of the kinds users upload.
const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const pdf = makePdf(1);
const clip = readFileSync(makeClip(path.join(dir, "clip.mp4"), 4, 320, 240));

async function call(bearer: string, p: string, init: { method?: string; json?: unknown } = {}) {
  const res = await fetch(base + p, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer}` },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}
const json = async (bearer: string, p: string, init: { method?: string; json?: unknown } = {}) => {
  const res = await call(bearer, p, init);
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${res.body.toString()}`);
  return JSON.parse(res.body.toString());
};

async function login(user: string, passwd: string, again = true): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ user, passwd }),
  });
  const text = await res.text();
  // wrangler's dev proxy may reload the Worker just after start and answer this once; the request never reached us.
  if (again && text.startsWith("Your worker restarted mid-request")) return login(user, passwd, false);
  if (res.status !== 200) throw new Error(`login ${user}: ${res.status} ${text}`);
  return (JSON.parse(text) as { bearer: string }).bearer;
}

async function newGroup(bearer: string, name: string): Promise<string> {
  return (
    await json(bearer, "/api/group/create", {
      json: { parent: ROOT, group_name: `${name} ${Date.now()}${Math.random().toString(36).slice(2, 6)}` },
    })
  ).group_id;
}

/** Assets in the group by name → id. */
async function groupAssets(bearer: string, groupId: string): Promise<Record<string, string>> {
  const members = (await json(bearer, `/api/group/members/${groupId}?type=asset&take=200`)) as {
    el_id: string;
    el_info: { name: string };
  }[];
  return Object.fromEntries(members.map((m) => [m.el_info.name, m.el_id]));
}

async function download(bearer: string, assetId: string) {
  const res = await call(bearer, `/api/asset/content/download/${assetId}/latest/initial`);
  if (res.status !== 200) throw new Error(`download ${assetId}: ${res.status} ${res.body.toString()}`);
  return res.body;
}
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function bigFile(name: string, megabytes: number): string {
  const bytes = Buffer.alloc(megabytes * 1024 * 1024);
  for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE((i * 2654435761) >>> 0, i);
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

/** Part PUTs wait a while, so a large upload is still going when the test acts on it. */
async function slowParts(page: Page, ms: number) {
  await page.context().route(/\/api\/ul\/[^/]+\/part\/\d+/, async (route) => {
    await new Promise((r) => setTimeout(r, ms));
    await route.continue().catch(() => undefined);
  });
}

async function openGroupAsAdmin(page: Page, groupId: string) {
  await openSignedIn(page, ADMIN, `/mam/${groupId}`);
  await expect(page.getByRole("button", { name: "Загрузить файлы" })).toBeVisible();
}

const item = (page: Page, name: string) => page.getByTestId("upload-item").filter({ hasText: name });

async function pick(page: Page, files: Parameters<import("@playwright/test").FileChooser["setFiles"]>[0], button = "Загрузить файлы") {
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: button }).click()]);
  await chooser.setFiles(files);
}

/** A drop made in the page: a DataTransfer of files (no FileSystemEntry behind them, as in synthetic drags). */
async function dropInPage(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.getByTestId("upload-dropzone").evaluate(
    (zone, list) => {
      const transfer = new DataTransfer();
      for (const f of list)
        transfer.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
      zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    files.map((f) => ({ name: f.name, mimeType: f.mimeType, base64: f.buffer.toString("base64") })),
  );
}

/**
 * A drop of files and folders from disk onto the drop zone as Chromium's own drag (DevTools
 * Input.dispatchDragEvent): the page gets real FileSystemEntry objects, so a folder is read through
 * webkitGetAsEntry and readEntries. The zone's overlay comes up under the pointer after the first dragOver;
 * Chromium delivers the drop only after a dragOver over it, as a moving pointer would send.
 */
async function dropFromDisk(page: Page, paths: string[]) {
  const box = (await page.getByTestId("upload-dropzone").boundingBox())!;
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const cdp = await page.context().newCDPSession(page);
  const drag = (type: "dragEnter" | "dragOver" | "drop") =>
    cdp.send("Input.dispatchDragEvent", { type, ...at, data: { items: [], files: paths, dragOperationsMask: 1 } });
  await drag("dragEnter");
  await drag("dragOver");
  await expect(page.getByText("Отпустите, чтобы загрузить")).toBeVisible();
  await drag("dragOver");
  await drag("drop");
  await cdp.detach();
}

const contentsList = (page: Page) => page.getByRole("list", { name: "Содержимое группы" });
/** A tree row by its whole name: other tests' groups ("Документы 1a2b…") share the tree with this one's. */
const treeItem = (page: Page, name: string) =>
  page.getByRole("tree", { name: "Дерево групп" }).getByRole("treeitem", { name, exact: true });

/** The viewer's "Скачать": the bytes the browser saved. */
async function downloadInViewer(page: Page) {
  const [saved] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Скачать", exact: true }).click()]);
  return readFileSync(await saved.path());
}

const currentTime = (video: Locator) => video.evaluate((el: HTMLVideoElement) => el.currentTime);

test.describe("uploads", () => {
  test("the picker and drag and drop upload an image and a PDF into the group with identical bytes", async ({ page }) => {
    const bearer = await login(ADMIN.login, ADMIN.password);
    const groupId = await newGroup(bearer, "Загрузки");
    await openGroupAsAdmin(page, groupId);

    await pick(page, [
      { name: "снимок.png", mimeType: "image/png", buffer: png },
      { name: "документ.pdf", mimeType: "application/pdf", buffer: pdf },
    ]);
    await expect(item(page, "снимок.png")).toHaveAttribute("data-status", "completed");
    await expect(item(page, "документ.pdf")).toHaveAttribute("data-status", "completed");

    // Drag and drop: a drop event carrying a DataTransfer made in the page.
    await dropInPage(page, [
      { name: "перетащен.png", mimeType: "image/png", buffer: png },
      { name: "перетащен.pdf", mimeType: "application/pdf", buffer: pdf },
    ]);
    await expect(item(page, "перетащен.png")).toHaveAttribute("data-status", "completed");
    await expect(item(page, "перетащен.pdf")).toHaveAttribute("data-status", "completed");
    await expect(page.getByRole("progressbar", { name: "Всего" })).toHaveAttribute("aria-valuenow", "100");
    // The open group's list shows every finished upload without a reload.
    const contents = page.getByRole("list", { name: "Содержимое группы" });
    for (const name of ["снимок.png", "документ.pdf", "перетащен.png", "перетащен.pdf"])
      await expect(contents.getByText(name)).toBeVisible();

    const assets = await groupAssets(bearer, groupId);
    for (const [name, bytes] of [
      ["снимок.png", png],
      ["документ.pdf", pdf],
      ["перетащен.png", png],
      ["перетащен.pdf", pdf],
    ] as const) {
      expect(assets[name], name).toBeTruthy();
      expect(sha256(await download(bearer, assets[name])), name).toBe(sha256(bytes));
    }

    // Everything finished: leaving asks nothing.
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.type());
      void d.accept();
    });
    await page.reload();
    expect(dialogs).toEqual([]);
  });

  test("an image, a PDF and a video from the picker and a video dropped open in the viewer and download as the same bytes", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const bearer = await login(ADMIN.login, ADMIN.password);
    const groupId = await newGroup(bearer, "Просмотр");
    await openGroupAsAdmin(page, groupId);

    await pick(page, [
      { name: "снимок.png", mimeType: "image/png", buffer: png },
      { name: "документ.pdf", mimeType: "application/pdf", buffer: pdf },
      { name: "ролик.mp4", mimeType: "video/mp4", buffer: clip },
    ]);
    await dropInPage(page, [{ name: "перетащен.mp4", mimeType: "video/mp4", buffer: clip }]);
    const uploaded = { "снимок.png": png, "документ.pdf": pdf, "ролик.mp4": clip, "перетащен.mp4": clip };
    for (const name of Object.keys(uploaded))
      await expect(item(page, name)).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    for (const name of Object.keys(uploaded)) await expect(contentsList(page).getByRole("link", { name })).toBeVisible();
    const assets = await groupAssets(bearer, groupId);

    for (const [name, bytes] of Object.entries(uploaded)) {
      await page.goto(`/mam/${groupId}`);
      await contentsList(page).getByRole("link", { name }).click();
      await expect(page).toHaveURL(new RegExp(`/mam/${groupId}/asset/${assets[name]}$`));
      if (name.endsWith(".png")) {
        await expect.poll(() => page.getByRole("img", { name }).evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1);
      } else if (name.endsWith(".pdf")) {
        // The PDF is shown inline from its play link: the frame's address serves the uploaded bytes as a PDF.
        const src = (await page.getByTitle(name).getAttribute("src"))!;
        const shown = await page.evaluate(async (url) => {
          const res = await fetch(url);
          return { type: res.headers.get("Content-Type"), bytes: [...new Uint8Array(await res.arrayBuffer())] };
        }, src);
        expect(shown.type).toContain("application/pdf");
        expect(Buffer.from(shown.bytes).equals(pdf)).toBe(true);
      } else {
        const video = page.locator("video");
        await expect(video).toBeVisible();
        await video.evaluate(async (el: HTMLVideoElement) => {
          el.muted = true;
          await el.play();
        });
        await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(0.3);
        await video.evaluate((el: HTMLVideoElement) => {
          el.currentTime = 2.5;
        });
        await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(2.8);
      }
      expect((await downloadInViewer(page)).equals(bytes), name).toBe(true);
    }
  });

  test("a video uploaded through the page plays in the viewer from its proxy once the transcoder has made it", async ({ page }) => {
    test.setTimeout(180_000);
    const bearer = await login(ADMIN.login, ADMIN.password);
    const groupId = await newGroup(bearer, "Прокси");
    await openGroupAsAdmin(page, groupId);
    await pick(page, [{ name: "интервью.mp4", mimeType: "video/mp4", buffer: clip }]);
    await expect(item(page, "интервью.mp4")).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    const assetId = (await groupAssets(bearer, groupId))["интервью.mp4"];

    // The upload started the automatic tasks; the 720p proxy is the best variant to play.
    const proxy = async () =>
      ((await json(bearer, `/api/asset/variants/${assetId}/1`)) as { variant_id: string; variant_type: string }[]).find(
        (v) => v.variant_type === "proxy_highres",
      )?.variant_id;
    await expect.poll(proxy, { timeout: 150_000, intervals: [2000] }).toBeTruthy();

    const played = page.waitForRequest((r) => r.url().includes("/api/asset/content/play-variant/"));
    await page.goto(`/mam/${groupId}/asset/${assetId}`);
    expect(new URL((await played).url()).pathname.split("/").pop()).toBe(await proxy());
    const video = page.locator("video");
    await expect(video).toBeVisible();
    await video.evaluate(async (el: HTMLVideoElement) => {
      el.muted = true;
      await el.play();
    });
    await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(0.3);
  });

  test("a dropped folder keeps its structure as subgroups, shown in the open list and the tree as they are made", async ({ page }) => {
    test.setTimeout(60_000);
    const bearer = await login(ADMIN.login, ADMIN.password);
    const groupName = `Папки ${Date.now()}`;
    const groupId = await json(bearer, "/api/group/create", { json: { parent: ROOT, group_name: groupName } }).then(
      (g) => g.group_id as string,
    );
    // On disk: Съёмка/{кадр.png, Документы/{лист.pdf, Пустая/}} and a loose заметка.txt dropped next to it. The two
    // folders the tree shows are named for this attempt: a retry's tree still holds the first attempt's.
    const attempt = Date.now().toString(36);
    const shootName = `Съёмка ${attempt}`;
    const docsName = `Документы ${attempt}`;
    const root = mkdtempSync(path.join(dir, "drop-"));
    mkdirSync(path.join(root, shootName, docsName, "Пустая"), { recursive: true });
    writeFileSync(path.join(root, shootName, "кадр.png"), png);
    writeFileSync(path.join(root, shootName, docsName, "лист.pdf"), pdf);
    const note = Buffer.from("заметка к съёмке\n");
    writeFileSync(path.join(root, "заметка.txt"), note);

    await openGroupAsAdmin(page, groupId);
    // The open group's node is expanded (no subgroups yet), so new ones must show up in it.
    await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/api/group/members/${groupId}?`) && r.url().includes("type=group")),
      treeItem(page, groupName).getByRole("button", { name: "Развернуть" }).click(),
    ]);
    await expect(page.getByText("Группа пуста")).toBeVisible();

    await dropFromDisk(page, [path.join(root, shootName), path.join(root, "заметка.txt")]);
    for (const name of ["заметка.txt", "кадр.png", "лист.pdf"]) await expect(item(page, name)).toHaveAttribute("data-status", "completed");
    // Without a reload: the new subgroup is in the open list (a group row) and under the open group in the tree.
    await expect(contentsList(page).locator('[data-type="group"]').getByRole("link")).toHaveText([shootName]);
    await expect(contentsList(page).getByRole("link", { name: "заметка.txt" })).toBeVisible();
    await expect(treeItem(page, shootName)).toBeVisible();

    // The server holds the same tree, files with their bytes.
    type Row = { el_id: string; el_type: string; el_info: { name: string } };
    const members = async (id: string) => {
      const rows = (await json(bearer, `/api/group/members/${id}?take=200`)) as Row[];
      return Object.fromEntries(rows.map((r) => [r.el_info.name, { id: r.el_id, type: r.el_type }]));
    };
    const top = await members(groupId);
    expect(Object.keys(top).sort()).toEqual(["заметка.txt", shootName].sort());
    expect(top[shootName].type).toBe("group");
    const shoot = await members(top[shootName].id);
    expect(Object.fromEntries(Object.entries(shoot).map(([n, m]) => [n, m.type]))).toEqual({ [docsName]: "group", "кадр.png": "asset" });
    const docs = await members(shoot[docsName].id);
    expect(Object.fromEntries(Object.entries(docs).map(([n, m]) => [n, m.type]))).toEqual({ Пустая: "group", "лист.pdf": "asset" });
    expect(await members(docs.Пустая.id)).toEqual({});
    for (const [id, bytes] of [
      [top["заметка.txt"].id, note],
      [shoot["кадр.png"].id, png],
      [docs["лист.pdf"].id, pdf],
    ] as const) {
      expect(sha256(await download(bearer, id))).toBe(sha256(bytes));
    }

    // The subgroup opens from the list with its own subgroup and file; the tree expands into it.
    await treeItem(page, shootName).getByRole("button", { name: "Развернуть" }).click();
    await expect(treeItem(page, docsName)).toBeVisible();
    await contentsList(page).getByRole("link", { name: shootName }).click();
    await expect(page).toHaveURL(new RegExp(`/mam/${top[shootName].id}$`));
    await expect(contentsList(page).locator('[data-type="group"]').getByRole("link")).toHaveText([docsName]);
    await expect(contentsList(page).getByRole("link", { name: "кадр.png" })).toBeVisible();
  });

  test("cancelling an upload mid-way removes it and deletes its asset", async ({ page }) => {
    const bearer = await login(ADMIN.login, ADMIN.password);
    const groupId = await newGroup(bearer, "Отмена");
    await openGroupAsAdmin(page, groupId);
    await slowParts(page, 1500);

    await pick(page, bigFile("большой.bin", 60));
    const row = item(page, "большой.bin");
    await expect(row).toHaveAttribute("data-status", "uploading");
    await expect(row).not.toHaveAttribute("data-asset", "");
    const assetId = (await row.getAttribute("data-asset"))!;
    expect((await call(bearer, `/api/asset/${assetId}`)).status).toBe(200);

    await page.getByRole("button", { name: "Отменить загрузку: большой.bin" }).click();
    await expect(row).toHaveCount(0);
    await expect.poll(async () => (await call(bearer, `/api/asset/${assetId}`)).status).toBe(404);
    expect(await groupAssets(bearer, groupId)).toEqual({});
  });

  test("a reload mid-upload warns, then the same file re-selected resumes to identical bytes", async ({ page }) => {
    const bearer = await login(ADMIN.login, ADMIN.password);
    const groupId = await newGroup(bearer, "Продолжение");
    await openGroupAsAdmin(page, groupId);
    await slowParts(page, 1200);
    const file = bigFile("продолжить.bin", 24);

    await pick(page, file);
    const row = item(page, "продолжить.bin");
    await expect(row).toHaveAttribute("data-status", "uploading");
    const pendingId = () =>
      page.evaluate(() => (JSON.parse(localStorage.getItem("mam.uploads.pending") ?? "[]")[0]?.uploadId as string) ?? null);
    await expect.poll(pendingId).not.toBeNull();
    const uploadId = (await pendingId())!;
    await expect.poll(async () => (await json(bearer, `/api/ul/${uploadId}`)).parts.length).toBeGreaterThan(0);
    const assetId = (await row.getAttribute("data-asset"))!;

    const dialogs: { type: string; message: string }[] = [];
    page.on("dialog", (d) => {
      dialogs.push({ type: d.type(), message: d.message() });
      void d.accept();
    });
    await page.reload();
    expect(dialogs.map((d) => d.type)).toEqual(["beforeunload"]);

    const offers = page.getByRole("group", { name: "Незавершённые загрузки" });
    await expect(offers.getByTestId("upload-pending")).toContainText("продолжить.bin");
    const heldBefore = (await json(bearer, `/api/ul/${uploadId}`)).parts.length;
    await page.context().unroute(/\/api\/ul\/[^/]+\/part\/\d+/);
    await pick(page, file, "Продолжить");

    await expect(item(page, "продолжить.bin")).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    expect(await item(page, "продолжить.bin").getAttribute("data-asset")).toBe(assetId);
    const state = await json(bearer, `/api/ul/${uploadId}`);
    expect(state.state).toBe("completed");
    expect(heldBefore).toBeGreaterThan(0);
    expect(sha256(await download(bearer, assetId))).toBe(sha256(readFileSync(file)));
    await expect(offers).toHaveCount(0);
  });

  test("a user who may read but not create is offered no upload, and the API refuses one", async ({ page }) => {
    const admin = await login(ADMIN.login, ADMIN.password);
    const groupId = await newGroup(admin, "Только чтение");
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const user = { login: `reader-${suffix}`, password: `Pw-${suffix}-long` };
    const { user_id } = await json(admin, "/api/user", {
      json: { user_name: `Читатель ${suffix}`, user_login: user.login, user_passwd: user.password, enabled: true },
    });
    await json(admin, "/api/user/acl", { json: { subj: user_id, obj: groupId, acl: ["read"] } });

    // The offer depends on the caller's permissions on the group: wait for them before looking.
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/group/get/${groupId}`)),
      openSignedIn(page, user, `/mam/${groupId}`),
    ]);
    // The group page has rendered its contents (empty) for this user.
    await expect(page.getByText("Группа пуста")).toBeVisible();
    await expect(page.getByRole("button", { name: "Загрузить файлы" })).toHaveCount(0);
    await expect(page.getByTestId("upload-dropzone")).toHaveCount(0);

    const bearer = await login(user.login, user.password);
    const refused = await call(bearer, "/api/asset/create", {
      json: { asset_name: "нельзя.png", asset_mime: "image/png", in_group: groupId },
    });
    expect(refused.status).toBe(403);
    expect(await groupAssets(admin, groupId)).toEqual({});
  });
});
