import { expect, test } from "@playwright/test";

/** Relative luminance of a CSS rgb()/rgba() colour, 0 (black) … 1 (white). */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => Number(v) / 255);
  const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

test("the page is dark, before and after the script runs", async ({ page, browser }) => {
  await page.goto("/login");
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(luminance(background), background).toBeLessThan(0.05);

  // Without JavaScript: only the server-rendered HTML and CSS.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const noScript = await context.newPage();
  await noScript.goto("/login");
  const staticBackground = await noScript.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(luminance(staticBackground), staticBackground).toBeLessThan(0.05);
  await context.close();
});

test("an unknown path shows the Russian 404 page", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Страница не найдена" })).toBeVisible();
});

test("the short-link preview opens without signing in", async ({ page }) => {
  await page.goto("/sl/some-link");
  await expect(page).toHaveURL(/\/sl\/some-link$/);
  await expect(page.getByRole("heading", { name: "Просмотр по ссылке" })).toBeVisible();
});

test("/version.json names this build and the service worker is registered", async ({ page, request }) => {
  const version = await (await request.get("/version.json")).json();
  expect(version.version).toMatch(/^\d+\.\d+\.\d+/);
  expect(typeof version.build).toBe("string");

  await page.goto("/login");
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL ?? null))
    .toMatch(/\/sw\.js$/);
});
