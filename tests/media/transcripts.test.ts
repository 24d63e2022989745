import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { endedRuns, until, workflowOf } from "../e2e-api/runtime";
import { type Client, makeClip, mediaClient } from "./media";
import { type ReceivedPiece, SPOKEN } from "./recogniser-stand-in";

/**
 * Speech recognition end to end under `npm start` (docs/decisions/059-transcripts.md): «Распознать» queues the task
 * «Расшифровка», the real transcoder makes 16 kHz mono pieces of the stored video with real ffmpeg and sends them to
 * the endpoint TRANSCRIBE_URL names (a stand-in answering as whisper-1 does, tests/media/recogniser-stand-in.ts), and
 * the transcript it reports back is the version's, found by search in another form of a word, at its time.
 */
const dir = mkdtempSync(path.join(tmpdir(), "mam-asr-"));
let client: Client;

beforeAll(async () => {
  ({ client } = await mediaClient());
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("recognising a video's speech", () => {
  it("goes through the queue and the transcoder to the endpoint, and the transcript is saved and found by search", async () => {
    const clip = makeClip(path.join(dir, "Интервью.mp4"), 6, 320, 240);
    const { assetId } = await client.upload(clip, "video/mp4");

    const started = await client.call(`/api/transcripts/${assetId}/recognize`, { json: { language: "ru" } });
    expect(started).toMatchObject({ version: 1 });
    const tasks = await client.waitTasks(assetId, 1, 180_000);
    const task = tasks.find((t) => t.template === "Расшифровка");
    expect(task?.status, task?.error).toBe("done");

    const transcript = await client.call(`/api/transcripts/${assetId}?version=1`);
    expect(transcript).toMatchObject({ language: "ru", source: "asr" });
    expect(transcript.segments.map((s: { text: string }) => s.text)).toContain(SPOKEN);
    const segment = transcript.segments.find((s: { text: string }) => s.text === SPOKEN);

    // What the endpoint got: the clip's sound as 16 kHz mono WAV, the model, verbose_json and the language.
    const received = (await (await fetch(`${inject("recogniserUrl")}/received`)).json()) as ReceivedPiece[];
    expect(received.length).toBeGreaterThan(0);
    for (const piece of received) {
      expect(piece.path).toBe("/v1/audio/transcriptions");
      expect([piece.rate, piece.channels]).toEqual([16000, 1]);
      expect(piece.fields).toMatchObject({ model: ["whisper-1"], response_format: ["verbose_json"], language: ["ru"] });
    }
    expect(received.reduce((n, p) => n + p.seconds, 0)).toBeCloseTo(6, 0);

    // «кошка» finds «Кошки» in the recognised speech, and the hit carries the segment's time.
    const found = await client.call<{ items: { el_id: string; at?: number; snippet: string }[] }>("/api/search/query", {
      json: { q: "кошка" },
    });
    const hit = found.items.find((i) => i.el_id === assetId);
    expect(hit).toMatchObject({ at: segment.start });
    expect(hit?.snippet).toContain("<mark>Кошки</mark>");
  });

  it("a recognised transcript starts the transcript.ready workflow on its asset, whose step runs", async () => {
    const stamp = Date.now().toString(36);
    const group = (
      await client.call("/api/group/create", { json: { parent: "ffffffff-ffff-ffff-ffff-ffffffffffff", group_name: `Речь ${stamp}` } })
    ).group_id as string;
    const tag = (await client.call("/api/tags/create", { json: { tag_name: `Расшифровано ${stamp}` } })).tag_id as string;
    const workflow = await workflowOf(client, `Расшифровка готова ${stamp}`, {
      trigger: { type: "transcript.ready", group_id: group },
      steps: [{ action: "tag.add", params: { tag_id: tag } }],
    });
    const { assetId } = await client.upload(makeClip(path.join(dir, "Совещание.mp4"), 3, 320, 240), "video/mp4", group);
    const tagsOf = async () => ((await client.call(`/api/asset/${assetId}`)).tags as { tag_id: string }[]).map((t) => t.tag_id);
    // Nothing before the transcript: the upload is not what the workflow waits for.
    expect(await tagsOf()).not.toContain(tag);

    await client.call(`/api/transcripts/${assetId}/recognize`, { json: { language: "ru" } });
    // The result crosses the queue and the transcoder; the transcript it saves is what starts the run.
    await until("the workflow's tag", async () => (await tagsOf()).includes(tag), 180_000);
    const [run] = await endedRuns(client, workflow);
    expect(run.status, run.error ?? "").toBe("done");
  });
});
