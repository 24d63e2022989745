import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { fetchFresh } from "../shared/fetch-fresh";
import { ADMIN, expect, openSignedIn, test } from "./fixtures";

/**
 * Share links in Chromium: an admin makes a password link on the asset info screen and copies it; a
 * signed-out browser unlocks it, sees the player and downloads the same bytes; with JavaScript off the
 * page still shows the file, takes the password and downloads. Data is seeded through the API from Node.
 */

const base = `http://127.0.0.1:${process.env.MAM_E2E_PORT ?? "8790"}`;
const bytes = new Uint8Array(300_000).map((_, i) => (i * 7919) % 256);

async function apiCall(bearer: string, path: string, body?: unknown, raw?: BodyInit) {
  const res = await fetchFresh(base + path, {
    method: body === undefined && raw === undefined ? "GET" : raw ? "PUT" : "POST",
    headers: raw ? {} : { "Content-Type": "application/json", Authorization: `Bearer ${bearer}` },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
  return { text, json: () => JSON.parse(text), etag: res.headers.get("ETag") };
}

/**
 * An asset with a video "file" and a proxy of it (a share link's player shows a proxy, never the
 * original), uploaded through the client protocol (start, targets, PUT parts, complete).
 */
async function seedVideo(name: string) {
  const login = await fetchFresh(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ user: ADMIN.login, passwd: ADMIN.password }),
  });
  const { bearer } = (await login.json()) as { bearer: string };
  const { asset_id } = (await apiCall(bearer, "/api/asset/create", { asset_name: name, asset_mime: "video/mp4" })).json();
  for (const extra of [{}, { version: 1, variant_type: "proxy_lowres" }]) {
    const up = (await apiCall(bearer, "/api/ul/start", { asset_id, size: bytes.length, name, mime: "video/mp4", ...extra })).json();
    const targets = (
      await apiCall(bearer, `/api/ul/${up.upload_id}/targets`, { parts: Array.from({ length: up.part_count }, (_, i) => i + 1) })
    ).json();
    for (const t of targets as { part: number; url: string; size: number }[]) {
      const chunk = bytes.slice((t.part - 1) * up.part_size, (t.part - 1) * up.part_size + t.size);
      const put = await fetchFresh(new URL(t.url, base), { method: "PUT", body: chunk });
      if (!put.ok) throw new Error(`part ${t.part}: ${put.status}`);
      await put.arrayBuffer(); // an unread body holds its socket
      await apiCall(bearer, `/api/ul/${up.upload_id}/parts/${t.part}`, { etag: put.headers.get("ETag") });
    }
    await apiCall(bearer, `/api/ul/${up.upload_id}/complete`, {});
  }
  return { bearer, assetId: asset_id as string };
}

async function downloadBytes(page: Page) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Скачать", exact: true }).click()]);
  return new Uint8Array(readFileSync((await download.path())!));
}

test.describe("share links", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("an admin shares with a password; a signed-out browser unlocks, plays and downloads identical bytes", async ({ page, browser }) => {
    const { assetId } = await seedVideo("Ролик для ссылки.mp4");
    await openSignedIn(page, ADMIN, `/asset/${assetId}`);
    const panel = page.getByRole("region", { name: "Поделиться" });
    await expect(panel).toBeVisible();
    await panel.getByLabel("Пароль (необязательно)").fill("1234567");
    await expect(panel.getByText("Пароль не короче 8 символов")).toBeVisible();
    await expect(panel.getByRole("button", { name: "Создать ссылку" })).toBeDisabled();
    await panel.getByLabel("Пароль (необязательно)").fill("пароль-e2e");
    await panel.getByRole("button", { name: "Создать ссылку" }).click();
    await expect(panel.getByTestId("share-link-url")).toContainText("/sl/");
    await panel.getByRole("button", { name: "Копировать ссылку" }).first().click();
    const url = await page.evaluate(() => navigator.clipboard.readText());
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sl\/[0-9A-Za-z]{22}$/);
    await expect(panel.getByText("с паролем")).toBeVisible();

    const visitor = await browser.newContext();
    const v = await visitor.newPage();
    await v.goto(url);
    await expect(v.getByRole("heading", { name: "Файл защищён паролем" })).toBeVisible();
    await expect(v.getByText("Ролик для ссылки.mp4")).toHaveCount(0);
    await v.getByLabel("Пароль").fill("не тот");
    await v.getByRole("button", { name: "Открыть" }).click();
    await expect(v.getByRole("alert")).toHaveText("Неверный пароль");
    await v.getByLabel("Пароль").fill("пароль-e2e");
    await v.getByRole("button", { name: "Открыть" }).click();
    await expect(v.getByRole("heading", { name: "Ролик для ссылки.mp4" })).toBeVisible();
    const video = v.locator("video");
    await expect(video).toBeVisible();
    const src = await video.getAttribute("src");
    const ranged = await v.request.get(src!, { headers: { Range: "bytes=0-99" } });
    expect(ranged.status()).toBe(206);
    expect(await downloadBytes(v)).toEqual(bytes);
    await visitor.close();
  });

  test("with JavaScript off the page shows the file, takes the password and downloads", async ({ browser }) => {
    const { bearer, assetId } = await seedVideo("Без скриптов.mp4");
    const open = (await apiCall(bearer, `/api/sl/create/${assetId}`, { acl: ["view", "download_original"] })).text;
    const locked = (await apiCall(bearer, `/api/sl/create/${assetId}`, { acl: ["view", "download_original"], password: "пароль-без-js" }))
      .text;

    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const res = await page.goto(`/sl/${open}`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["cache-control"]).toBe("public, max-age=60, s-maxage=60");
    await expect(page.getByRole("heading", { name: "Без скриптов.mp4" })).toBeVisible();
    await expect(page.getByText("292,97 КБ")).toBeVisible();
    await expect(page.locator("video")).toBeVisible();
    expect(await downloadBytes(page)).toEqual(bytes);

    const lockedRes = await page.goto(`/sl/${locked}`);
    expect(lockedRes?.headers()["cache-control"]).toBe("private, no-store");
    await page.getByLabel("Пароль").fill("пароль-без-js");
    await page.getByRole("button", { name: "Открыть" }).click();
    await expect(page.getByRole("heading", { name: "Без скриптов.mp4" })).toBeVisible();
    expect(await downloadBytes(page)).toEqual(bytes);

    const gone = await page.goto("/sl/AAAAAAAAAAAAAAAAAAAAAA");
    expect(gone?.status()).toBe(404);
    await expect(page.getByText("Ссылка не найдена. Проверьте адрес.")).toBeVisible();
    await context.close();
  });
});
