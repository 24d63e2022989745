import { TextInput } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { useSearchParams } from "@remix-run/react";
import { useState } from "react";

/**
 * A list's search box bound to ?q=: typing replaces the address (debounced, no history entry per key) and
 * goes back to the first page; the route's loader does the search. The box starts from the address, so a
 * reload keeps the text.
 */
export function SearchParamInput({ label, placeholder }: { label: string; placeholder: string }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [text, setText] = useState(searchParams.get("q") ?? "");
  const apply = useDebouncedCallback((value: string) => {
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
