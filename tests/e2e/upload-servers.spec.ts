import type { APIRequestContext, Page } from "@playwright/test";
import { VIRTUAL_ROOT_ID as ROOT } from "../../shared/lib/constants";
import { ADMIN, apiBearer, expect, openSignedIn, test } from "./fixtures";

/**
 * Upload servers in Chromium (docs/decisions/041-upload-servers.md). playwright.config.ts gives the Worker two other
 * servers: itself as another origin (localhost) and one that never answers. The page pings each, reports the pings,
 * sends the file to the fastest, and goes on through the Worker when that one stops answering.
 */

const port = process.env.MAM_E2E_PORT ?? "8790";
const worker = `http://127.0.0.1:${port}`;
const second = `http://localhost:${port}`;

async function adminJson(request: APIRequestContext, method: "GET" | "POST", path: string, data?: unknown) {
  const bearer = await apiBearer(request, ADMIN.login, ADMIN.password);
  const res = await request.fetch(path, { method, data, headers: { Authorization: `Bearer ${bearer}` } });
  expect(res.ok(), `${method} ${path}: ${res.status()}`).toBe(true);
  return res.json();
}

async function openNewGroup(page: Page, request: APIRequestContext) {
  const name = `Загрузки ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const group = (await adminJson(request, "POST", "/api/group/create", { parent: ROOT, group_name: name })).group_id as string;
  await openSignedIn(page, ADMIN, `/mam/${group}`);
  return group;
}

async function pickFile(page: Page, name: string) {
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Загрузить файлы" }).click()]);
  await chooser.setFiles({ name, mimeType: "text/plain", buffer: Buffer.from(`содержимое ${name}`) });
}

/** Picks a file and waits until its upload is complete (the protocol's last call, from whichever server). */
async function upload(page: Page, name: string) {
  const completed = page.context().waitForEvent("response", (r) => /\/api\/ul\/[^/]+\/complete$/.test(r.url()) && r.ok());
  await pickFile(page, name);
  await completed;
}

/**
 * The Worker's own ping answers late, so the second server is clearly faster: by 1.5 s, which a busy machine does not
 * make up (with 0.6 s, two browser workers beside other suites once let the Worker win), and under the page's 3 s limit.
 */
async function slowWorkerPing(page: Page) {
  await page.context().route(`${worker}/api/ul/ping`, async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
}

test("the page pings the servers, reports them and uploads to the fastest", async ({ page, request }) => {
  await slowWorkerPing(page);
  await openNewGroup(page, request);
  const reports: { id: string; ping: number }[] = [];
  const protocol: string[] = [];
  page.context().on("request", (r) => {
    if (r.url().endsWith("/api/uldl-status")) reports.push(r.postDataJSON());
    if (r.url().includes("/api/ul/") && !r.url().endsWith("/ping")) protocol.push(new URL(r.url()).origin);
  });
  await upload(page, "ближний.txt");
  await expect(page.getByRole("link", { name: "ближний.txt" }).first()).toBeVisible();
  expect(reports.map((r) => r.id).sort()).toEqual(["second", "worker"]);
  expect(protocol.length).toBeGreaterThan(0);
  expect(new Set(protocol)).toEqual(new Set([second]));
});

test("when the chosen server stops answering, the upload goes on through the Worker", async ({ page, request }) => {
  await slowWorkerPing(page);
  await openNewGroup(page, request);
  const protocol: string[] = [];
  page.context().on("request", (r) => {
    if (r.url().includes("/api/ul/") && !r.url().endsWith("/ping")) protocol.push(new URL(r.url()).origin);
  });
  // Chosen by its ping, the second server then refuses every protocol call.
  await page.context().route(new RegExp(`^${second}/api/ul/(?!ping)`), (route) => route.abort("connectionrefused"));
  await upload(page, "запасной.txt");
  await expect(page.getByRole("link", { name: "запасной.txt" }).first()).toBeVisible();
  expect(protocol).toContain(second);
  expect(protocol).toContain(worker);
});
