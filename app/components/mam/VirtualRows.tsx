import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";

/** useLayoutEffect warns during server rendering; the measurements only matter in the browser. */
const useIsoLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;

export interface VirtualRowsProps {
  count: number;
  rowHeight: number;
  /** Rows rendered above and below the visible ones, so a fast scroll does not show blanks. */
  overscan?: number;
  renderRow: (index: number) => ReactNode;
  /**
   * Called with the last row index in view whenever what is in view may have changed: a scroll, a resize
   * of the list, rows added or removed (to load the next page).
   */
  onVisibleEnd?: (lastIndex: number) => void;
  /** The inner width, for callers that lay rows out as a grid. */
  onWidth?: (width: number) => void;
  label?: string;
}

const lastInView = (top: number, height: number, rowHeight: number, count: number) =>
  Math.min(count - 1, Math.ceil((top + height) / rowHeight));

/**
 * A windowed list: only the rows in view (plus overscan) are in the DOM, positioned inside a spacer as tall
 * as all rows, so 100,000 items scroll with a few dozen elements. Rows have one fixed height. What is in
 * view is measured on the browser's events (scroll, and a ResizeObserver on the list and on the spacer,
 * whose height follows the row count), and reported to onVisibleEnd from there.
 */
export function VirtualRows({ count, rowHeight, overscan = 6, renderRow, onVisibleEnd, onWidth, label }: VirtualRowsProps) {
  const ref = useRef<HTMLDivElement>(null);
  const spacer = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 800 });
  const latest = useRef({ count, rowHeight, onVisibleEnd });
  latest.current = { count, rowHeight, onVisibleEnd };

  const observe = (el: HTMLDivElement) => {
    const { count: n, rowHeight: h, onVisibleEnd: report } = latest.current;
    setView({ top: el.scrollTop, height: el.clientHeight });
    report?.(lastInView(el.scrollTop, el.clientHeight, h, n));
  };

  useIsoLayoutEffect(() => {
    const el = ref.current;
    if (!el || !spacer.current) return;
    const measure = () => {
      observe(el);
      onWidth?.(el.clientWidth);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    observer.observe(spacer.current);
    return () => observer.disconnect();
  }, [onWidth]);

  const first = Math.max(0, Math.floor(view.top / rowHeight) - overscan);
  const last = Math.min(count - 1, lastInView(view.top, view.height, rowHeight, count) + overscan);

  const rows: ReactNode[] = [];
  for (let i = first; i <= last; i++) {
    rows.push(
      <div
        key={i}
        data-row={i}
        style={{ position: "absolute", top: 0, left: 0, right: 0, height: rowHeight, transform: `translateY(${i * rowHeight}px)` }}
      >
        {renderRow(i)}
      </div>,
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: rows are absolutely positioned divs in a scroller, which a <ul> would not lay out
    <div
      ref={ref}
      role="list"
      aria-label={label}
      onScroll={(e) => observe(e.currentTarget)}
      style={{ flex: 1, minHeight: 0, overflowY: "auto", position: "relative" }}
    >
      <div ref={spacer} style={{ height: count * rowHeight, position: "relative" }}>
        {rows}
      </div>
    </div>
  );
}
