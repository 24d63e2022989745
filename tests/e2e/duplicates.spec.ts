import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { VIRTUAL_ROOT_ID as ROOT } from "../../shared/lib/constants";
import { Client } from "../media/media";
import { ADMIN, expect, openSignedIn, test } from "./fixtures";

/**
 * The upload panel after an upload whose bytes are already stored (docs/decisions/058-duplicates-and-look-alikes.md):
 * «проверка на дубликаты…» until the transcoder has hashed the file, then «Такой файл уже есть: …» with the three
 * choices. The first copy is seeded through the API; the second is picked in the page, in another group.
 */

const base = `http://127.0.0.1:${process.env.MAM_E2E_PORT ?? "8790"}`;
const dir = mkdtempSync(path.join(tmpdir(), "mam-dup-e2e-"));

/** A picture no other run has uploaded (its colour is random), so the only copy found is this test's. */
async function uniquePicture(name: string) {
  const file = path.join(dir, name);
  const [r, g, b] = crypto.getRandomValues(new Uint8Array(3));
  await sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g, b } } })
    .png()
    .toFile(file);
  return file;
}

async function seeded(client: Client, file: string) {
  const groupOf = async (label: string) =>
    (
      await client.call("/api/group/create", {
        json: { parent: ROOT, group_name: `${label} ${Date.now()}${Math.random().toString(36).slice(2, 6)}` },
      })
    ).group_id as string;
  const [first, second] = [await groupOf("Оригиналы"), await groupOf("Загрузки")];
  const { assetId } = await client.upload(file, "image/png", first);
  // The transcoder hashes the stored bytes within seconds of the upload.
  await expect.poll(async () => (await client.call(`/api/duplicates/of/${assetId}`)).known, { timeout: 60_000 }).toBe(true);
  return { assetId, second };
}

async function pick(page: Page, file: string) {
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Загрузить файлы" }).click()]);
  await chooser.setFiles(file);
}

test("an upload of a file already stored offers to keep both, delete it or make it a new version", async ({ page }) => {
  const client = new Client(base);
  await client.login(ADMIN.login, ADMIN.password);
  const file = await uniquePicture("Закат.png");
  const original = await seeded(client, file);

  // Hold the first answers back, so the check's own state is seen before the transcoder's verdict.
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route(/\/api\/duplicates\/of\//, async (route) => {
    await held;
    await route.continue();
  });
  await openSignedIn(page, ADMIN, `/mam/${original.second}`);
  await pick(page, file);
  const item = page.getByTestId("upload-item").filter({ hasText: "Закат.png" });
  await expect(item).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
  await expect(item.getByText("проверка на дубликаты…")).toBeVisible();
  release();

  await expect(item.getByText(/Такой файл уже есть:/)).toBeVisible({ timeout: 60_000 });
  await expect(item.getByRole("link", { name: "Закат.png" })).toHaveAttribute("href", `/asset/${original.assetId}`);
  await expect(item.getByRole("button", { name: "Оставить оба" })).toBeVisible();
  await expect(item.getByRole("button", { name: "Удалить загруженный" })).toBeVisible();
  const uploadedId = await item.getAttribute("data-asset");
  await item.getByRole("button", { name: "Сделать новой версией «Закат.png»" }).click();
  await expect(item.getByText("Файл стал версией 2 файла «Закат.png»")).toBeVisible();
  const versions = await client.call(`/api/asset/versions/${original.assetId}`);
  expect(versions.map((v: { version: number }) => v.version)).toContain(2);
  await expect
    .poll(async () => (await fetch(`${base}/api/asset/${uploadedId}`, { headers: { Authorization: `Bearer ${client.bearer}` } })).status)
    .toBe(404);
});

test("«Удалить загруженный» deletes the new copy and keeps the one that was there", async ({ page }) => {
  const client = new Client(base);
  await client.login(ADMIN.login, ADMIN.password);
  const file = await uniquePicture("Рассвет.png");
  const original = await seeded(client, file);
  await openSignedIn(page, ADMIN, `/mam/${original.second}`);
  await pick(page, file);
  const item = page.getByTestId("upload-item").filter({ hasText: "Рассвет.png" });
  await expect(item.getByText(/Такой файл уже есть:/)).toBeVisible({ timeout: 60_000 });
  const uploadedId = await item.getAttribute("data-asset");
  await item.getByRole("button", { name: "Удалить загруженный" }).click();
  await expect(item.getByText("Загруженный файл удалён")).toBeVisible();
  const status = async (id: string | null) =>
    (await fetch(`${base}/api/asset/${id}`, { headers: { Authorization: `Bearer ${client.bearer}` } })).status;
  expect(await status(uploadedId)).toBe(404);
  expect(await status(original.assetId)).toBe(200);
});

/**
 * A picture with structure (a random 16×12 grid of greys, smoothly enlarged), so its fingerprint is its own: a flat
 * picture hashes to all zeros and would match every other flat one.
 */
async function structuredPicture(name: string) {
  const file = path.join(dir, name);
  const grid = crypto.getRandomValues(new Uint8Array(16 * 12));
  await sharp(Buffer.from(grid), { raw: { width: 16, height: 12, channels: 1 } })
    .resize(640, 480, { kernel: "cubic" })
    .png()
    .toFile(file);
  return file;
}

test("«Похожие» in the viewer lists a picture's 50 % downscaled JPEG first, by the picture, and opens it", async ({ page }) => {
  const client = new Client(base);
  await client.login(ADMIN.login, ADMIN.password);
  const png = await structuredPicture("Витраж.png");
  const jpg = path.join(dir, "Витраж-уменьшенный.jpg");
  await sharp(png).resize(320, 240).jpeg({ quality: 80 }).toFile(jpg);
  const group = (
    await client.call("/api/group/create", {
      json: { parent: ROOT, group_name: `Похожие ${Date.now()}${Math.random().toString(36).slice(2, 6)}` },
    })
  ).group_id as string;
  const original = await client.upload(png, "image/png", group);
  const small = await client.upload(jpg, "image/jpeg", group);
  // The metadata task writes the SHA-256 and the fingerprints in one batch: known means fingerprinted.
  for (const { assetId } of [original, small])
    await expect.poll(async () => (await client.call(`/api/duplicates/of/${assetId}`)).known, { timeout: 60_000 }).toBe(true);

  await openSignedIn(page, ADMIN, `/mam/${group}/asset/${original.assetId}`);
  const section = page.getByRole("region", { name: "Похожие" });
  await expect(section.getByText("похожие по изображению")).toBeVisible({ timeout: 30_000 });
  const first = section.getByRole("listitem").first();
  await expect(first).toHaveAttribute("data-similar", small.assetId);
  await first.getByRole("link", { name: "Витраж-уменьшенный.jpg" }).click();
  await expect(page).toHaveURL(new RegExp(`/mam/${group}/asset/${small.assetId}$`));
  await expect(page.getByTestId("asset-title")).toHaveText("Витраж-уменьшенный.jpg");
  // And back the other way: the original is the JPEG's look-alike.
  await expect(page.getByRole("region", { name: "Похожие" }).getByRole("listitem").first()).toHaveAttribute(
    "data-similar",
    original.assetId,
  );
});
