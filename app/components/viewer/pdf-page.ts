import { useRef, useState } from "react";
import { runAction } from "../../lib/actions";

/** Where the viewer's PDF was last opened: the page, the link it was opened on, and which opening it was. */
export interface PdfAt {
  page: number;
  src: string;
  /** Counts openings: each one loads the frame anew, so the same page again goes back there after the user scrolled away. */
  n: number;
}

/** The frame's address for an opening: the browser's PDF viewer (Chromium's, Firefox's pdf.js) starts at `#page=N`. */
export const pdfSrc = (src: string, at: PdfAt | null) => (at ? `${src.replace(/#.*$/, "")}#page=${at.page}` : src);

/**
 * Opening the viewer's PDF at a page (a click on a comment on a page, docs/decisions/061, "PDF pages"). The viewer in
 * the frame does not tell which page it shows nor take orders, but it honours `#page=N` when it loads, so an opening
 * loads the frame anew, on a fresh play link: the screen's own lives ten minutes (docs/decisions/021-user-bytes.md).
 * An opening is tied to the link the screen shows: another version or file starts on its first page.
 */
export function usePdfPage(link: string | null, renew: (() => Promise<string>) | undefined) {
  const [at, setAt] = useState<(PdfAt & { link: string }) | null>(null);
  const latest = useRef(0);
  const open = async (page: number) => {
    if (!link) return;
    const mine = ++latest.current;
    // A failed renewal falls back to the screen's link (still good within its ten minutes); the error is logged.
    const src = (renew && (await runAction(renew, { silent: true }))) || link;
    // Clicks answered out of order: the last click wins.
    if (mine !== latest.current) return;
    setAt((a) => ({ page, src, n: (a?.n ?? 0) + 1, link }));
  };
  return { at: at && at.link === link ? at : null, open };
}
