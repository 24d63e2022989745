/**
 * Synced playback of two versions (docs/decisions/061-review-and-approval.md, «Compare»): play, pause and a seek of
 * either element drive the other. A seek lands the other on the start of its own frame at the same moment, counted
 * at its own rate, so two versions at different rates each show a whole frame of the same instant.
 */

export interface FrameRate {
  fps_num: number;
  fps_den: number;
}

/** The frame a player shows at `seconds` (the review panel's rule: a hundredth of a frame of slack for float time). */
export const frameAt = (seconds: number, rate: FrameRate) => Math.max(0, Math.floor((seconds * rate.fps_num) / rate.fps_den + 0.01));

/** Where the other player goes for `seconds`: the start of its frame at that moment, or the seconds without a rate. */
export const syncTarget = (seconds: number, rate: FrameRate | null) =>
  rate ? (frameAt(seconds, rate) * rate.fps_den) / rate.fps_num : seconds;

/** Whether a player at `at` already shows what `target` asks for (the same frame; a millisecond without a rate). */
export const showsSame = (at: number, target: number, rate: FrameRate | null) =>
  rate ? frameAt(at, rate) === frameAt(target, rate) : Math.abs(at - target) < 1e-3;

/** Playing apart by more than this (seconds) brings the follower back to the leader. */
const DRIFT = 0.1;

type Media = Pick<HTMLMediaElement, "currentTime" | "paused" | "play" | "pause" | "addEventListener" | "removeEventListener" | "seeking">;

/**
 * Links two media elements; returns the function that unlinks them. A change the link makes itself (a seek or a
 * play it started) is recognised when its event comes back, so the two never chase each other.
 */
export function linkMedia(a: Media, b: Media, rates: [FrameRate | null, FrameRate | null]): () => void {
  const els = [a, b] as const;
  // The time each element was sent to by the link, until its `seeking` event arrives.
  const sent: (number | null)[] = [null, null];
  // Pauses the link made itself: their events only echo the other's pause.
  const pausing = [false, false];
  const seekTo = (i: 0 | 1, seconds: number) => {
    const el = els[i];
    const target = syncTarget(seconds, rates[i]);
    if (showsSame(el.currentTime, target, rates[i]) && !el.seeking) return;
    sent[i] = target;
    el.currentTime = target;
  };
  const handlers = ([0, 1] as const).map((i) => {
    const self = els[i];
    const j = (1 - i) as 0 | 1;
    const other = els[j];
    return {
      play: () => {
        if (other.paused) other.play().catch((error) => console.error(error));
      },
      pause: () => {
        if (pausing[i]) {
          pausing[i] = false;
          return;
        }
        if (!other.paused) {
          pausing[j] = true;
          other.pause();
        }
        // Paused together on the same moment, each on its own frame.
        seekTo(j, self.currentTime);
      },
      seeking: () => {
        if (sent[i] !== null && Math.abs(self.currentTime - sent[i]!) < 1e-3) {
          sent[i] = null;
          return;
        }
        sent[i] = null;
        if (self.paused) seekTo(j, self.currentTime);
        else {
          // While playing, the other follows the moment itself (snapping to a frame start would stutter).
          sent[j] = self.currentTime;
          other.currentTime = self.currentTime;
        }
      },
      timeupdate: () => {
        // The left one leads while both play: the right one is brought back when it drifts.
        if (i !== 0 || self.paused || other.paused || other.seeking) return;
        if (Math.abs(other.currentTime - self.currentTime) > DRIFT) {
          sent[j] = self.currentTime;
          other.currentTime = self.currentTime;
        }
      },
    };
  });
  const kinds = ["play", "pause", "seeking", "timeupdate"] as const;
  els.forEach((el, i) => {
    for (const k of kinds) el.addEventListener(k, handlers[i][k]);
  });
  return () =>
    els.forEach((el, i) => {
      for (const k of kinds) el.removeEventListener(k, handlers[i][k]);
    });
}

/** One frame forward (+1) or back (−1) at the rate (a 25th of a second without one), from the frame shown. */
export const stepTarget = (seconds: number, rate: FrameRate | null, by: 1 | -1) =>
  rate ? (Math.max(0, frameAt(seconds, rate) + by) * rate.fps_den) / rate.fps_num : Math.max(0, seconds + by / 25);
