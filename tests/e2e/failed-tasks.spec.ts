import type { APIRequestContext } from "@playwright/test";
import { ADMIN, apiBearer, expect, gotoSignedIn, test } from "./fixtures";

/** The failed tasks (dead letters) count on /admin and /jobs, and its link to the list (decision 044). */

test.use({ signedInAs: ADMIN });

/** A "video" that is not one: the transcoder's tasks on it end in error. */
async function uploadBrokenVideo(request: APIRequestContext, bearer: string) {
  const headers = { Authorization: `Bearer ${bearer}` };
  const post = async (url: string, data?: unknown) => {
    const r = await request.post(url, { headers, data });
    expect(r.ok(), `${url}: ${r.status()} ${await r.text()}`).toBe(true);
    return r.json();
  };
  const data = Buffer.from("not a video at all ".repeat(100));
  const name = `Битый ${Date.now().toString(36)}.mp4`;
  const { asset_id } = await post("/api/asset/create", { asset_name: name, asset_mime: "video/mp4" });
  const up = await post("/api/ul/start", { asset_id, size: data.length, name, mime: "video/mp4" });
  const [t] = await post(`/api/ul/${up.upload_id}/targets`, { parts: [1] });
  const put = await request.put(t.url, { data });
  expect(put.ok()).toBe(true);
  await post(`/api/ul/${up.upload_id}/parts/1`, { etag: put.headers().etag });
  await post(`/api/ul/${up.upload_id}/complete`);
}

const failedCount = async (request: APIRequestContext, bearer: string) => {
  const r = await request.get("/api/tasklist/current/count?status=error", { headers: { Authorization: `Bearer ${bearer}` } });
  return ((await r.json()) as { count: number }).count;
};

test("the admin area and /jobs show the failed tasks count with a link to them", async ({ page, request }) => {
  test.setTimeout(90_000);
  const bearer = await apiBearer(request, ADMIN.login, ADMIN.password);
  const before = await failedCount(request, bearer);
  await uploadBrokenVideo(request, bearer);
  await expect.poll(() => failedCount(request, bearer), { timeout: 60_000 }).toBeGreaterThan(before);
  const count = await failedCount(request, bearer);

  // The other tasks of the broken file may fail meanwhile: the figure shown is at least the one read.
  const shown = async () => Number(await page.getByTestId("failed-tasks").getByText(/^\d+$/).textContent());
  await gotoSignedIn(page, "/admin");
  await expect.poll(shown).toBeGreaterThanOrEqual(count);
  await gotoSignedIn(page, "/jobs");
  await expect.poll(shown).toBeGreaterThanOrEqual(count);
  await page.getByTestId("failed-tasks").getByRole("link").click();
  await expect(page).toHaveURL(/\/jobs\?status=error$/);
  await expect(page.getByRole("row").filter({ hasText: "Ошибка" }).first()).toBeVisible();
});
