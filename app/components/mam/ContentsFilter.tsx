import { TextInput } from "@mantine/core";
import { useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { ru } from "../../i18n/ru";
import { filterOf } from "./contents";

/** How long typing pauses before the list is asked again: one members call per pause, not per key. */
const TYPING_PAUSE_MS = 300;

/**
 * «Фильтр по имени» over a group's contents. The text goes into the address (`?q=`), which reloads the
 * route's list through the members call's `filters`: the server narrows the whole group (a group of
 * 100,000 included), not the page already loaded (docs/decisions/056).
 */
export function ContentsFilter() {
  const [params, setParams] = useSearchParams();
  const inAddress = filterOf(params) ?? "";
  const [text, setText] = useState(inAddress);
  const typed = useRef(inAddress);

  // Typed before the page's script took over (right after a load or a reload): the box holds that text, which
  // hydration keeps, but the state still has the address's. Taken once, at hydration, so it filters as typed.
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const early = box.current?.value;
    if (early !== undefined && early !== typed.current) {
      typed.current = early;
      setText(early);
    }
  }, []);

  // Back/forward or a link changes the address: the box follows it. Only a change: at hydration the box may hold
  // what was typed early (above), which the address does not have yet.
  const followed = useRef(inAddress);
  useEffect(() => {
    if (inAddress === followed.current) return;
    followed.current = inAddress;
    if (inAddress !== typed.current.trim()) {
      typed.current = inAddress;
      setText(inAddress);
    }
  }, [inAddress]);

  useEffect(() => {
    if (text.trim() === inAddress) return;
    const timer = setTimeout(() => {
      const next = new URLSearchParams(params);
      if (text.trim()) next.set("q", text.trim());
      else next.delete("q");
      setParams(next, { replace: true, preventScrollReset: true });
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, inAddress, params, setParams]);

  return (
    <TextInput
      size="xs"
      w={200}
      type="search"
      placeholder={ru.trash.filter}
      aria-label={ru.trash.filter}
      ref={box}
      value={text}
      onChange={(e) => {
        typed.current = e.currentTarget.value;
        setText(e.currentTarget.value);
      }}
    />
  );
}
