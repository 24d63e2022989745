import { type RefObject, useCallback, useEffect, useRef } from "react";
import { momentAt } from "./review-api";

/**
 * The player's keys as editors have them (issue 38, docs/decisions/061-review-and-approval.md, "Drawing and keys"):
 * J plays backwards, K stops, L plays forwards, and J or L pressed again while going that way doubles the speed
 * (1×, 2×, 4×, 8×); J or L while K is held steps one frame. The shown frame is read with requestVideoFrameCallback.
 */

export interface Shuttle {
  /** -1 backwards, 0 stopped, 1 forwards. */
  direction: -1 | 0 | 1;
  speed: number;
}
export const STOPPED: Shuttle = { direction: 0, speed: 1 };
export const SPEEDS = [1, 2, 4, 8] as const;

/** The next state after J, K or L: the same direction again goes one speed faster (up to 8×); the other way starts at 1×. */
export function shuttle(state: Shuttle, key: "J" | "K" | "L"): Shuttle {
  if (key === "K") return STOPPED;
  const direction = key === "L" ? 1 : -1;
  if (state.direction !== direction) return { direction, speed: 1 };
  const next = SPEEDS.find((s) => s > state.speed);
  return { direction, speed: next ?? SPEEDS[SPEEDS.length - 1] };
}

type Rate = { fps_num: number; fps_den: number } | null;

/** Whether a key press is typing into a form control (then J/K/L are letters). */
export const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/** One frame back or forward from the frame shown, paused, onto that frame's start (as «,» and «.»). */
export function stepFrame(el: HTMLMediaElement, rate: NonNullable<Rate>, delta: number) {
  el.pause();
  const frame = (momentAt(el.currentTime, rate).frame ?? 0) + delta;
  el.currentTime = Math.max(0, (frame * rate.fps_den) / rate.fps_num);
}

/**
 * J/K/L on the player, keys on their physical places (the same on a Russian layout), ignored while typing.
 * The media element cannot play backwards (Chromium refuses a negative playbackRate), so J moves the playhead back
 * on every animation frame at the chosen speed, paused; anything else that plays or seeks the player ends that.
 */
export function useShuttleKeys(media: RefObject<HTMLMediaElement | null> | null, rate: Rate) {
  const state = useRef<Shuttle>(STOPPED);
  const backwards = useRef<number | null>(null);
  const kHeld = useRef(false);

  useEffect(() => {
    if (!media) return;
    const stopBackwards = () => {
      if (backwards.current !== null) cancelAnimationFrame(backwards.current);
      backwards.current = null;
    };
    // The player's own controls (or a seek from a comment) take over: playing ends the backwards run, and a pause
    // that is not ours ends forward shuttling at its speed.
    const onPlay = (event: Event) => {
      if (backwards.current === null) return;
      stopBackwards();
      state.current = { direction: 1, speed: (event.target as HTMLMediaElement).playbackRate };
    };
    const onPause = (event: Event) => {
      if (state.current.direction !== 1) return;
      state.current = STOPPED;
      (event.target as HTMLMediaElement).playbackRate = 1;
    };
    // The element is looked up at each press: a fresh play link (a renewed link, a new variant) is a new element,
    // which starts stopped.
    let bound: HTMLMediaElement | null = null;
    const bind = (el: HTMLMediaElement | null) => {
      if (el === bound) return;
      bound?.removeEventListener("play", onPlay);
      bound?.removeEventListener("pause", onPause);
      stopBackwards();
      state.current = STOPPED;
      bound = el;
      el?.addEventListener("play", onPlay);
      el?.addEventListener("pause", onPause);
    };
    bind(media.current);
    const apply = (el: HTMLMediaElement, next: Shuttle) => {
      state.current = next;
      stopBackwards();
      if (next.direction === 0) {
        el.pause();
        el.playbackRate = 1;
      } else if (next.direction === 1) {
        el.playbackRate = next.speed;
        if (el.paused) el.play().catch((error) => console.error(error));
      } else {
        el.pause();
        el.playbackRate = 1;
        let last = performance.now();
        const tick = (now: number) => {
          const t = Math.max(0, el.currentTime - ((now - last) / 1000) * next.speed);
          last = now;
          el.currentTime = t;
          if (t <= 0) {
            backwards.current = null;
            state.current = STOPPED;
            return;
          }
          backwards.current = requestAnimationFrame(tick);
        };
        backwards.current = requestAnimationFrame(tick);
      }
    };
    const onKey = (event: KeyboardEvent) => {
      if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
      const key = event.code === "KeyJ" ? "J" : event.code === "KeyK" ? "K" : event.code === "KeyL" ? "L" : null;
      const el = media.current;
      if (!key || !el) return;
      bind(el);
      event.preventDefault();
      if (key === "K") {
        kHeld.current = true;
        if (!event.repeat) apply(el, shuttle(state.current, "K"));
      } else if (kHeld.current) {
        // K held: J and L step one frame, as in an editor.
        state.current = STOPPED;
        stopBackwards();
        if (rate) stepFrame(el, rate, key === "L" ? 1 : -1);
      } else if (!event.repeat) apply(el, shuttle(state.current, key));
    };
    const onUp = (event: KeyboardEvent) => {
      if (event.code === "KeyK") kHeld.current = false;
    };
    const release = () => {
      kHeld.current = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("keyup", onUp);
    window.addEventListener("blur", release);
    return () => {
      bind(null);
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("keyup", onUp);
      window.removeEventListener("blur", release);
    };
  }, [media, rate]);
}

/** The part of requestVideoFrameCallback's metadata used here (not in every TypeScript DOM library yet). */
interface FrameMeta {
  mediaTime: number;
}
type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (cb: (now: number, meta: FrameMeta) => void) => number;
  cancelVideoFrameCallback?: (id: number) => void;
};

/**
 * The time of the frame the player actually shows: requestVideoFrameCallback's `mediaTime` (the presentation time
 * of the frame last put on screen) where the browser has it, else `currentTime`. A seek makes the last reported
 * frame stale until the next one is presented; a stale or far-off report (more than half a second from the
 * playhead) falls back to `currentTime`, which a paused player's frame begins at or before.
 */
export function useShownTime(media: RefObject<HTMLMediaElement | null> | null) {
  const shown = useRef<number | null>(null);
  useEffect(() => {
    const el = media?.current as FrameCallbackVideo | null | undefined;
    if (!el || !(el instanceof HTMLVideoElement) || typeof el.requestVideoFrameCallback !== "function") return;
    let id = 0;
    const onFrame = (_now: number, meta: FrameMeta) => {
      shown.current = meta.mediaTime;
      id = el.requestVideoFrameCallback!(onFrame);
    };
    id = el.requestVideoFrameCallback(onFrame);
    const stale = () => {
      shown.current = null;
    };
    el.addEventListener("seeking", stale);
    el.addEventListener("emptied", stale);
    return () => {
      el.cancelVideoFrameCallback?.(id);
      el.removeEventListener("seeking", stale);
      el.removeEventListener("emptied", stale);
    };
  }, [media]);
  return useCallback(() => {
    const el = media?.current;
    if (!el) return 0;
    const s = shown.current;
    return s !== null && Math.abs(el.currentTime - s) < 0.5 ? s : el.currentTime;
  }, [media]);
}
