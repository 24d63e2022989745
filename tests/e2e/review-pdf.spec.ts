import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { makeTextPages } from "../media/media";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, gotoSignedIn, openSignedIn, test } from "./fixtures";

/**
 * Comments on PDF pages in the viewer and on a review link's page (issue 38, docs/decisions/061-review-and-approval.md,
 * "PDF pages"), in Chromium against the real server: a three-page PDF whose pages the metadata job counts; a comment
 * on page 2 reads back as «стр. 2» after a reload, and a click on it opens the PDF at that page.
 */

const dir = mkdtempSync(path.join(tmpdir(), "mam-review-pdf-"));
const file = path.join(dir, "макет.pdf");
writeFileSync(file, makeTextPages([["Cover"], ["Contents"], ["Signatures"]]));

const thread = (page: Page, text: string) =>
  page.getByRole("list", { name: "Комментарии к версии" }).getByTestId("review-comment").filter({ hasText: text });

/** An uploaded PDF whose pages the transcoder has counted (the page field is bounded by them). */
async function countedPdf(title: string) {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique(title));
  const assetId = await seed.uploadInto(groupId, file, "application/pdf");
  await expect
    .poll(async () => (await seed.call(`/api/review/comments?asset_id=${assetId}`)).pages, { timeout: 150_000, intervals: [2000] })
    .toBe(3);
  return { seed, groupId, assetId };
}

