import { ADMIN, expect, signInByApi, test } from "./fixtures";

const CONTENT_URL = "/api/asset/content/download/00000000-0000-4000-8000-000000000001/1/1";

test("the service worker signs media requests under /api/asset/content/", async ({ page, request }) => {
  // Without a bearer the API refuses the call outright.
  expect((await request.get(CONTENT_URL)).status()).toBe(401);

  await signInByApi(page.context(), ADMIN.login, ADMIN.password);
  await page.goto("/mam");
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  // mode 'no-cors' is what <img>/<video> send; the page itself adds no Authorization header.
  await expect.poll(() => page.evaluate((url) => fetch(url, { mode: "no-cors" }).then((r) => r.status), CONTENT_URL)).not.toBe(401);
});

test.describe("version check", () => {
  // page.route cannot see requests while a service worker controls the page.
  test.use({ serviceWorkers: "block" });

  test("a new build on the server opens the reload offer after 5 minutes", async ({ page }) => {
    await page.clock.install();
    await page.route("**/version.json*", (route) => route.fulfill({ json: { version: "9.9.9", build: "another-build" } }));
    await page.goto("/login");
    await expect(page.getByLabel("Логин")).toBeEnabled();

    await page.clock.fastForward("05:01");
    const dialog = page.getByRole("dialog", { name: "Доступна новая версия" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Обновить" })).toBeVisible();
    await dialog.getByRole("button", { name: "Позже" }).click();
    await expect(dialog).toBeHidden();
  });

  test("a failed version fetch says 'Не удалось загрузить версию'", async ({ page }) => {
    await page.clock.install();
    await page.route("**/version.json*", (route) => route.abort());
    await page.goto("/login");
    await expect(page.getByLabel("Логин")).toBeEnabled();

    await page.clock.fastForward("05:01");
    await expect(page.getByRole("alert").filter({ hasText: "Не удалось загрузить версию" })).toBeVisible();
  });
});
