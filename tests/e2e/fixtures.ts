import { test as base, expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";

export interface Account {
  login: string;
  password: string;
}

export const ADMIN: Account = { login: "admin", password: process.env.MAM_E2E_ADMIN_PASSWORD ?? "" };

/** Fills the sign-in form; the fields stay disabled until the page's script has taken over. */
export async function signInThroughForm(page: Page, login: string, password: string) {
  await page.getByLabel("Логин").fill(login);
  await page.getByLabel("Пароль").fill(password);
  await page.getByRole("button", { name: "Войти" }).click();
}

/**
 * Signs a browser context in without the form: the API answers the sign-in with the httpOnly refresh and
 * page-session cookies, which land in the context's cookie jar (its `request` shares it). The next page
 * restores the session through /api/auth/refresh, as after a reload.
 */
export async function signInByApi(context: BrowserContext, login: string, password: string) {
  const response = await context.request.post("/api/auth/login", { data: { user: login, passwd: password } });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * The tests' `test`: `test.use({ signedInAs: ADMIN })` signs each test's browser context in through the API
 * before its page opens. Each test gets a session of its own: the refresh cookie rotates on every use, so
 * one saved storage state could not serve two tests. Only the specs of the sign-in form type into it.
 */
export const test = base.extend<{ signedInAs: Account | null }>({
  signedInAs: [null, { option: true }],
  context: async ({ context, signedInAs }, use) => {
    if (signedInAs) await signInByApi(context, signedInAs.login, signedInAs.password);
    await use(context);
  },
});
export { expect };

/**
 * Opens `to` in a signed-in page and waits for the page's own refresh, which is how a loaded page restores its
 * session: the refresh rotates the cookie, and a navigation that cut it short would leave the spent cookie in
 * the jar, whose next use ends the session (decision 005). The screen's script has taken over by then, too.
 */
export async function gotoSignedIn(page: Page, to: string) {
  await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api/auth/refresh")), page.goto(to)]);
}

/**
 * Reloads a signed-in page and waits for its refresh, as gotoSignedIn does: until then the page is the server's HTML,
 * and what a test types into it before the script takes over is lost (a field emptied then kept its old filter).
 */
export async function reloadSignedIn(page: Page) {
  await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api/auth/refresh")), page.reload()]);
}

/** Signs the page's browser context in as `account` through the API (a session of its own), then opens `to`. */
export async function openSignedIn(page: Page, account: Account, to: string) {
  await signInByApi(page.context(), account.login, account.password);
  await gotoSignedIn(page, to);
}

/** A second browser context signed in as `account`, with a page open at `to`. */
export async function signedInPage(browser: Browser, account: Account, to = "/mam") {
  const context = await browser.newContext();
  const page = await context.newPage();
  await openSignedIn(page, account, to);
  return { context, page };
}

/**
 * The bearer the browser's session has now, for checks made with it from a test: read from the httpOnly
 * page-session cookie, which page scripts cannot see.
 */
export async function sessionBearer(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === "mam_page");
  expect(cookie, "the browser holds a page-session cookie").toBeTruthy();
  return cookie!.value;
}

/** A bearer for API set-up calls (data is seeded through the API, not by clicking through screens). */
export async function apiBearer(request: APIRequestContext, login: string, password: string): Promise<string> {
  const response = await request.post("/api/auth/login", { data: { user: login, passwd: password } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).bearer;
}

/** Creates an enabled non-admin user through POST /api/user as the admin; returns its credentials and id. */
export async function createPlainUser(request: APIRequestContext) {
  const bearer = await apiBearer(request, ADMIN.login, ADMIN.password);
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const user = { login: `user-${suffix}`, password: `Pw-${suffix}-long`, name: `Пользователь ${suffix}` };
  const response = await request.post("/api/user", {
    headers: { Authorization: `Bearer ${bearer}` },
    data: { user_name: user.name, user_login: user.login, user_passwd: user.password, enabled: true },
  });
  expect(response.ok(), `POST /api/user: ${response.status()} ${await response.text()}`).toBe(true);
  return { ...user, id: (await response.json()).user_id as string };
}
