import { TextInput } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { useSearchParams } from "@remix-run/react";
import { useState } from "react";

/**
 * A list's search box bound to ?q=: typing replaces the address (debounced, no history entry per key) and
 * goes back to the first page; the route's loader does the search. The box shows the address's text, so a
 * reload or back/forward keeps them in step.
 */
export function SearchParamInput({ label, placeholder }: { label: string; placeholder: string }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get("q") ?? "";
  const [text, setText] = useState(q);
  // The text this box last put in the address; any other ?q= came from back/forward or a link, and the box follows it.
  const [applied, setApplied] = useState(q);
  if (q !== applied && q !== text.trim()) {
    setApplied(q);
    setText(q);
  }
  const apply = useDebouncedCallback((value: string) => {
    setApplied(value.trim());
    setSearchParams(
      (params) => {
        if (value.trim()) params.set("q", value.trim());
        else params.delete("q");
        params.delete("page");
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
  }, 250);
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        apply(e.currentTarget.value);
      }}
      w={320}
    />
  );
}
