import { ADMIN, createPlainUser, expect, gotoSignedIn, signInByApi, signInThroughForm, test } from "./fixtures";

// The sign-in form itself: these specs type into it; every other spec signs in through the API.

test("the admin signs in and lands on /mam", async ({ page }) => {
  await page.goto("/login");
  await signInThroughForm(page, ADMIN.login, ADMIN.password);
  await expect(page).toHaveURL(/\/mam$/);
  await expect(page.getByRole("heading", { name: "Файлы" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Администрирование" })).toBeVisible();
});

test("a wrong password shows the 'Ошибка' toast with the server's message", async ({ page }) => {
  await page.goto("/login");
  await signInThroughForm(page, ADMIN.login, "not-the-password");
  const toast = page.getByRole("alert").filter({ hasText: "Ошибка" });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText("Неверный логин или пароль");
  await expect(toast.getByRole("button", { name: "Копировать текст" })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("a signed-out visit to /jobs goes through /login?to=/jobs and back to /jobs", async ({ page }) => {
  await page.goto("/jobs");
  await expect(page).toHaveURL(/\/login\?to=%2Fjobs$/);
  await signInThroughForm(page, ADMIN.login, ADMIN.password);
  await expect(page).toHaveURL(/\/jobs$/);
  await expect(page.getByRole("heading", { name: "Задачи" })).toBeVisible();
});

test("a non-admin opening /admin lands on /mam", async ({ page, request }) => {
  const user = await createPlainUser(request);
  await signInByApi(page.context(), user.login, user.password);
  // The page's own refresh must land before the next navigation, or the spent refresh cookie ends the session.
  await gotoSignedIn(page, "/mam");
  await expect(page.getByRole("heading", { name: "Файлы" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Администрирование" })).toHaveCount(0);

  await page.goto("/admin");
  await expect(page).toHaveURL(/\/mam$/);
  await expect(page.getByRole("heading", { name: "Файлы" })).toBeVisible();
});

test("a signed-in user opening /login goes to /mam, and logout returns to the form", async ({ page }) => {
  await signInByApi(page.context(), ADMIN.login, ADMIN.password);
  await page.goto("/login");
  await expect(page).toHaveURL(/\/mam$/);

  await page.getByRole("button", { name: "Выйти" }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The refresh cookie is gone too: a reload stays signed out.
  await page.goto("/jobs");
  await expect(page).toHaveURL(/\/login\?to=%2Fjobs$/);
});

test("a reload keeps the session (tokens in the browser, refresh cookie)", async ({ page }) => {
  await page.goto("/login?to=%2Fsearch");
  await signInThroughForm(page, ADMIN.login, ADMIN.password);
  await expect(page).toHaveURL(/\/search$/);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Поиск" })).toBeVisible();
  await expect(page).toHaveURL(/\/search$/);
});
