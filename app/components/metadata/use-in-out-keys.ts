import { type RefObject, useEffect } from "react";

/** Whether a key press is typing into a form control (then I, O and Enter are the control's). */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/**
 * I / O / Enter at the playhead, on the keyboard's physical keys (the same on a Russian layout): in, out, save.
 * Subscribed again on every render, so Enter saves what is on screen now.
 */
export function useInOutKeys(
  media: RefObject<HTMLMediaElement | null>,
  enabled: boolean,
  on: { in: (at: number) => void; out: (at: number) => void; enter: () => void },
) {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      const el = media.current;
      if (!el || typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.code === "KeyI") on.in(el.currentTime);
      else if (event.code === "KeyO") on.out(el.currentTime);
      else if (event.key === "Enter") on.enter();
      else return;
      event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  });
}
