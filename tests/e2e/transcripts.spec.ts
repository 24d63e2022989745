import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { makeClip } from "../media/media";
import { base, Seeder, unique } from "./browse-seed";
import { ADMIN, expect, openSignedIn, test } from "./fixtures";

/**
 * The viewer's transcript in Chromium (docs/decisions/059-transcripts.md): a real clip uploaded through /api/ul,
 * a Russian SRT imported through the API; the <video> carries it as a subtitle track, the panel follows and
 * seeks the player, an edit is saved as `edit`, ?t= opens at a time, and a new version takes the transcript over.
 */

// Each test uploads a clip and opens the viewer more than once: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });

const dir = mkdtempSync(path.join(tmpdir(), "mam-transcripts-"));
const clip = makeClip(path.join(dir, "интервью.mp4"), 6, 320, 240);

const srt = `1
00:00:00,500 --> 00:00:02,000
Добрый день, коллеги.

2
00:00:03,000 --> 00:00:04,500
Сегодня говорим о кошках.

3
00:00:05,000 --> 00:00:05,900
До свидания.
`;

async function importSrt(seed: Seeder, assetId: string) {
  const res = await fetch(`${base}/api/transcripts/${assetId}/import?language=ru`, {
    method: "POST",
    body: srt,
    headers: { "Content-Type": "application/x-subrip", Authorization: `Bearer ${seed.bearer}` },
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** Another version of an asset: the same upload protocol as Client.upload, into the existing asset. */
async function uploadVersion(seed: Seeder, assetId: string, file: string) {
  const data = readFileSync(file);
  const up = await seed.call("/api/ul/start", {
    json: { asset_id: assetId, size: data.length, name: path.basename(file), mime: "video/mp4" },
  });
  const targets = await seed.call(`/api/ul/${up.upload_id}/targets`, {
    json: { parts: Array.from({ length: up.part_count }, (_, i) => i + 1) },
  });
  for (const t of targets) {
    const chunk = data.subarray((t.part - 1) * up.part_size, (t.part - 1) * up.part_size + t.size);
    const res = await fetch(t.url, { method: "PUT", body: chunk, headers: { "Content-Length": String(chunk.length) } });
    expect(res.ok).toBe(true);
    await seed.call(`/api/ul/${up.upload_id}/parts/${t.part}`, { json: { etag: res.headers.get("ETag") } });
  }
  return (await seed.call(`/api/ul/${up.upload_id}/complete`, { method: "POST" })).version as number;
}

const currentTime = (video: Locator) => video.evaluate((el: HTMLVideoElement) => el.currentTime);

/** The video's subtitle track as the browser loaded it: its mode and cue texts. */
const subtitleTrack = (video: Locator) =>
  video.evaluate((el: HTMLVideoElement) => {
    const track = Array.from(el.textTracks).find((t) => t.kind === "subtitles");
    return track ? { mode: track.mode, cues: Array.from(track.cues ?? []).map((c) => (c as VTTCue).text) } : null;
  });

const segmentsList = (page: Page) => page.getByRole("list", { name: "Фрагменты расшифровки" });

async function videoWithTranscript() {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Расшифровки"));
  const assetId = await seed.uploadInto(groupId, clip, "video/mp4");
  await importSrt(seed, assetId);
  return { seed, groupId, assetId };
}

test("the transcript is the video's subtitle track and a panel that follows, seeks, searches and saves edits", async ({ page }) => {
  const { seed, groupId, assetId } = await videoWithTranscript();
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);

  const video = page.locator("video");
  await expect(video).toBeVisible();
  // The track is there from the start, loaded through its signed link, and showing.
  await expect(video.locator("track[kind=subtitles]")).toHaveCount(1);
  await expect
    .poll(() => subtitleTrack(video), { timeout: 15_000 })
    .toEqual({ mode: "showing", cues: ["Добрый день, коллеги.", "Сегодня говорим о кошках.", "До свидания."] });
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  // At 1 s the first cue is the one the player draws.
  await video.evaluate((el: HTMLVideoElement) => {
    el.currentTime = 1;
  });
  await expect
    .poll(() => video.evaluate((el: HTMLVideoElement) => Array.from(el.textTracks[0]?.activeCues ?? []).map((c) => (c as VTTCue).text)))
    .toEqual(["Добрый день, коллеги."]);

  // The panel lists the segments; the one under the playhead is highlighted.
  const rows = segmentsList(page).getByRole("listitem");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0).getByTestId("transcript-segment")).toHaveAttribute("aria-current", "true");

  // A click on the second segment seeks the video to its start.
  await rows
    .nth(1)
    .getByRole("button", { name: /Сегодня говорим о кошках/ })
    .click();
  await expect.poll(() => currentTime(video)).toBeCloseTo(3, 1);
  await expect(rows.nth(1).getByTestId("transcript-segment")).toHaveAttribute("aria-current", "true");

  // «Субтитры» hides the track and shows it again.
  // (The switch's input is drawn over by its track: a user clicks the label.)
  const toggle = page.getByRole("switch", { name: "Субтитры" });
  const toggleLabel = page.getByText("Субтитры", { exact: true });
  await toggleLabel.click();
  await expect(toggle).not.toBeChecked();
  await expect.poll(async () => (await subtitleTrack(video))?.mode).toBe("hidden");
  await toggleLabel.click();
  await expect(toggle).toBeChecked();
  await expect.poll(async () => (await subtitleTrack(video))?.mode).toBe("showing");

  // Search inside the transcript: another case, the list narrows to the match.
  const search = page.getByRole("searchbox", { name: "Поиск по расшифровке" });
  await search.fill("КОШК");
  await expect(rows).toHaveCount(1);
  await expect(rows.first().locator("mark")).toHaveText("кошк");
  await expect(page.getByTestId("transcript-found")).toHaveText("1 из 3");
  await search.fill("");
  await expect(rows).toHaveCount(3);

  // An edit is saved through PATCH as the source `edit`, and the subtitles show the new text.
  await page.getByRole("button", { name: "Исправить 00:00:03" }).click();
  const text = page.getByRole("textbox", { name: "Текст фрагмента" });
  await expect(text).toHaveValue("Сегодня говорим о кошках.");
  await text.fill("Сегодня говорим о собаках.");
  await page.getByTestId("transcript-edit").getByRole("button", { name: "Сохранить" }).click();
  await expect(rows.nth(1)).toContainText("Сегодня говорим о собаках.");
  await expect(page.getByTestId("transcript-source")).toHaveText("исправлена");
  const saved = await seed.call(`/api/transcripts/${assetId}`);
  expect(saved.source).toBe("edit");
  expect(saved.segments.map((s: { text: string }) => s.text)).toEqual([
    "Добрый день, коллеги.",
    "Сегодня говорим о собаках.",
    "До свидания.",
  ]);
  await expect
    .poll(async () => (await subtitleTrack(video))?.cues, { timeout: 15_000 })
    .toEqual(["Добрый день, коллеги.", "Сегодня говорим о собаках.", "До свидания."]);
});

