import { useCallback, useEffect, useRef, useState } from "react";
import { whenMediaSigned } from "./service-worker";

/**
 * For an <img> of bytes the service worker signs (under /api/asset/content/): an image that failed because the page
 * was not under the worker's control yet is asked for again, once, when it is (whenMediaSigned); any other failure
 * stays one. `attempt` is the <img>'s `key`, `broken` says to show something else; `ref` and `onError` go on the <img>.
 */
export function useSignedImage() {
  const [attempt, setAttempt] = useState(0);
  const [broken, setBroken] = useState(false);
  const waiting = useRef<(() => void) | null>(null);
  // Only the subscription's end: the retry itself is the <img> rendered again with a new key.
  useEffect(() => () => waiting.current?.(), []);
  const failed = useRef(() => {});
  failed.current = () => {
    if (waiting.current) return;
    const retry = () => {
      waiting.current = null;
      setAttempt(1);
    };
    const wait = attempt === 0 ? whenMediaSigned(retry) : null;
    if (wait) waiting.current = wait;
    else setBroken(true);
  };
  const onError = useCallback(() => failed.current(), []);
  /** The server's HTML asks for the image before the page hydrates, and an error then never reaches React. */
  const ref = useCallback((el: HTMLImageElement | null) => {
    if (el?.complete && el.naturalWidth === 0 && el.currentSrc) failed.current();
  }, []);
  return { attempt, broken, onError, ref };
}
