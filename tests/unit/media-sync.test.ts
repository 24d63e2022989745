import { describe, expect, it } from "vitest";
import { frameAt, linkMedia, showsSame, stepTarget, syncTarget } from "../../app/components/viewer/media-sync";

/** Synced playback of two versions (docs/decisions/061-review-and-approval.md «Compare»). */

/** A media element as far as the link sees it: setting the time seeks, play and pause change state, each with its event. */
class FakeMedia extends EventTarget {
  paused = true;
  seeking = false;
  seeks = 0;
  private time = 0;
  get currentTime() {
    return this.time;
  }
  set currentTime(t: number) {
    this.time = t;
    this.seeks++;
    this.dispatchEvent(new Event("seeking"));
  }
  async play() {
    if (!this.paused) return;
    this.paused = false;
    this.dispatchEvent(new Event("play"));
  }
  pause() {
    if (this.paused) return;
    this.paused = true;
    this.dispatchEvent(new Event("pause"));
  }
  /** Playback moving on by itself, as a player reports it. */
  advance(t: number) {
    this.time = t;
    this.dispatchEvent(new Event("timeupdate"));
  }
}

const r25 = { fps_num: 25, fps_den: 1 };
const r30 = { fps_num: 30, fps_den: 1 };
const ntsc = { fps_num: 30000, fps_den: 1001 };

describe("media sync", () => {
  it("counts the frame shown and its start at each rate", () => {
    expect(frameAt(2.2, r25)).toBe(55);
    expect(frameAt(2.235, r25)).toBe(55);
    expect(syncTarget(2.21, r25)).toBeCloseTo(2.2, 12);
    expect(syncTarget(0.97, r30)).toBeCloseTo(29 / 30, 12);
    // Frame 1800 at 29.97 starts at 60.06 s: its start reads back as frame 1800 despite float error.
    expect(frameAt(60.06, ntsc)).toBe(1800);
    expect(syncTarget(60.06, ntsc)).toBeCloseTo(60.06, 9);
    expect(syncTarget(1.234, null)).toBe(1.234);
    expect(showsSame(2.21, 2.2, r25)).toBe(true);
    expect(showsSame(2.25, 2.2, r25)).toBe(false);
    expect(stepTarget(2.21, r25, 1)).toBeCloseTo(2.24, 12);
    expect(stepTarget(0.01, r25, -1)).toBe(0);
  });

  it("a seek of either lands the other on its own frame of that moment, without chasing back", () => {
    const a = new FakeMedia();
    const b = new FakeMedia();
    const unlink = linkMedia(a, b, [r25, r30]);
    b.currentTime = 2.21;
    expect(a.currentTime).toBeCloseTo(2.2, 12);
    expect(b.currentTime).toBe(2.21);
    expect([a.seeks, b.seeks]).toEqual([1, 1]);
    a.currentTime = 0.97;
    expect(b.currentTime).toBeCloseTo(29 / 30, 12);
    expect(a.currentTime).toBe(0.97);
    // A seek within the frame the other already shows moves nothing.
    a.currentTime = 0.98;
    expect(b.seeks).toBe(2);
    unlink();
    a.currentTime = 3;
    expect(b.currentTime).toBeCloseTo(29 / 30, 12);
  });

  it("play and pause of one drive the other; paused, they stand on the same moment", async () => {
    const a = new FakeMedia();
    const b = new FakeMedia();
    linkMedia(a, b, [r25, r30]);
    await a.play();
    expect(b.paused).toBe(false);
    a.advance(1.5);
    // Drifted apart by more than a tenth of a second while playing: the right one is brought back.
    expect(b.currentTime).toBe(1.5);
    a.advance(1.55);
    expect(b.currentTime).toBe(1.5);
    b.pause();
    expect(a.paused).toBe(true);
    // The right one paused at 1.5 s: the left one stands on the start of its frame of that moment (frame 37, 1.48 s).
    expect(a.currentTime).toBeCloseTo(1.48, 12);
    expect(b.currentTime).toBe(1.5);
  });
});