test("?t= opens the viewer at that time", async ({ page }) => {
  const { groupId, assetId } = await videoWithTranscript();
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}?t=3.5`);
  const video = page.locator("video");
  await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeCloseTo(3.5, 1);
  await expect(segmentsList(page).getByRole("listitem").nth(1).getByTestId("transcript-segment")).toHaveAttribute("aria-current", "true");
});

test("a new version takes the previous one's transcript over with «Перенести расшифровку»; «Распознать» says when there is no recogniser", async ({
  page,
}) => {
  const { seed, groupId, assetId } = await videoWithTranscript();
  expect(await uploadVersion(seed, assetId, clip)).toBe(2);
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);

  const panel = page.getByRole("region", { name: "Расшифровка" });
  await expect(panel).toContainText("У этой версии нет расшифровки");
  await expect(page.locator("video track")).toHaveCount(0);
  // The Worker under test has no recogniser configured: the button says so.
  const recognizeButton = panel.getByRole("button", { name: "Распознать" });
  await recognizeButton.click();
  await expect(panel.getByRole("button", { name: "Распознавание речи не настроено" })).toBeDisabled();

  await panel.getByRole("button", { name: "Перенести расшифровку" }).click();
  await expect(segmentsList(page).getByRole("listitem")).toHaveCount(3);
  const copied = await seed.call(`/api/transcripts/${assetId}?version=2`);
  expect(copied).toMatchObject({ version: 2, language: "ru", source: "import" });
  const video = page.locator("video");
  await expect(video.locator("track[kind=subtitles]")).toHaveCount(1);
  await expect.poll(async () => (await subtitleTrack(video))?.cues.length, { timeout: 15_000 }).toBe(3);
});
