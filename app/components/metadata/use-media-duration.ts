import { type RefObject, useEffect, useState } from "react";

/** The player's length in seconds once known, 0 before (subscribing to the element; nothing is loaded here). */
export function useMediaDuration(media: RefObject<HTMLMediaElement | null>) {
  const [duration, setDuration] = useState(0);
  useEffect(() => {
    const el = media.current;
    if (!el) return;
    const update = () => setDuration(Number.isFinite(el.duration) ? el.duration : 0);
    update();
    el.addEventListener("loadedmetadata", update);
    el.addEventListener("durationchange", update);
    return () => {
      el.removeEventListener("loadedmetadata", update);
      el.removeEventListener("durationchange", update);
    };
  }, [media]);
  return duration;
}
