import type { Browser, Page } from "@playwright/test";
import { ADMIN, apiBearer, expect, sessionBearer, signedInPage, test } from "./fixtures";
import { startOidcProvider } from "./oidc-provider";
import { OIDC_ISSUER, SSO_PROVIDER } from "./sso-env";

/**
 * Single sign-on end to end: Chromium, the Worker under `npm start` (SSO_PROVIDERS from the config) and a
 * real OpenID provider (oidc-provider) on 127.0.0.1. Serial: the provider listens on one fixed port.
 */
test.describe.configure({ mode: "serial" });

let provider: { close: () => Promise<void> };
test.beforeAll(async ({}, info) => {
  provider = await startOidcProvider(String(info.project.use.baseURL));
});
test.afterAll(async () => {
  await provider?.close();
});

const newLogin = () => `sso-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** At the provider's development pages: any password, then consent when it asks. */
async function signInAtProvider(page: Page, login: string) {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any-password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  const consent = page.getByRole("button", { name: "Continue" });
  await expect.poll(async () => !page.url().startsWith(OIDC_ISSUER) || (await consent.isVisible())).toBe(true);
  if (page.url().startsWith(OIDC_ISSUER)) await consent.click();
}

/** The signed-in user, asked with the bearer of the browser's session. */
async function whoami(page: Page): Promise<{ id: string; name: string; is_admin: boolean }> {
  const bearer = await sessionBearer(page);
  return page.evaluate(async (b) => (await fetch("/api/auth/whoami", { headers: { Authorization: `Bearer ${b}` } })).json(), bearer);
}

async function ssoSignIn(page: Page, login: string, wanted = "/jobs") {
  await page.goto(wanted);
  await expect(page).toHaveURL(`/login?to=${encodeURIComponent(wanted)}`);
  await page.getByRole("link", { name: SSO_PROVIDER.title }).click();
  await signInAtProvider(page, login);
}

/** A new user made by a first single sign-on in a page of its own; answers its login and id. */
async function newSsoUser(browser: Browser) {
  const login = newLogin();
  const page = await browser.newPage();
  await ssoSignIn(page, login, "/jobs");
  await expect(page).toHaveURL(/\/jobs$/);
  const { id } = await whoami(page);
  await page.context().close();
  return { login, id };
}

const errorToast = (page: Page, text: string) => page.getByRole("alert").filter({ hasText: "Ошибка" }).filter({ hasText: text });

test("the provider's button signs a new user in and lands on the wanted path; the next sign-in is the same user", async ({ browser }) => {
  const login = newLogin();
  const first = await browser.newPage();
  await ssoSignIn(first, login, "/jobs");
  await expect(first).toHaveURL(/\/jobs$/);
  await expect(first.getByRole("heading", { name: "Задачи" })).toBeVisible();
  const user = await whoami(first);
  expect(user).toMatchObject({ name: `SSO ${login}`, is_admin: false });
  // The refresh cookie came with the exchange: a reload keeps the session.
  await first.reload();
  await expect(first.getByRole("heading", { name: "Задачи" })).toBeVisible();
  await first.context().close();

  const second = await browser.newPage();
  await ssoSignIn(second, login, "/search");
  await expect(second).toHaveURL(/\/search$/);
  expect((await whoami(second)).id).toBe(user.id);
  await second.context().close();
});

test("cancelling at the provider lands on /login with a Russian toast and no session", async ({ page }) => {
  await page.goto("/search");
  await page.getByRole("link", { name: SSO_PROVIDER.title }).click();
  await page.getByRole("link", { name: "[ Cancel ]" }).click();
  await expect(errorToast(page, "Вход отменён у провайдера")).toBeVisible();
  await expect(page).toHaveURL(/\/login\?to=%2Fsearch$/);
  await page.goto("/jobs");
  await expect(page).toHaveURL(/\/login\?to=%2Fjobs$/);
});

test("a forged state, a replayed code and a used one-time code are refused with a toast", async ({ page }) => {
  await page.goto("/api/auth/sso-cb/testidp?code=made-up&state=forged");
  await expect(errorToast(page, "Сеанс входа устарел или подделан")).toBeVisible();

  // A real sign-in; its callback URL (code and state) is kept.
  let callback = "";
  let handOver = "";
  page.on("request", (r) => {
    if (r.url().includes("/api/auth/sso-cb/")) callback = r.url();
    if (r.url().includes("/login?token=")) handOver = r.url();
  });
  await ssoSignIn(page, newLogin(), "/jobs");
  await expect(page).toHaveURL(/\/jobs$/);
  const code = new URL(callback).searchParams.get("code")!;

  // The same code under a fresh state of this browser: the provider refuses it, so the Worker does.
  const start = await page.request.get("/api/auth/sso/testidp?to=%2Fsearch", { maxRedirects: 0 });
  const state = new URL(start.headers().location).searchParams.get("state")!;
  // Signed out again (the sign-in cookie binding the flow to this browser stays), so /login shows its form.
  await page.context().clearCookies({ name: "mam_refresh" });
  await page.context().clearCookies({ name: "mam_page" });
  await page.goto(`/api/auth/sso-cb/testidp?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`);
  await expect(errorToast(page, "Провайдер не подтвердил вход")).toBeVisible();
  await expect(page).toHaveURL(/\/login\?to=%2Fsearch$/);

  // The one-time code of the first sign-in, opened again: already used, so the form stays.
  await page.goto(handOver);
  await expect(errorToast(page, "Код входа недействителен или истёк")).toBeVisible();
  await expect(page).toHaveURL(/\/login\?to=%2Fjobs$/);
});

test("a user disabled by the admin cannot sign in by single sign-on", async ({ browser, request }) => {
  const { login, id } = await newSsoUser(browser);

  const admin = await apiBearer(request, ADMIN.login, ADMIN.password);
  const patched = await request.patch(`/api/user/${id}`, { headers: { Authorization: `Bearer ${admin}` }, data: { enabled: false } });
  expect(patched.status()).toBe(200);

  const second = await browser.newPage();
  await ssoSignIn(second, login, "/jobs");
  await expect(errorToast(second, "Учётная запись отключена")).toBeVisible();
  await expect(second).toHaveURL(/\/login\?to=%2Fjobs$/);
  await second.context().close();
});

test("the admin sees a user's provider link on the user's screen and unlinks it", async ({ browser, request }) => {
  const { id } = await newSsoUser(browser);

  const { page } = await signedInPage(browser, ADMIN, `/admin/user/${id}`);
  await expect(page).toHaveURL(new RegExp(`/admin/user/${id}/actives$`));
  const row = page.getByRole("row").filter({ hasText: SSO_PROVIDER.title });
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: "Отвязать" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Отвязать" }).click();
  await expect(page.getByText("Не привязан ни к одному провайдеру")).toBeVisible();

  const admin = await apiBearer(request, ADMIN.login, ADMIN.password);
  const links = await request.get(`/api/user/${id}/sso-links`, { headers: { Authorization: `Bearer ${admin}` } });
  expect(await links.json()).toEqual([]);
  await page.context().close();
});