test("a comment on page 2 reads back as «стр. 2» and opens the PDF at that page; «Страница» is bounded by the pages", async ({ page }) => {
  test.setTimeout(240_000);
  const { groupId, assetId } = await countedPdf("Страницы PDF");
  const at = `/mam/${groupId}/asset/${assetId}`;
  await openSignedIn(page, ADMIN, at);
  const frame = page.locator('iframe[title="макет.pdf"]');
  // The first look after opening waits longer: the screen loads slowly on a busy machine.
  await expect(frame).toBeVisible({ timeout: 30_000 });
  expect(await frame.getAttribute("src")).not.toContain("#page=");

  const field = page.getByRole("textbox", { name: "Страница" });
  await expect(field).toHaveValue("1");
  await expect(page.getByText("из 3")).toBeVisible();
  await page.getByRole("textbox", { name: "Текст комментария" }).fill("Поля на второй странице узкие");
  const send = page.getByRole("button", { name: "Комментарий", exact: true });
  // Past the last page: said under the field, and nothing can be sent.
  await field.fill("5");
  await expect(page.getByText("Номер страницы от 1 до 3")).toBeVisible();
  await expect(send).toBeDisabled();
  await field.fill("2");
  await expect(send).toBeEnabled();
  await send.click();
  await expect(thread(page, "Поля на второй странице узкие").getByTestId("review-page")).toHaveText("стр. 2");

  // A second comment, on page 3, to go back and forth between the two.
  await page.getByRole("textbox", { name: "Текст комментария" }).fill("Подпись на последней");
  await field.fill("3");
  await send.click();
  await expect(thread(page, "Подпись на последней").getByTestId("review-page")).toHaveText("стр. 3");

  await gotoSignedIn(page, at);
  const second = thread(page, "Поля на второй странице узкие");
  const third = thread(page, "Подпись на последней");
  await expect(second.getByTestId("review-page")).toHaveText("стр. 2", { timeout: 30_000 });
  await expect(third.getByTestId("review-page")).toHaveText("стр. 3");
  // The API's order: by page.
  await expect(page.getByTestId("review-page")).toHaveText(["стр. 2", "стр. 3"]);
  await expect(field).toHaveValue("1");

  // The frame shown before the click is marked: an opening must load a new one (the viewer reads #page= on load).
  await frame.evaluate((el) => el.setAttribute("data-before", "yes"));
  await second.getByRole("button", { name: "Открыть стр. 2: Поля на второй странице узкие" }).click();
  await expect(frame).toHaveAttribute("src", /#page=2$/);
  await expect(frame).not.toHaveAttribute("data-before", "yes");
  // The comment box follows the page opened.
  await expect(field).toHaveValue("2");

  await third.getByRole("button", { name: /^Открыть стр\. 3/ }).click();
  await expect(frame).toHaveAttribute("src", /#page=3$/);
  await expect(field).toHaveValue("3");
  // The same page again is a new opening too (the user may have scrolled away inside the viewer).
  await frame.evaluate((el) => el.setAttribute("data-before", "yes"));
  await third.getByRole("button", { name: /^Открыть стр\. 3/ }).click();
  await expect(frame).not.toHaveAttribute("data-before", "yes");
  await expect(frame).toHaveAttribute("src", /#page=3$/);
});

test("a review link's guest sees the PDF's pages as pictures and comments on a page; the team's viewer shows «стр. N»", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const { seed, groupId, assetId } = await countedPdf("Страницы PDF гостю");
  const address = `guest-${unique("").trim().toLowerCase()}@outside.example`;
  const asked = await seed.call("/api/review/requests", { json: { asset_id: assetId, reviewers: [address] } });
  const guestContext = await browser.newContext();
  try {
    const guest = await guestContext.newPage();
    await guest.goto(asked.links[0].url);
    await expect(guest.getByRole("heading", { name: "макет.pdf" })).toBeVisible({ timeout: 30_000 });
    await guest.getByLabel("Ваше имя").fill("Пётр Гостев");
    await guest.getByRole("button", { name: "Продолжить" }).click();
    await expect(guest.getByText("Вы — Пётр Гостев")).toBeVisible();
    const field = guest.getByRole("spinbutton", { name: "Страница" });
    await expect(field).toHaveValue("1");
    await guest.getByRole("textbox", { name: "Комментарий", exact: true }).fill("Нумерация страниц сбита");
    await field.fill("3");
    await guest.getByRole("button", { name: "Комментарий", exact: true }).click();
    const mine = guest.getByTestId("guest-comment").filter({ hasText: "Нумерация страниц сбита" });
    await expect(mine.getByTestId("guest-page")).toHaveText("стр. 3");

    // The link shows the PDF's proxy (decision 073): its three pages as pictures, none of the original's text.
    const frame = guest.locator('iframe[title="макет.pdf"]');
    await expect(frame).toBeVisible({ timeout: 150_000 });
    const src = (await frame.getAttribute("src"))!;
    expect(src).toMatch(/\/api\/sl\/[^/]+\/play$/);
    const shown = await guestContext.request.get(src);
    expect(shown.headers()["content-type"]).toBe("application/pdf");
    const doc = await getDocumentProxy(new Uint8Array(await shown.body()));
    expect(doc.numPages).toBe(3);
    expect((await extractText(doc, { mergePages: true })).text.trim()).toBe("");
    // A click on the comment's page opens the PDF there, in a new frame (the viewer reads #page= on load).
    await frame.evaluate((el) => el.setAttribute("data-before", "yes"));
    await mine.getByRole("button", { name: "стр. 3" }).click();
    await expect(frame).toHaveAttribute("src", /\/play#page=3$/);
    await expect(frame).not.toHaveAttribute("data-before", "yes");
  } finally {
    await guestContext.close();
  }
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);
  await expect(thread(page, "Нумерация страниц сбита").getByTestId("review-page")).toHaveText("стр. 3", { timeout: 30_000 });
});

test("a share link to a PDF shows its pages as pictures on the link's page", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const { seed, assetId } = await countedPdf("PDF по ссылке");
  // The share page is the server's HTML: it is opened once the proxy is there.
  await expect
    .poll(async () => (await seed.call(`/api/asset/variants/${assetId}/1`)).map((v: { variant_type: string }) => v.variant_type), {
      timeout: 150_000,
      intervals: [2000],
    })
    .toContain("proxy_lowres");
  const made = await request.post(`/api/sl/create/${assetId}`, {
    headers: { Authorization: `Bearer ${seed.bearer}` },
    data: { acl: ["view"] },
  });
  expect(made.status(), await made.text()).toBe(200);
  const visitor = await browser.newContext();
  try {
    const page = await visitor.newPage();
    await page.goto(`/sl/${await made.text()}`);
    await expect(page.getByRole("heading", { name: "макет.pdf" })).toBeVisible({ timeout: 30_000 });
    const frame = page.locator('iframe[title="макет.pdf"]');
    await expect(frame).toHaveAttribute("src", /^\/api\/sl\/[^/]+\/play$/);
    const shown = await visitor.request.get((await frame.getAttribute("src"))!);
    expect(shown.headers()["content-type"]).toBe("application/pdf");
    expect((await getDocumentProxy(new Uint8Array(await shown.body()))).numPages).toBe(3);
    // A view-only link offers no download of the original.
    await expect(page.getByRole("link", { name: "Скачать", exact: true })).toHaveCount(0);
  } finally {
    await visitor.close();
  }
});
